/// One paragraph-like unit of a document: its kind, its text and the markups over that text.
///
/// Nesting is flattened into two counters so that a client that understands only `kind` and
/// `depth` still renders something sensible:
/// - `depth` counts the list items that enclose the block. A list item at `depth` 1 is nested in
///   the item before it at `depth` 0; a paragraph at `depth` 1 is a further paragraph of the
///   nearest list item above it at `depth` 0.
/// - `quoteDepth` counts the block quotes that enclose the block. A ``BlockKind/blockquote``
///   block is a paragraph with a `quoteDepth` of at least 1; any other kind (a list item, a code
///   block) may sit inside quotes too. Quotes are taken to enclose lists, never the reverse.
public struct Block: Hashable, Sendable {
    public var kind: BlockKind
    /// The text, with `\n` for a hard line break and U+FFFC where an inline image stands.
    public var text: String
    /// Markups over `text`, in UTF-16 code units. Canonical documents keep them in canonical order.
    public var markups: [Markup]
    public var depth: Int
    public var quoteDepth: Int
    public var alignment: TextAlignment?

    public init(
        _ kind: BlockKind,
        text: String = "",
        markups: [Markup] = [],
        depth: Int = 0,
        quoteDepth: Int = 0,
        alignment: TextAlignment? = nil
    ) {
        self.kind = kind
        self.text = text
        self.markups = markups
        self.depth = depth
        self.quoteDepth = quoteDepth
        self.alignment = alignment
    }
}

/// Paragraph alignment, from CSS `text-align`; the raw values are the CSS keywords.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case left, center, right, justify
}
