import MarkbridgeDiff
import MarkbridgeIR

/// Issue 22, the writer's guarantee at document level: what a document written and read back
/// lost that no warning of the write step explains. Shared by the corpus round trip
/// (`CorpusRoundTripTests`) and the fuzzer's `convert` target.
public enum UnreportedChanges {
    /// The changes between `before` and its read-back that no warning in `writeDiagnostics`
    /// explains. A warning explains the block it names, and all of the table or definition list
    /// that block starts (the writer reports a flattened container once), or of the empty list
    /// item it names; an inserted block is explained by a warning on the block before or after
    /// the place it stands. A warning that names no block explains everything.
    public static func of(before: Document, writeDiagnostics: [Diagnostic], changes: [BlockChange]) -> [BlockChange] {
        let warnings = writeDiagnostics.filter { $0.severity == .warning }
        if warnings.contains(where: { $0.block == nil }) { return [] }
        let blocks = before.blocks
        var named = Set<Int>()
        for index in warnings.compactMap(\.block) where blocks.indices.contains(index) {
            let end: Int
            switch blocks[index].kind {
            case .definitionTerm, .definitionDescription: end = blocks.endOfDefinitionList(startingAt: index)
            case .tableRow: end = blocks.endOfTable(startingAt: index)
            case .unorderedListItem where blocks[index].text.isEmpty, .orderedListItem where blocks[index].text.isEmpty:
                end = blocks[(index + 1)...].firstIndex { $0.depth <= blocks[index].depth } ?? blocks.count
            default: end = index + 1
            }
            named.formUnion(index..<end)
        }
        // How many more blocks of `before` than of `after` stand before the change at hand.
        var shift = 0
        return changes.filter { change in
            switch change {
            case .deleted(let index, _):
                shift += 1
                return !named.contains(index)
            case .moved(let from, _, _), .changed(let from, _, _):
                return !named.contains(from)
            case .inserted(let index, _):
                let place = index + shift
                shift -= 1
                return !(named.contains(place) || named.contains(place - 1))
            }
        }
    }
}
