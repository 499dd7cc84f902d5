import MarkbridgeIR

/// How two documents differ, block by block, as values: what a migration changes or loses.
///
/// Blocks are aligned by a longest common subsequence over their content (Myers), so an inserted
/// paragraph changes nothing after it; a block deleted in one place and inserted unchanged in
/// another is a move. Aligned blocks that differ are compared in detail: their text at word
/// granularity (characters in scripts without spaces), their markups over the text they cover,
/// and their attributes (kind, depth, quote depth, language, alignment, image).
public struct DocumentDiff: Hashable, Sendable {
    public var changes: [BlockChange]

    public init(changes: [BlockChange]) {
        self.changes = changes
    }

    /// Whether the documents are the same, as far as the options compare them.
    public var isEmpty: Bool { changes.isEmpty }
}

/// One block's change. Offsets are UTF-16, into the block's text on its side.
public enum BlockChange: Hashable, Sendable {
    /// A block of the second document with no counterpart in the first, at `index` in the second.
    case inserted(index: Int, block: Block)
    /// A block of the first document with no counterpart in the second.
    case deleted(index: Int, block: Block)
    /// The same block at another place.
    case moved(from: Int, to: Int, block: Block)
    /// Counterparts that differ: the details (``BlockDifferences/isMoved`` when the block moved too).
    case changed(from: Int, to: Int, BlockDifferences)
}

/// What differs between two counterpart blocks.
public struct BlockDifferences: Hashable, Sendable {
    public var text: [TextEdit]
    public var markups: [MarkupChange]
    public var attributes: [AttributeChange]
    public var old: Block
    public var new: Block
    /// Whether the block also moved: its place among the blocks kept in common differs.
    public var isMoved: Bool

    public init(text: [TextEdit], markups: [MarkupChange], attributes: [AttributeChange], old: Block, new: Block, isMoved: Bool = false) {
        self.text = text
        self.markups = markups
        self.attributes = attributes
        self.old = old
        self.new = new
        self.isMoved = isMoved
    }
}

/// A run of text removed, added or replaced, with its place on both sides.
public struct TextEdit: Hashable, Sendable {
    public var old: TextRange
    public var new: TextRange
    public var removed: String
    public var added: String

    public init(old: TextRange, new: TextRange, removed: String, added: String) {
        self.old = old
        self.new = new
        self.removed = removed
        self.added = added
    }
}

