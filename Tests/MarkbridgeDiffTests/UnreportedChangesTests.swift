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

    @Test("A block that came through whole, aligned as moved, is explained when another alignment keeps every unnamed block whole and in order (a convert fuzz finding)")
    func movePastNamedBlocks() {
        // Blocks 0 and 1 merge into "a" (named); the alignment pairs paragraph 1 with the
        // later item "a" (block 3, equal to the merged one) and so calls paragraph 2 moved.
        let document = Document(blocks: [
            Block(.orderedListItem(number: 1)),
            Block(.paragraph, text: "a", depth: 1),
            Block(.paragraph, text: "p", depth: 1),
            Block(.orderedListItem(number: 1), text: "a"),
        ])
        let merged = Block(.orderedListItem(number: 1), text: "a")
        let changes: [BlockChange] = [
            .deleted(index: 0, block: document.blocks[0]),
            .changed(from: 1, to: 2, BlockDifferences(text: [], markups: [], attributes: [], old: document.blocks[1], new: merged, isMoved: false)),
            .moved(from: 2, to: 1, block: document.blocks[2]),
        ]
        let warnings = [Diagnostic(.warning, code: "empty-item-merged", message: "", block: 0)]
        // Block 3 is aligned with read-back block 0, so "p" is called moved; read back, "p" and the item "a" after it are still in order.
        #expect(UnreportedChanges.of(before: document, writeDiagnostics: warnings, changes: changes) == [])
        // Named otherwise, blocks 0 and 1 are not in the read-back: the move is unexplained.
        let unnamed = [Diagnostic(.warning, code: "list-split", message: "", block: 3)]
        #expect(UnreportedChanges.of(before: document, writeDiagnostics: unnamed, changes: changes).contains(changes[2]))
    }

    @Test("Every unnamed block whole and in order is not enough: a block the read-back gains between two unnamed blocks, or an unnamed block changed, stays unexplained")
    func otherAlignmentStillFindsLoss() {
        let document = Document(blocks: [
            Block(.orderedListItem(number: 1)),
            Block(.paragraph, text: "a", depth: 1),
            Block(.paragraph, text: "p"),
            Block(.paragraph, text: "q"),
        ])
        let warnings = [Diagnostic(.warning, code: "empty-item-merged", message: "", block: 0)]
        let merged = BlockChange.changed(from: 1, to: 0, BlockDifferences(text: [], markups: [], attributes: [], old: document.blocks[1], new: Block(.orderedListItem(number: 1), text: "a"), isMoved: false))
        // Read back as [1. a, p, x, q]: "x" stands between "p" and "q", which nothing named separates.
        let gained = BlockChange.inserted(index: 2, block: Block(.paragraph, text: "x"))
        #expect(UnreportedChanges.of(before: document, writeDiagnostics: warnings, changes: [.deleted(index: 0, block: document.blocks[0]), merged, gained]) == [gained])
        // Read back as [1. a, p, q'] with q changed: unnamed and not whole.
        let changedQ = BlockChange.changed(from: 3, to: 2, BlockDifferences(text: [], markups: [], attributes: [], old: document.blocks[3], new: Block(.paragraph, text: "q2"), isMoved: false))
        #expect(UnreportedChanges.of(before: document, writeDiagnostics: warnings, changes: [.deleted(index: 0, block: document.blocks[0]), merged, changedQ]) == [changedQ])
        // Read back as [1. a, x, p, q]: "x" stands where the named blocks stood, explained by them.
        let besideNamed = BlockChange.inserted(index: 1, block: Block(.paragraph, text: "x"))
        #expect(UnreportedChanges.of(before: document, writeDiagnostics: warnings, changes: [.deleted(index: 0, block: document.blocks[0]), merged, besideNamed]) == [])
    }
}
