import MarkbridgeIR

/// Two documents' blocks put side by side: aligned by their keys (``BlockComparator/key(_:)``,
/// compared code unit by code unit), the blocks deleted and inserted between two kept ones
/// paired where one reads as the other edited, and what is left paired as moves: unchanged
/// (`moved`) or edited (`changed` with ``BlockDifferences/isMoved``).
struct BlockAligner {
    private let old: Document, new: Document
    private let comparator: BlockComparator
    private var profiles: WordProfiles
    private var oldKeys: [Int] = [], newKeys: [Int] = []
    /// Which replacement run (the stretch between two kept blocks) each unkept block is in: a
    /// pair in the same run did not move, whatever their indices.
    private var oldRun: [Int], newRun: [Int]
    /// The blocks paired in place in each run, in order: a later pair in the run that would
    /// cross one of them moved.
    private var runPairs: [Int: [(old: Int, new: Int)]] = [:]

    /// How many inserted blocks ahead a deleted one looks for its counterpart.
    static let lookahead = 8

    /// How many deleted × inserted pairs the search for edited moves compares by similarity; past
    /// it, only blocks whose text is unchanged are paired, so the search stays linear.
    static let editedMoveComparisons = 10_000

    init(_ old: Document, _ new: Document, comparator: BlockComparator) {
        self.old = old
        self.new = new
        self.comparator = comparator
        profiles = WordProfiles(old, new)
        oldRun = Array(repeating: -1, count: old.blocks.count)
        newRun = Array(repeating: -1, count: new.blocks.count)
        var keys: [BlockKey: Int] = [:]
        func key(_ block: Block) -> Int {
            let key = BlockKey(comparator.key(block))
            if let known = keys[key] { return known }
            keys[key] = keys.count
            return keys.count - 1
        }
        oldKeys = old.blocks.map(key)
        newKeys = new.blocks.map(key)
    }

    mutating func changes() -> [BlockChange] {
        var changes: [BlockChange] = []
        var deleted: [Int] = [], inserted: [Int] = []
        var run = 0
        for step in SequenceAlignment.align(oldKeys, newKeys) {
            switch step {
            case .keep(let oldIndex, let newIndex):
                changes += replacements(deleted, inserted, run: run)
                deleted.removeAll()
                inserted.removeAll()
                run += 1
                // Equal keys are the same block to the caller; what the options ignore is not
                // reported, but the kept pair still shows as changed if anything else differs.
                if BlockKey(old.blocks[oldIndex]) != BlockKey(new.blocks[newIndex]),
                   let details = comparator.compare(old.blocks[oldIndex], new.blocks[newIndex]) {
                    changes.append(.changed(from: oldIndex, to: newIndex, details))
                }
            case .delete(let index): deleted.append(index)
            case .insert(let index): inserted.append(index)
            }
        }
        changes += replacements(deleted, inserted, run: run)
        return findingEditedMoves(findingMoves(changes))
    }

    /// The blocks deleted and inserted between two kept ones, in document order: paired in order
    /// as changed blocks where one reads as the other edited, the rest deleted and inserted.
    /// Each deleted block looks a few inserted ones ahead, so a long run stays linear.
    private mutating func replacements(_ deleted: [Int], _ inserted: [Int], run: Int) -> [BlockChange] {
        guard !deleted.isEmpty || !inserted.isEmpty else { return [] }
        for index in deleted { oldRun[index] = run }
        for index in inserted { newRun[index] = run }
        var pairs: [(Int, Int)] = []
        var pairedOld = Set<Int>(), pairedNew = Set<Int>()
        var cursor = 0
        for oldIndex in deleted {
            let window = cursor..<min(inserted.count, cursor + Self.lookahead)
            if let match = window.first(where: {
                comparator.areCounterparts(oldIndex, inserted[$0], in: &profiles)
            }) {
                pairs.append((oldIndex, inserted[match]))
                pairedOld.insert(oldIndex)
                pairedNew.insert(inserted[match])
                cursor = match + 1
            }
        }
        // In document order: before each pair, what was deleted and inserted ahead of it.
        var changes: [BlockChange] = []
        var nextDeleted = 0, nextInserted = 0
        func emit(upToOld oldLimit: Int, new newLimit: Int) {
            while nextDeleted < deleted.count, deleted[nextDeleted] < oldLimit {
                let index = deleted[nextDeleted]
                if !pairedOld.contains(index) { changes.append(.deleted(index: index, block: old.blocks[index])) }
                nextDeleted += 1
            }
            while nextInserted < inserted.count, inserted[nextInserted] < newLimit {
                let index = inserted[nextInserted]
                if !pairedNew.contains(index) { changes.append(.inserted(index: index, block: new.blocks[index])) }
                nextInserted += 1
            }
        }
        runPairs[run] = pairs.map { (old: $0.0, new: $0.1) }
        for (oldIndex, newIndex) in pairs {
            emit(upToOld: oldIndex, new: newIndex)
            nextDeleted += 1
            nextInserted += 1
            if let details = comparator.compare(old.blocks[oldIndex], new.blocks[newIndex]) {
                changes.append(.changed(from: oldIndex, to: newIndex, details))
            }
        }
        emit(upToOld: Int.max, new: Int.max)
        return changes
    }

