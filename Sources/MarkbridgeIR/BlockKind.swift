/// What a block is. Writers switch over it exhaustively, so a new kind breaks the build wherever
/// it is not handled yet.
public enum BlockKind: Hashable, Sendable {
    /// A paragraph (markup JSON `P`); inside a quote it is a ``blockquote``.
    case paragraph
    /// A heading of level 1 to 6.
    case heading(level: Int)
    /// A paragraph inside one or more block quotes (see ``Block/quoteDepth``).
    case blockquote
    /// Preformatted text; `language` comes from a fence's info string or a `language-x` class.
    case codeBlock(language: String?)
    /// A bulleted list item (`ULI`); its ``Block/depth`` says how many items enclose it.
    case unorderedListItem
    /// An ordered list item and the number it shows.
    case orderedListItem(number: Int)
    /// An image standing alone; the block's text, if any, is its caption. Boxed, so that its
    /// strings and size do not set the size of every block.
    indirect case image(ImageSource)
    /// Embedded media (`<iframe>`, `<video>`, `<audio>`, `<object>`); the block's text, if any, is
    /// its caption or its fallback content, what a reader sees where the media does not play.
    indirect case embed(Embed)
    /// A row of a table; the block's text is its cells' text (see ``TableRow``).
    indirect case tableRow(TableRow)
    /// The caption of the table whose first row comes right after it (`<caption>`), at the same
    /// place: see ``Block/captions(_:)``. Readers make a caption with no such row a paragraph.
    case tableCaption
    /// A term of a definition list (`<dt>`) and a definition of the terms before it (`<dd>`):
    /// consecutive ones at one place are one list. `continues`: the block is a further
    /// paragraph of the term or definition right before it (`<dd><p>one</p><p>two</p></dd>`),
    /// not one of its own; a client that does not know it shows one more definition.
    case definitionTerm(continues: Bool)
    case definitionDescription(continues: Bool)
    /// A thematic break (`<hr>`, `---`; `HR`), with no text.
    case horizontalRule
}

/// Media embedded in a document: what it is, where it comes from, how large it is shown.
public struct Embed: Hashable, Sendable {
    /// The element it is written as, named as markup JSON names it.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// A page in a frame (a video player, a map): written back sandboxed, script allowed in
        /// an origin of its own.
        case iframe
        case video
        case audio
        /// `<object>` or `<embed>` with a safe source (a PDF, an SVG): written back as a frame
        /// with nothing allowed, since neither element can be sandboxed.
        case object
    }

    public var kind: Kind
    public var src: String
    /// A video's poster image.
    public var poster: String?
    /// The size it is shown at, in CSS pixels.
    public var width: Int?
    public var height: Int?
    /// Its accessible name (`title`).
    public var title: String?

    public init(_ kind: Kind, src: String, poster: String? = nil, width: Int? = nil, height: Int? = nil, title: String? = nil) {
        self.kind = kind
        self.src = src
        self.poster = poster
        self.width = width
        self.height = height
        self.title = title
    }

    /// The largest width or height kept, an embed's or an image's: larger is not a size a page shows.
    package static let maxDimension = 100_000

    /// Whether a width or height is one the IR keeps (see ``maxDimension``).
    package static func isValidDimension(_ value: Int?) -> Bool {
        value.map { (0...maxDimension).contains($0) } ?? true
    }
}

/// Where an image comes from, how it is described, and how large it is shown. `Codable` with
/// markup JSON's field names, so that an attribute can carry it as it is (the AttributedString
/// writer's `image`).
public struct ImageSource: Codable, Hashable, Sendable {
    public var src: String
    public var alt: String?
    public var title: String?
    /// The size it is shown at, in whole CSS pixels, 0 to ``Embed``'s limit (100,000), so that a
    /// client lays the text out before the image loads; nil where the source gives none.
    public var width: Int?
    public var height: Int?

    @inlinable
    public init(src: String, alt: String? = nil, title: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.src = src
        self.alt = alt
        // An empty title is none: `title=""` shows nothing, and Markdown cannot write one.
        self.title = title?.isEmpty == true ? nil : title
        self.width = width
        self.height = height
    }

    /// Whether it carries a width or a height.
    package var hasSize: Bool { width != nil || height != nil }

    /// The same image without its size.
    package var withoutSize: ImageSource {
        var copy = self
        copy.width = nil
        copy.height = nil
        return copy
    }
}

extension BlockKind {
    /// The kind without its attributes, one case for each kind of ``BlockKind`` (a heading once
    /// per level), named as markup JSON names it: the names, the decoder's lookup and the
    /// format's list of types are derived from here.
    public enum Tag: String, CaseIterable, Hashable, Sendable {
        case paragraph = "P"
        case heading1 = "H1", heading2 = "H2", heading3 = "H3", heading4 = "H4", heading5 = "H5", heading6 = "H6"
        case blockquote = "BQ"
        case codeBlock = "PRE"
        case unorderedListItem = "ULI"
        case orderedListItem = "OLI"
        case image = "IMG"
        case embed = "EMBED"
        case tableRow = "TR"
        case tableCaption = "CAPTION"
        case definitionTerm = "DT"
        case definitionDescription = "DD"
        case horizontalRule = "HR"

        /// The heading level a heading tag stands for.
        package var headingLevel: Int? {
            switch self {
            case .heading1: 1
            case .heading2: 2
            case .heading3: 3
            case .heading4: 4
            case .heading5: 5
            case .heading6: 6
            case .paragraph, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule: nil
            }
        }

        static let headings: [Tag] = [.heading1, .heading2, .heading3, .heading4, .heading5, .heading6]
    }

    /// The one switch from a kind to its tag. A heading level outside 1...6, which the IR's
    /// invariants refuse, has no tag.
    public var tag: Tag? {
        switch self {
        case .paragraph: .paragraph
        case .heading(let level): (1...6).contains(level) ? Tag.headings[level - 1] : nil
        case .blockquote: .blockquote
        case .codeBlock: .codeBlock
        case .unorderedListItem: .unorderedListItem
        case .orderedListItem: .orderedListItem
        case .image: .image
        case .embed: .embed
        case .tableRow: .tableRow
        case .tableCaption: .tableCaption
        case .definitionTerm: .definitionTerm
        case .definitionDescription: .definitionDescription
        case .horizontalRule: .horizontalRule
        }
    }

    /// Whether the block is a term or a definition of a definition list.
    package var isDefinition: Bool {
        switch self {
        case .definitionTerm, .definitionDescription: true
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableRow, .tableCaption, .horizontalRule: false
        }
    }

    /// Whether the block is a further paragraph of the term or definition before it (see
    /// ``definitionTerm(continues:)``).
    package var continuesDefinition: Bool {
        switch self {
        case .definitionTerm(let continues), .definitionDescription(let continues): continues
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableRow, .tableCaption, .horizontalRule: false
        }
    }

    /// The same term or definition, beginning one of its own or going on from the one before.
    package func definition(continuing continues: Bool) -> BlockKind {
        switch self {
        case .definitionTerm: .definitionTerm(continues: continues)
        case .definitionDescription: .definitionDescription(continues: continues)
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableRow, .tableCaption, .horizontalRule: self
        }
    }

    /// Whether the block is a row of a table.
    package var isTableRow: Bool {
        switch self {
        case .tableRow: true
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule: false
        }
    }

    /// Whether the block is a list item (the first block of one), ordered or not.
    public var isListItem: Bool {
        switch self {
        case .unorderedListItem, .orderedListItem: true
        case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule: false
        }
    }
}
