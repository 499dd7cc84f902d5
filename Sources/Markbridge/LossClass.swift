import MarkbridgeDiff
import MarkbridgeIR

/// A class of loss: what a census counts records by and a ``LossGate`` selects. A warning's code,
/// or a kind of difference between a document and its read-back: text changed, blocks deleted,
/// inserted or moved, a block attribute changed, a markup removed, added or changed, or moved
/// only over whitespace at its edges. Markup types, attributes and codes are held by name, so a
/// class from a format registered by the caller still has a name and a severity.
public enum LossClass: Hashable, Sendable, Comparable {
    case diagnostic(code: String)
    case textChanged
    case blocksDeleted
    case blocksInserted
    case blocksMoved
    /// A block attribute by its markup JSON name (`depth`, `align`; `type` for its kind).
    case attributeChanged(String)
    /// A markup type by its markup JSON name (`LINK`).
    case markupRemoved(String)
    case markupAdded(String)
    /// A markup's attribute changed (`href`, `color`; `range` for the text it covers).
    case markupChanged(String, attribute: String)
    /// A markup whose range grew or shrank only by whitespace at its edges: nothing for kinds
    /// under which whitespace shows nothing, presentation for those where it shows.
    case markupMovedOverWhitespace(String)

    /// The name a census and the reports print: `diagnostic dropped-style`, `text changed`,
    /// `markup LINK href changed`, `markup STRONG moved over whitespace`.
    public var name: String {
        switch self {
        case .diagnostic(let code): "diagnostic \(code)"
        case .textChanged: "text changed"
        case .blocksDeleted: "blocks deleted"
        case .blocksInserted: "blocks inserted"
        case .blocksMoved: "blocks moved"
        case .attributeChanged(let attribute): "attribute \(attribute) changed"
        case .markupRemoved(let type): "markup \(type) removed"
        case .markupAdded(let type): "markup \(type) added"
        case .markupChanged(let type, let attribute): "markup \(type) \(attribute) changed"
        case .markupMovedOverWhitespace(let type): "markup \(type) moved over whitespace"
        }
    }

    /// The name as one word, for a command line: a diagnostic's code (`dropped-style`), and the
    /// rest in lower case joined by hyphens (`text-changed`, `markup-link-href-changed`).
    public var key: String {
        switch self {
        case .diagnostic(let code): code
        case .textChanged, .blocksDeleted, .blocksInserted, .blocksMoved, .attributeChanged, .markupRemoved, .markupAdded, .markupChanged,
             .markupMovedOverWhitespace:
            name.lowercased().split(separator: " ").joined(separator: "-")
        }
    }

    public var severity: LossSeverity {
        switch self {
        case .diagnostic(let code): DiagnosticCodeName(rawValue: code)?.severity ?? .content
        case .textChanged, .blocksDeleted, .blocksInserted: .content
        case .blocksMoved: .structure
        case .attributeChanged(let attribute): BlockAttribute(rawValue: attribute)?.lossSeverity ?? .structure
        case .markupRemoved(let type), .markupAdded(let type): MarkupKind.Tag(name: type)?.lossSeverity ?? .content
        case .markupChanged(let type, let attribute):
            MarkupKind.Tag(name: type).flatMap { tag in MarkupAttribute(rawValue: attribute)?.lossSeverity(on: tag) } ?? .content
        case .markupMovedOverWhitespace(let type):
            MarkupKind.Tag(name: type).map { $0.showsWhitespace ? .style : .info } ?? .style
        }
    }

    /// The markup type the class is about, if it is about one.
    package var markupType: String? {
        switch self {
        case .markupRemoved(let type), .markupAdded(let type), .markupChanged(let type, _), .markupMovedOverWhitespace(let type): type
        case .diagnostic, .textChanged, .blocksDeleted, .blocksInserted, .blocksMoved, .attributeChanged: nil
        }
    }

    /// Whether it is a warning's code rather than a difference between the documents.
    package var isDiagnostic: Bool {
        if case .diagnostic = self { true } else { false }
    }

    /// Every class Markbridge can report, by name: what `--fail-on` and `--ignore` accept.
    public static let allCases: [LossClass] = {
        var classes: [LossClass] = DiagnosticCodeName.allCases.map { .diagnostic(code: $0.rawValue) }
        classes += [.textChanged, .blocksDeleted, .blocksInserted, .blocksMoved]
        classes += BlockAttribute.allCases.map { .attributeChanged($0.rawValue) }
        for tag in MarkupKind.Tag.allCases {
            let type = tag.name
            classes += [.markupRemoved(type), .markupAdded(type), .markupMovedOverWhitespace(type)]
            classes += compared(tag).map { .markupChanged(type, attribute: $0.rawValue) }
        }
        return classes
    }()

    /// The attributes a diff compares on a markup of kind `tag`.
    private static func compared(_ tag: MarkupKind.Tag) -> [MarkupAttribute] {
        switch tag {
        case .link: [.range, .href, .title]
        case .image: [.range, .src, .alt, .title, .width, .height]
        case .color, .background: [.range, .color]
        case .hashtag: [.range, .tag]
        case .mention: [.range, .name]
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight: [.range]
        }
    }