    /// A block deleted in one place and inserted, the same, in another is a move.
    private func findingMoves(_ changes: [BlockChange]) -> [BlockChange] {
        // For each key, the insertions of it in order, and how many have been taken.
        var insertedByKey: [Int: (positions: [Int], taken: Int)] = [:]
        for (position, change) in changes.enumerated() {
            if case .inserted(let index, _) = change { insertedByKey[newKeys[index], default: ([], 0)].positions.append(position) }
        }
        guard !insertedByKey.isEmpty else { return changes }
        var result = changes
        var removed = Set<Int>()
        for (position, change) in changes.enumerated() {
            guard case .deleted(let index, let block) = change, let candidates = insertedByKey[oldKeys[index]],
                  candidates.taken < candidates.positions.count else { continue }
            let insertion = candidates.positions[candidates.taken]
            insertedByKey[oldKeys[index]]!.taken += 1
            guard case .inserted(let newIndex, _) = changes[insertion] else { continue }
            result[position] = .moved(from: index, to: newIndex, block: block)
            removed.insert(insertion)
        }
        return result.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }

    /// A block deleted in one place and inserted, edited, in another (a paragraph moved and made
    /// a heading) is a change, marked as moved when it left its run: paired by equal text first,
    /// then, for a bounded number of candidates, by the counterpart rule.
    private mutating func findingEditedMoves(_ changes: [BlockChange]) -> [BlockChange] {
        var deletions: [(position: Int, index: Int)] = [], insertions: [(position: Int, index: Int)] = []
        for (position, change) in changes.enumerated() {
            switch change {
            case .deleted(let index, _): deletions.append((position, index))
            case .inserted(let index, _): insertions.append((position, index))
            case .moved, .changed: break
            }
        }
        guard !deletions.isEmpty, !insertions.isEmpty else { return changes }
        var result = changes
        var removed = Set<Int>()
        func pair(_ deletion: (position: Int, index: Int), _ insertion: (position: Int, index: Int)) -> Bool {
            guard var details = comparator.compare(old.blocks[deletion.index], new.blocks[insertion.index]) else { return false }
            details.isMoved = !isInPlace(old: deletion.index, new: insertion.index)
            result[deletion.position] = .changed(from: deletion.index, to: insertion.index, details)
            removed.insert(insertion.position)
            return true
        }
        var insertedByText: [CodeUnits: (entries: [(position: Int, index: Int)], taken: Int)] = [:]
        for insertion in insertions { insertedByText[CodeUnits(new.blocks[insertion.index].text), default: ([], 0)].entries.append(insertion) }
        var unpaired: [(position: Int, index: Int)] = []
        for deletion in deletions {
            let text = CodeUnits(old.blocks[deletion.index].text)
            if let candidates = insertedByText[text], candidates.taken < candidates.entries.count {
                insertedByText[text]!.taken += 1
                if pair(deletion, candidates.entries[candidates.taken]) { continue }
            }
            unpaired.append(deletion)
        }
        let remaining = insertions.filter { !removed.contains($0.position) }
        if unpaired.count * remaining.count <= Self.editedMoveComparisons {
            for deletion in unpaired {
                guard let insertion = remaining.first(where: {
                    !removed.contains($0.position)
                        && comparator.areCounterparts(deletion.index, $0.index, in: &profiles)
                }) else { continue }
                _ = pair(deletion, insertion)
            }
        }
        return result.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}

extension BlockAligner {
    /// Whether pairing these two blocks keeps both documents in order: they are in the same run
    /// and cross none of the pairs already in place there. A pair that is in place is added to
    /// its run's.
    fileprivate mutating func isInPlace(old oldIndex: Int, new newIndex: Int) -> Bool {
        let run = oldRun[oldIndex]
        guard run == newRun[newIndex] else { return false }
        var pairs = runPairs[run] ?? []
        var low = 0, high = pairs.count
        while low < high {
            let middle = (low + high) / 2
            if pairs[middle].old > oldIndex { high = middle } else { low = middle + 1 }
        }
        let position = low
        if position > 0, pairs[position - 1].new > newIndex { return false }
        if position < pairs.count, pairs[position].new < newIndex { return false }
        pairs.insert((old: oldIndex, new: newIndex), at: position)
        runPairs[run] = pairs
        return true
    }
}

/// Text compared and hashed by its UTF-8 code units, not by canonical equivalence: a migration
/// that changes "é" (one scalar) into "é" (two) changed the text, and a diff says so.
struct CodeUnits: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: CodeUnits, b: CodeUnits) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

/// A block as the alignment compares it: its text by code units (``CodeUnits``), the rest as the
/// IR compares it.
struct BlockKey: Hashable {
    let text: CodeUnits
    let rest: Block

    init(_ block: Block) {
        text = CodeUnits(block.text)
        var rest = block
        rest.text = ""
        self.rest = rest
    }
}
