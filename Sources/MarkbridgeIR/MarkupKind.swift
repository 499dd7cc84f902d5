/// The inline formatting features the IR models.
///
/// Links and images are boxed (`indirect`): their strings would otherwise make every markup,
/// most of which are plain STRONG or EM, 72 bytes instead of 32, and a document holds hundreds
/// of thousands of them.
public enum MarkupKind: Hashable, Sendable {
    case strong
    case emphasis
    case code
    indirect case link(LinkTarget)
    case strike
    case underline
    case superscript
    case `subscript`
    case highlight
    /// Text color, as canonical `#RRGGBB` or `#RRGGBBAA`.
    case color(CSSColor)
    /// Background color, as canonical `#RRGGBB` or `#RRGGBBAA`.
    case background(CSSColor)
    /// An inline image; its range covers exactly one U+FFFC in the text.
    indirect case image(ImageSource)
}

/// A link's destination and optional title.
public struct LinkTarget: Hashable, Sendable {
    public var href: String
    public var title: String?

    public init(href: String, title: String? = nil) {
        self.href = href
        self.title = title
    }
}

extension MarkupKind {
    /// The stable name of the kind, as markup JSON spells it.
    public var name: String { staticName.description }

    /// The name as a static string, which writers copy without building a `String`.
    public var staticName: StaticString {
        switch self {
        case .strong: "STRONG"
        case .emphasis: "EM"
        case .code: "CODE"
        case .link: "LINK"
        case .strike: "STRIKE"
        case .underline: "UNDERLINE"
        case .superscript: "SUP"
        case .subscript: "SUB"
        case .highlight: "HIGHLIGHT"
        case .color: "COLOR"
        case .background: "BACKGROUND"
        case .image: "IMAGE"
        }
    }

    /// The position of the kind in canonical order, which is the order of the cases above.
    public var canonicalRank: Int {
        switch self {
        case .strong: 0
        case .emphasis: 1
        case .code: 2
        case .link: 3
        case .strike: 4
        case .underline: 5
        case .superscript: 6
        case .subscript: 7
        case .highlight: 8
        case .color: 9
        case .background: 10
        case .image: 11
        }
    }

    /// How many ranks there are: `canonicalRank` is below it.
    static let rankCount = 12

    /// Whether canonical form moves whitespace at the markup's edges outside it. Code spans keep
    /// theirs (spaces in code are content); an image covers exactly its U+FFFC.
    public var trimsWhitespaceEdges: Bool {
        switch self {
        case .code, .image: false
        default: true
        }
    }

    /// Whether touching or overlapping markups of this kind and equal attributes are one markup.
    /// Images are not: each covers its own U+FFFC.
    public var mergesWhenTouching: Bool {
        if case .image = self { return false }
        return true
    }
}