    private static let byName: [String: LossClass] = {
        var classes: [String: LossClass] = [:]
        for lossClass in allCases {
            classes[lossClass.name] = lossClass
            classes[lossClass.key] = lossClass
        }
        return classes
    }()

    /// The class with this name or key (a key in any case), if Markbridge can report it.
    public init?(named name: String) {
        guard let found = Self.byName[name] ?? Self.byName[name.lowercased()] else { return nil }
        self = found
    }

    /// By severity, worst first, then by name: the order a census and the reports list them.
    public static func < (a: LossClass, b: LossClass) -> Bool {
        a.severity != b.severity ? a.severity > b.severity : a.name < b.name
    }
}

/// One thing a document lost: its class, the block it is in (an index into the document before,
/// or for an inserted block the document after), and a short detail saying what exactly: the
/// URL of a removed link, the colour of a removed colour, the text before and after.
public struct Loss: Hashable, Sendable {
    public var lossClass: LossClass
    public var block: Int?
    public var detail: String

    public init(_ lossClass: LossClass, block: Int?, detail: String) {
        self.lossClass = lossClass
        self.block = block
        self.detail = detail
    }

    public var severity: LossSeverity { lossClass.severity }

    /// How much of a text a detail quotes, in characters.
    static let quotedLength = 60

    static func quote(_ text: String) -> String {
        let shown = text.count > quotedLength ? String(text.prefix(quotedLength)) + "…" : text
        var quoted = "\""
        for scalar in shown.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar)
            }
        }
        return quoted + "\""
    }
}

extension DocumentDiff {
    /// Every difference as a loss, in document order.
    public var losses: [Loss] {
        var losses: [Loss] = []
        for change in changes {
            switch change {
            case .deleted(let index, let block):
                losses.append(Loss(.blocksDeleted, block: index, detail: "\(Self.kindName(block)) \(Loss.quote(block.text))"))
            case .inserted(let index, let block):
                losses.append(Loss(.blocksInserted, block: index, detail: "\(Self.kindName(block)) \(Loss.quote(block.text))"))
            case .moved(let from, let to, let block):
                losses.append(Loss(.blocksMoved, block: from, detail: "\(Self.kindName(block)) from \(from) to \(to)"))
            case .changed(let from, let to, let details):
                if details.isMoved { losses.append(Loss(.blocksMoved, block: from, detail: "\(Self.kindName(details.old)) from \(from) to \(to)")) }
                for edit in details.text {
                    losses.append(Loss(.textChanged, block: from, detail: "\(Loss.quote(edit.removed)) → \(Loss.quote(edit.added))"))
                }
                for attribute in details.attributes {
                    losses.append(Loss(.attributeChanged(attribute.name), block: from, detail: "\(attribute.old.isEmpty ? "none" : attribute.old) → \(attribute.new.isEmpty ? "none" : attribute.new)"))
                }
                for markup in details.markups { losses.append(Self.loss(markup, in: details, block: from)) }
            }
        }
        return losses
    }

    private static func kindName(_ block: Block) -> String {
        block.kind.tag?.rawValue ?? "block"
    }

    private static func loss(_ markup: MarkupChange, in details: BlockDifferences, block: Int) -> Loss {
        switch markup.kind {
        case .removed:
            let values = markup.oldRange.flatMap { range in details.old.markups.first { $0.kind.name == markup.name && $0.range == range } }
            return Loss(.markupRemoved(markup.name), block: block, detail: describe(values, covering: markup.text))
        case .added:
            let values = markup.newRange.flatMap { range in details.new.markups.first { $0.kind.name == markup.name && $0.range == range } }
            return Loss(.markupAdded(markup.name), block: block, detail: describe(values, covering: markup.text))
        case .changed:
            let attribute = markup.attribute ?? MarkupAttribute.range.rawValue
            let old = markup.oldValue ?? "", new = markup.newValue ?? ""
            let isRange = attribute == MarkupAttribute.range.rawValue
            let detail = isRange ? "\(Loss.quote(old)) → \(Loss.quote(new))" : "\(old.isEmpty ? "none" : old) → \(new.isEmpty ? "none" : new) over \(Loss.quote(markup.text))"
            if isRange, old != new, trimmed(old) == trimmed(new) {
                return Loss(.markupMovedOverWhitespace(markup.name), block: block, detail: detail)
            }
            return Loss(.markupChanged(markup.name, attribute: attribute), block: block, detail: detail)
        }
    }

    /// `https://a.example/ over "the text"`, `#ff0000 over "red"`, or `over "bold"` for a kind without values.
    private static func describe(_ markup: Markup?, covering text: String) -> String {
        let values = markup.map { MarkupComparison.attributes($0.kind) }?.map(\.value).filter { !$0.isEmpty } ?? []
        return (values.first.map { "\($0) " } ?? "") + "over \(Loss.quote(text))"
    }

    private static func trimmed(_ text: String) -> Substring {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }
}
