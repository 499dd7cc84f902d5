/// The inline formatting features the IR models.
///
/// Links and images are boxed (`indirect`): their strings would otherwise make every markup,
/// most of which are plain STRONG or EM, 72 bytes instead of 32, and a document holds hundreds
/// of thousands of them.
public enum MarkupKind: Hashable, Sendable {
    /// Strong importance, shown bold (`<strong>`, `<b>`, `**x**`; markup JSON `STRONG`).
    case strong
    /// Emphasis, shown italic (`<em>`, `<i>`, `*x*`; markup JSON `EM`).
    case emphasis
    /// Inline code (`<code>`, `` `x` ``; `CODE`): its spaces are content, never trimmed.
    case code
    /// A link (`<a href>`, `[x](url)`; `LINK`); its URL passed the URL policy. Links never overlap.
    indirect case link(LinkTarget)
    /// Struck through (`<s>`, `<del>`, GFM `~~x~~`; `STRIKE`).
    case strike
    /// Underlined (`<u>`, `<ins>`; `UNDERLINE`).
    case underline
    /// Raised (`<sup>`; `SUP`).
    case superscript
    /// Lowered (`<sub>`; `SUB`).
    case `subscript`
    /// Marked text (`<mark>`; `HIGHLIGHT`).
    case highlight
    /// Text color, as canonical `#RRGGBB` or `#RRGGBBAA`.
    case color(CSSColor)
    /// Background color, as canonical `#RRGGBB` or `#RRGGBBAA`.
    case background(CSSColor)
    /// An inline image; its range covers exactly one U+FFFC in the text.
    indirect case image(ImageSource)
    /// A hashtag (`HASHTAG`): its range covers the `#` and the tag; the tag itself, without the
    /// `#`, normalised to NFC, is the payload (`#東京` carries `東京`).
    indirect case hashtag(String)
    /// A mention of a user (`MENTION`): its range covers the `@` and the name; the name,
    /// without the `@`, is the payload.
    indirect case mention(String)
}

/// A link's destination and optional title.
public struct LinkTarget: Hashable, Sendable {
    public var href: String
    public var title: String?

    /// An empty `title` is none: `title=""` shows nothing, and Markdown cannot write one.
    @inlinable
    public init(href: String, title: String? = nil) {
        self.href = href
        self.title = title?.isEmpty == true ? nil : title
    }
}

extension MarkupKind {
    /// The kind `tag` names when that kind carries no payload (``strong`` to ``highlight``);
    /// nil for a tag whose kind needs one (a link's target, a colour, an image).
    package init?(withoutPayload tag: Tag) {
        switch tag {
        case .strong: self = .strong
        case .emphasis: self = .emphasis
        case .code: self = .code
        case .strike: self = .strike
        case .underline: self = .underline
        case .superscript: self = .superscript
        case .subscript: self = .subscript
        case .highlight: self = .highlight
        case .link, .color, .background, .image, .hashtag, .mention: return nil
        }
    }

    /// The kind without its attributes, one case for each case of ``MarkupKind``, declared in
    /// canonical order. Everything that depends only on the kind (its name, its rank, the
    /// decoder's lookup, buffer sizes) is derived from here, so a new kind is one new case in
    /// each of the two enums, and the compiler finds the rest.
    ///
    /// The raw value is the position in canonical order, numbered by the compiler from the
    /// declaration order, so no rank is typed by hand; the markup JSON name is ``name``.
    public enum Tag: UInt8, CaseIterable, Hashable, Sendable {
        case strong
        case emphasis
        case code
        case link
        case strike
        case underline
        case superscript
        case `subscript`
        case highlight
        case color
        case background
        case image
        case hashtag
        case mention

        /// The stable name of the kind, as markup JSON spells it.
        public var name: String {
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
            case .hashtag: "HASHTAG"
            case .mention: "MENTION"
            }
        }

        /// The tag markup JSON names `name`, or nil for a name no kind has.
        public init?(name: String) {
            // Compared only with the names of its length (two at most): a dictionary's hashing
            // of every name cost reading markup JSON 4.9 M instructions (prose, --scale 0.2,
            // about 3%), and comparing with every name in turn 5 M on the large corpus.
            let count = name.utf8.count
            for index in Self.names.indices where Self.names[index].utf8.count == count && Self.names[index] == name {
                self.init(rawValue: UInt8(index))
                return
            }
            return nil
        }

        /// Every kind's name, at its raw value.
        private static let names: [String] = allCases.map(\.name)

        /// The position in canonical order: the position among the cases above.
        package var rank: Int { Int(rawValue) }

        /// How many tags there are: every ``rank`` is below it.
        package static let count = allCases.count
    }

    /// The one switch from a kind to its tag.
    public var tag: Tag {
        switch self {
        case .strong: .strong
        case .emphasis: .emphasis
        case .code: .code
        case .link: .link
        case .strike: .strike
        case .underline: .underline
        case .superscript: .superscript
        case .subscript: .subscript
        case .highlight: .highlight
        case .color: .color
        case .background: .background
        case .image: .image
        case .hashtag: .hashtag
        case .mention: .mention
        }
    }

    /// The stable name of the kind, as markup JSON spells it.
    public var name: String { tag.name }

    /// The position of the kind in canonical order (see ``Tag``).
    package var canonicalRank: Int { tag.rank }

    /// The URL the markup points at, and how it is used, for the URL policy; nil for kinds
    /// without one.
    public var url: (value: String, use: URLPolicy.Use)? {
        switch self {
        case .link(let target): (target.href, .link)
        case .image(let image): (image.src, .image)
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight, .color, .background,
             .hashtag, .mention: nil
        }
    }

    /// The same markup with its URL (``url``) replaced; a markup without one is returned as it is.
    package func withURL(_ url: String) -> MarkupKind {
        switch self {
        case .link(var target):
            target.href = url
            return .link(target)
        case .image(var image):
            image.src = url
            return .image(image)
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight, .color, .background,
             .hashtag, .mention:
            return self
        }
    }

    /// Whether canonical form moves whitespace at the markup's edges outside it. Code spans keep
    /// theirs (spaces in code are content); an image covers exactly its U+FFFC.
    package var trimsWhitespaceEdges: Bool {
        switch self {
        case .code, .image: false
        case .strong, .emphasis, .link, .strike, .underline, .superscript, .subscript, .highlight, .color, .background,
             .hashtag, .mention: true
        }
    }

    /// A hashtag's tag or a mention's name; nil for the other kinds.
    package var entityValue: String? {
        switch self {
        case .hashtag(let value), .mention(let value): value
        case .strong, .emphasis, .code, .link, .strike, .underline, .superscript, .subscript, .highlight, .color, .background,
             .image: nil
        }
    }

    /// Whether touching or overlapping markups of this kind and equal attributes are one markup.
    /// Images are not: each covers its own U+FFFC. A hashtag or a mention that a writer had to
    /// split (where it crosses a link's edge) is one again when read back.
    package var mergesWhenTouching: Bool {
        switch self {
        case .image: false
        case .strong, .emphasis, .code, .link, .strike, .underline, .superscript, .subscript, .highlight, .color, .background,
             .hashtag, .mention: true
        }
    }

    /// Whether CommonMark has syntax for the kind; the others need inline HTML in Markdown.
    package var hasCommonMarkSyntax: Bool {
        switch self {
        case .strong, .emphasis, .code, .link, .image: true
        case .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .hashtag, .mention: false
        }
    }
}
