/// What a block is. Writers switch over it exhaustively, so a new kind breaks the build wherever
/// it is not handled yet.
public enum BlockKind: Hashable, Sendable {
    case paragraph
    /// A heading of level 1 to 6.
    case heading(level: Int)
    /// A paragraph inside one or more block quotes (see ``Block/quoteDepth``).
    case blockquote
    /// Preformatted text; `language` comes from a fence's info string or a `language-x` class.
    case codeBlock(language: String?)
    case unorderedListItem
    /// An ordered list item and the number it shows.
    case orderedListItem(number: Int)
    /// An image standing alone; the block's text, if any, is its caption. Boxed, so that its
    /// three strings do not set the size of every block.
    indirect case image(ImageSource)
    case horizontalRule
}

/// Where an image comes from and how it is described.
public struct ImageSource: Hashable, Sendable {
    public var src: String
    public var alt: String?
    public var title: String?

    public init(src: String, alt: String? = nil, title: String? = nil) {
        self.src = src
        self.alt = alt
        self.title = title
    }
}
