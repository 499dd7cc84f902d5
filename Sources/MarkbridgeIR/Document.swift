/// A rich-text document: a flat list of blocks, each a run of text with ranged markups.
///
/// Flat rather than a tree because that is what clients render from (a list of paragraphs with
/// `NSRange`-style attributes), and because a flat list is trivially linear to read, write and diff.
/// Nesting that real documents use (lists in lists, paragraphs in list items, lists in quotes)
/// is carried by each block's `depth` and `quoteDepth`; see ``Block``.
public struct Document: Hashable, Sendable {
    public var blocks: [Block] {
        // Changed, the blocks are checked again before they are written.
        didSet {
            isKnownWritable = false
            isKnownCanonical = false
        }
    }

    /// Set on a reader's result (``Diagnosed/fromReader()``): a reader's document keeps every
    /// rule writers check (the readers' tests and fuzzers hold them to ``invariantViolations()``),
    /// so ``checkWritable()`` passes it without a walk, a third of the JSON writer's time on
    /// HTML read from a page. Any change to ``blocks`` clears it. Not part of the document's
    /// value: equality and hashing ignore it.
    package var isKnownWritable = false

    /// Set on the result of a reader whose documents are in canonical form (``Document/canonicalize()``
    /// changes nothing; the HTML and Markdown readers, whose tests and fuzzers hold them to
    /// ``invariantViolations()``), so that a writer need not canonicalize each block again. The
    /// JSON reader keeps ranges as given, so its documents are not. Any change to ``blocks``
    /// clears it; not part of the document's value.
    package var isKnownCanonical = false

    public init(blocks: [Block] = []) {
        self.blocks = blocks
    }

    public static func == (lhs: Document, rhs: Document) -> Bool {
        lhs.blocks == rhs.blocks
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(blocks)
    }
}

extension Diagnosed where Value == Document {
    /// The result as a reader returns it: its document marked as one writers need not check
    /// again (see ``Document/isKnownWritable``).
    /// `canonical`: the reader's documents are in canonical form (``Document/isKnownCanonical``).
    package func fromReader(canonical: Bool = false) -> Diagnosed<Document> {
        var result = self
        result.value.isKnownWritable = true
        result.value.isKnownCanonical = canonical
        return result
    }
}
