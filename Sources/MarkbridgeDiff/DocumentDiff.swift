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
    /// The differences between `old` and `new`, in document order. Near-linear for documents
    /// that mostly agree; the alignment is bounded (``SequenceAlignment``), so a pathological
    /// pair is not quadratic.
    public init(_ old: Document, _ new: Document, options: DiffOptions = .default) {
        var aligner = BlockAligner(old, new, comparator: BlockComparator(options: options))
        changes = aligner.changes()
    }
}

extension DocumentDiff {
    /// The names of block attributes, in the order markup JSON writes them.
    package static let attributeNames = BlockAttribute.allCases.filter { $0 != .type }.map(\.rawValue)

    /// A block's attributes that have a value, named and spelt as markup JSON has them, in the
    /// order of ``attributeNames``: what a report shows of a block inserted or deleted whole.
    package static func attributes(of block: Block) -> [(name: String, value: String)] {
        var fields: [String: String] = [:]
        if block.depth != 0 { fields["depth"] = String(block.depth) }
        if block.quoteDepth != 0 { fields["quoteDepth"] = String(block.quoteDepth) }
        if !block.quoteListDepths.isEmpty { fields["quoteListDepths"] = "[" + block.quoteListDepths.map(String.init).joined(separator: ",") + "]" }
        fields["containerStart"] = block.containerStart.map(String.init)
        switch block.kind {
        case .orderedListItem(let number): fields["number"] = String(number)
        case .codeBlock(let language): fields["language"] = language
        case .image(let image):
            fields["src"] = image.src
            fields["width"] = image.width.map(String.init)
            fields["height"] = image.height.map(String.init)
            fields["alt"] = image.alt
            fields["title"] = image.title
        case .embed(let embed):
            fields["embed"] = embed.kind.rawValue
            fields["src"] = embed.src
            fields["poster"] = embed.poster
            fields["width"] = embed.width.map(String.init)
            fields["height"] = embed.height.map(String.init)
            fields["title"] = embed.title
        case .tableRow(let row):
            if row.startsTable { fields["startsTable"] = "true" }
            fields["cells"] = row.cells.map(Self.describe).joined(separator: ", ")
        case .definitionTerm(let continues), .definitionDescription(let continues):
            if continues { fields["continues"] = "true" }
        case .paragraph, .heading, .blockquote, .unorderedListItem, .tableCaption, .horizontalRule: break
        }
        fields["align"] = block.alignment?.rawValue
        fields["name"] = block.anchor
        fields["task"] = block.taskState?.rawValue
        return attributeNames.compactMap { name in fields[name].map { (name, $0) } }
    }
}

extension DocumentDiff {
    /// A cell as HTML would open it, without its text: `th`, `td colspan=2 align=right`.
    static func describe(_ cell: TableCell) -> String {
        var description = cell.isHeader ? "th" : "td"
        if cell.columnSpan != 1 { description += " colspan=\(cell.columnSpan)" }
        if cell.rowSpan != 1 { description += " rowspan=\(cell.rowSpan)" }
        if let alignment = cell.alignment { description += " align=\(alignment.rawValue)" }
        return description
    }
}

/// How `new` differs from `old`: ``DocumentDiff/init(_:_:options:)`` under its usual name.
public func diff(_ old: Document, _ new: Document, options: DiffOptions = .default) -> DocumentDiff {
    DocumentDiff(old, new, options: options)
}
