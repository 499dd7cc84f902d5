import MarkbridgeDiff
import MarkbridgeIR
import MarkbridgeTestSupport
import Testing

/// The round-trip oracle (``UnreportedChanges``): which changes a write step's warnings explain.
@Suite("Unreported changes: what the write step's warnings explain")
struct UnreportedChangesTests {
    /// An empty item whose paragraph "a" merges into it (block 1, named by the warning on block 0),
    /// and a second paragraph "a" in an item with text (block 3), which comes back unchanged.
    static let document = Document(blocks: [
        Block(.orderedListItem(number: 5)),
        Block(.paragraph, text: "a", depth: 1),
        Block(.orderedListItem(number: 6), text: "x"),
        Block(.paragraph, text: "a", depth: 1),
    ])
    static let merged = [Diagnostic(.warning, code: "empty-item-merged", message: "", block: 0)]

    static func merge(_ index: Int) -> BlockChange {
        let old = document.blocks[index]
        let new = Block(.orderedListItem(number: 5), text: "a")
        return .changed(from: index, to: 0, BlockDifferences(text: [], markups: [], attributes: [], old: old, new: new, isMoved: index != 1))
    }

    @Test("A change on the named block is explained")
    func namedBlock() {
        #expect(UnreportedChanges.of(before: Self.document, writeDiagnostics: Self.merged,
                                     changes: [.deleted(index: 0, block: Self.document.blocks[0]), Self.merge(1)]).isEmpty)
    }

    @Test("Aligned to the equal block no warning names, the change is explained by the named one, which came through unchanged")
    func equalBlockStandsIn() {
        #expect(UnreportedChanges.of(before: Self.document, writeDiagnostics: Self.merged,
                                     changes: [.deleted(index: 0, block: Self.document.blocks[0]), Self.merge(3)]).isEmpty)
    }

    @Test("A named equal block stands in for one change only, and only when it came through unchanged")
    func standInOnce() {
        let both = [Self.merge(1), Self.merge(3)]
        #expect(UnreportedChanges.of(before: Self.document, writeDiagnostics: Self.merged, changes: both) == [Self.merge(3)])
        var unequal = Self.document
        unequal.blocks[3].text = "b"
        let change = BlockChange.changed(from: 3, to: 0, BlockDifferences(text: [], markups: [], attributes: [], old: unequal.blocks[3], new: unequal.blocks[3], isMoved: true))
        #expect(UnreportedChanges.of(before: unequal, writeDiagnostics: Self.merged, changes: [change]) == [change])
    }
}
