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
    ///
    /// Two equal blocks are interchangeable to the diff, which aligns the first it can: when a
    /// change falls on a block no warning names, while an equal block that a warning does name
    /// came through unchanged, the alignment that swaps the two reads back the same and is
    /// explained, so the change is too (each unchanged block stands in for one change).
    ///
    /// More generally, the diff's alignment is one of several: when another keeps every block no
    /// warning names, whole and in order, and puts every other block of the read-back where
    /// named blocks stood (``namedBlocksExplainTheRest(before:named:changes:)``), nothing is
    /// unexplained, whatever the diff paired.
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
        let unexplained = changes.filter { change in
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
        if unexplained.isEmpty || namedBlocksExplainTheRest(before: blocks, named: named, changes: changes) { return [] }
        return withoutSwaps(unexplained, before: blocks, named: named, changes: changes)
    }

    /// Whether an alignment of `before` with its read-back (rebuilt from the changes) keeps
    /// every block no warning names, whole and in order, and has every other block of the
    /// read-back stand where named blocks stood: between two unnamed blocks (or before the first,
    /// or after the last) that named blocks separate.
    private static func namedBlocksExplainTheRest(before blocks: [Block], named: Set<Int>, changes: [BlockChange]) -> Bool {
        var replaced = Set<Int>()
        var placed: [Int: Block] = [:]
        for change in changes {
            switch change {
            case .deleted(let index, _): replaced.insert(index)
            case .inserted(let index, let block): placed[index] = block
            case .moved(let from, let to, let block):
                replaced.insert(from)
                placed[to] = block
            case .changed(let from, let to, let differences):
                replaced.insert(from)
                placed[to] = differences.new
            }
        }
        // The blocks the alignment kept are in order on both sides, in the places left.
        var kept = blocks.indices.lazy.filter { !replaced.contains($0) }.makeIterator()
        var after: [Block] = []
        for index in 0..<(blocks.count - replaced.count + placed.count) {
            if let block = placed[index] { after.append(block) } else if let old = kept.next() { after.append(blocks[old]) }
        }
        // Unnamed blocks with no named block between them must stay side by side: each run of
        // them is found whole, the first place it stands on or after the run before (the
        // leftmost, which leaves the most room for the runs after it). A run at the start or the
        // end of `before` must stand at the start or the end of the read-back.
        var position = 0
        var runStart = 0
        while runStart < blocks.count {
            guard !named.contains(runStart) else {
                runStart += 1
                continue
            }
            var runEnd = runStart + 1
            while runEnd < blocks.count, !named.contains(runEnd) { runEnd += 1 }
            let run = blocks[runStart..<runEnd]
            func standsAt(_ place: Int) -> Bool { place + run.count <= after.count && after[place..<(place + run.count)].elementsEqual(run) }
            if runStart == 0 {
                guard standsAt(0) else { return false }
                position = run.count
            } else if runEnd == blocks.count {
                guard after.count - run.count >= position, standsAt(after.count - run.count) else { return false }
                position = after.count
            } else {
                guard let place = (position...max(position, after.count - run.count)).first(where: standsAt) else { return false }
                position = place + run.count
            }
            runStart = runEnd
        }
        // Blocks of the read-back after the last run stand where the named blocks after it stood.
        return position == after.count || named.contains(blocks.count - 1)
    }

    /// `unexplained` less each change on a block an equal, named and unchanged block can stand in for.
    private static func withoutSwaps(_ unexplained: [BlockChange], before blocks: [Block], named: Set<Int>, changes: [BlockChange]) -> [BlockChange] {
        var changedBlocks = Set<Int>()
        for change in changes {
            switch change {
            case .deleted(let index, _): changedBlocks.insert(index)
            case .moved(let from, _, _), .changed(let from, _, _): changedBlocks.insert(from)
            case .inserted: break
            }
        }
        var standIns: [Block: [Int]] = [:]
        for index in named.sorted(by: >) where !changedBlocks.contains(index) {
            standIns[blocks[index], default: []].append(index)
        }
        return unexplained.filter { change in
            let index: Int
            switch change {
            case .deleted(let deleted, _): index = deleted
            case .moved(let from, _, _), .changed(let from, _, _): index = from
            case .inserted: return true
            }
            return standIns[blocks[index]]?.popLast() == nil
        }
    }
}
