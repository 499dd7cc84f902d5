/// A rich-text document: a flat list of blocks, each a run of text with ranged markups.
///
/// Flat rather than a tree because that is what clients render from (a list of paragraphs with
/// `NSRange`-style attributes), and because a flat list is trivially linear to read, write and diff.
/// Nesting that real documents use (lists in lists, paragraphs in list items, lists in quotes)
/// is carried by each block's `depth` and `quoteDepth`; see ``Block``.
public struct Document: Hashable, Sendable {
    public var blocks: [Block]

    public init(blocks: [Block] = []) {
        self.blocks = blocks
    }
}