/// A markup gone, come, or changed in its attributes, with the text it covers.
public struct MarkupChange: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case removed, added, changed
    }

    public var kind: Kind
    /// The markup's kind name (`STRONG`, `LINK`).
    public var name: String
    public var oldRange: TextRange?
    public var newRange: TextRange?
    /// The text it covers, on the side it is on (the new side for a change).
    public var text: String
    /// For a change: the attribute and its two values (`href`, `https://a/`, `https://b/`).
    public var attribute: String?
    public var oldValue: String?
    public var newValue: String?

    public init(kind: Kind, name: String, oldRange: TextRange?, newRange: TextRange?, text: String,
                attribute: String? = nil, oldValue: String? = nil, newValue: String? = nil) {
        self.kind = kind
        self.name = name
        self.oldRange = oldRange
        self.newRange = newRange
        self.text = text
        self.attribute = attribute
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

/// A block attribute with its two values, as markup JSON spells them.
public struct AttributeChange: Hashable, Sendable {
    public var name: String
    public var old: String
    public var new: String

    public init(name: String, old: String, new: String) {
        self.name = name
        self.old = old
        self.new = new
    }
}

/// Classes of change a caller does not care about (`markbridge diff --ignore`).
public struct DiffOptions: Hashable, Sendable {
    /// Whitespace differences in text (runs of spaces, line breaks) are no change.
    public var ignoresWhitespace: Bool
    /// Markups of these kinds are not compared (`COLOR`, `BACKGROUND`).
    public var ignoredMarkups: Set<MarkupKind.Tag>
    /// Links are compared by the text they cover, not by where they point.
    public var ignoresLinkTargets: Bool
    /// Block attributes (depth, alignment, ...) are not compared; kinds still are.
    public var ignoresAttributes: Bool

    public init(ignoresWhitespace: Bool = false, ignoredMarkups: Set<MarkupKind.Tag> = [], ignoresLinkTargets: Bool = false,
                ignoresAttributes: Bool = false) {
        self.ignoresWhitespace = ignoresWhitespace
        self.ignoredMarkups = ignoredMarkups
        self.ignoresLinkTargets = ignoresLinkTargets
        self.ignoresAttributes = ignoresAttributes
    }

    public static let `default` = DiffOptions()
}

extension DocumentDiff {
    /// The differences between `old` and `new`. Near-linear for documents that mostly agree;
    /// the alignment is bounded (``SequenceAlignment``), so a pathological pair is not quadratic.
    public init(_ old: Document, _ new: Document, options: DiffOptions = .default) {
        let comparator = BlockComparator(options: options)
        // Blocks align by what they are and say; counterparts that differ in detail align too,
        // when they are at the same place among their neighbours (a replaced pair).
        var keys: [Block: Int] = [:]
        func key(_ block: Block) -> Int {
            let key = comparator.key(block)
            if let known = keys[key] { return known }
            keys[key] = keys.count
            return keys.count - 1
        }
        let oldKeys = old.blocks.map(key), newKeys = new.blocks.map(key)
        var changes: [BlockChange] = []
        var deleted: [Int] = [], inserted: [Int] = []
        var profiles = WordProfiles(old, new)
        func flushReplacements() {
            // Deleted and inserted blocks between two kept ones: paired in order as changed
            // blocks where one reads as the other edited, the rest left as they are. Each
            // deleted block looks a few inserted ones ahead, so a long run stays linear.
            var pairedNew = Set<Int>()
            var cursor = 0
            for oldIndex in deleted {
                let window = cursor..<min(inserted.count, cursor + Self.lookahead)
                if let match = window.first(where: {
                    comparator.areCounterparts(old.blocks[oldIndex], profiles.old(oldIndex), new.blocks[inserted[$0]], profiles.new(inserted[$0]))
                }) {
                    let newIndex = inserted[match]
                    pairedNew.insert(newIndex)
                    cursor = match + 1
                    if let details = comparator.compare(old.blocks[oldIndex], new.blocks[newIndex]) {
                        changes.append(.changed(from: oldIndex, to: newIndex, details))
                    }
                } else {
                    changes.append(.deleted(index: oldIndex, block: old.blocks[oldIndex]))
                }
            }
            for newIndex in inserted where !pairedNew.contains(newIndex) {
                changes.append(.inserted(index: newIndex, block: new.blocks[newIndex]))
            }
            deleted.removeAll()
            inserted.removeAll()
        }
        for step in SequenceAlignment.align(oldKeys, newKeys) {
            switch step {
            case .keep(let oldIndex, let newIndex):
                flushReplacements()
                // Equal keys are the same block to the caller; what the options ignore is not
                // reported, but the kept pair still shows as changed if anything else differs.
                if old.blocks[oldIndex] != new.blocks[newIndex], let details = comparator.compare(old.blocks[oldIndex], new.blocks[newIndex]) {
                    changes.append(.changed(from: oldIndex, to: newIndex, details))
                }
            case .delete(let index): deleted.append(index)
            case .insert(let index): inserted.append(index)
            }
        }
        flushReplacements()
        let moves = Self.findingMoves(changes, oldKeys: oldKeys, newKeys: newKeys)
        self.changes = Self.findingEditedMoves(moves, old: old, new: new, comparator: comparator, profiles: &profiles)
    }

    /// How many deleted × inserted pairs the search for edited moves compares by similarity; past
    /// it, only blocks whose text is unchanged are paired, so the search stays linear.
    private static let editedMoveComparisons = 10_000

    /// A block deleted in one place and inserted, edited, in another (a paragraph moved and made
    /// a heading) is a change marked as moved: paired by equal text first, then, for a bounded
    /// number of candidates, by the counterpart rule.
    private static func findingEditedMoves(_ changes: [BlockChange], old: Document, new: Document,
                                           comparator: BlockComparator, profiles: inout WordProfiles) -> [BlockChange] {
        var deleted: [Int] = [], inserted: [Int] = []
        for (position, change) in changes.enumerated() {
            switch change {
            case .deleted: deleted.append(position)
            case .inserted: inserted.append(position)
            case .moved, .changed: break
            }
        }
        guard !deleted.isEmpty, !inserted.isEmpty else { return changes }
        func index(_ position: Int) -> Int {
            switch changes[position] {
            case .deleted(let index, _), .inserted(let index, _): index
            case .moved(let from, _, _), .changed(let from, _, _): from
            }
        }
        var result = changes
        var removed = Set<Int>()
        var pairedInsertions = Set<Int>()
        func pair(_ deletion: Int, _ insertion: Int) -> Bool {
            let from = index(deletion), to = index(insertion)
            guard var details = comparator.compare(old.blocks[from], new.blocks[to]) else { return false }
            details.isMoved = true
            result[deletion] = .changed(from: from, to: to, details)
            removed.insert(insertion)
            pairedInsertions.insert(insertion)
            return true
        }
        var insertedByText: [String: [Int]] = [:]
        for position in inserted { insertedByText[new.blocks[index(position)].text, default: []].append(position) }
        var unpaired: [Int] = []
        for deletion in deleted {
            let text = old.blocks[index(deletion)].text
            if var candidates = insertedByText[text], !candidates.isEmpty {
                let insertion = candidates.removeFirst()
                insertedByText[text] = candidates
                if pair(deletion, insertion) { continue }
            }
            unpaired.append(deletion)
        }
        let remaining = inserted.filter { !pairedInsertions.contains($0) }
        if unpaired.count * remaining.count <= editedMoveComparisons {
            for deletion in unpaired {
                let from = index(deletion)
                guard let insertion = remaining.first(where: {
                    !pairedInsertions.contains($0)
                        && comparator.areCounterparts(old.blocks[from], profiles.old(from), new.blocks[index($0)], profiles.new(index($0)))
                }) else { continue }
                _ = pair(deletion, insertion)
            }
        }
        return result.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }

    /// How many inserted blocks ahead a deleted one looks for its counterpart.
    private static let lookahead = 8

    /// A block deleted in one place and inserted, the same, in another is a move.
    private static func findingMoves(_ changes: [BlockChange], oldKeys: [Int], newKeys: [Int]) -> [BlockChange] {
        var insertedByKey: [Int: [Int]] = [:]
        for (position, change) in changes.enumerated() {
            if case .inserted(let index, _) = change { insertedByKey[newKeys[index], default: []].append(position) }
        }
        guard !insertedByKey.isEmpty else { return changes }
        var result = changes
        var removed = Set<Int>()
        for (position, change) in changes.enumerated() {
            guard case .deleted(let index, let block) = change, var candidates = insertedByKey[oldKeys[index]], !candidates.isEmpty else { continue }
            let insertion = candidates.removeFirst()
            insertedByKey[oldKeys[index]] = candidates
            guard case .inserted(let newIndex, _) = changes[insertion] else { continue }
            result[position] = .moved(from: index, to: newIndex, block: block)
            removed.insert(insertion)
        }
        return result.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}

/// How `new` differs from `old`: ``DocumentDiff/init(_:_:options:)`` under its usual name.
public func diff(_ old: Document, _ new: Document, options: DiffOptions = .default) -> DocumentDiff {
    DocumentDiff(old, new, options: options)
}
