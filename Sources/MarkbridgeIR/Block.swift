/// One paragraph-like unit of a document: its kind, its text and the markups over that text.
///
/// Nesting is flattened into two counters so that a client that understands only `kind` and
/// `depth` still renders something sensible:
/// - `depth` counts the list items that enclose the block. A list item at `depth` 1 is nested in
///   the item before it at `depth` 0; a paragraph at `depth` 1 is a further paragraph of the
///   nearest list item above it at `depth` 0.
/// - `quoteDepth` counts the block quotes that enclose the block. A ``BlockKind/blockquote``
///   block is a paragraph with a `quoteDepth` of at least 1; any other kind (a list item, a code
///   block) may sit inside quotes too.
/// - `quoteListDepths` says where each of those quotes sits among the list items: for each,
///   outermost first, how many list items enclose it. Empty, the usual case, means every quote
///   encloses all the lists (all zeros); `[1]` on a quote's paragraph at depth 1 is a quote inside
///   a list item. A client that reads only `depth` and `quoteDepth` still shows the quote and
///   the indentation, with the quote outside the list. See ``containers``.
/// - `containerStart` says which of those containers begin at the block rather than go on
///   from the block before (two lists or quotes side by side); see ``containerChain``.
public struct Block: Hashable, Sendable {
    public var kind: BlockKind
    /// The text, with `\n` for a hard line break and U+FFFC where an inline image stands.
    public var text: String
    /// Markups over `text`, in UTF-16 code units. Canonical documents keep them in canonical order.
    public var markups: [Markup]
    public var depth: Int
    public var quoteDepth: Int
    /// For each enclosing quote, outermost first, how many list items enclose it:
    /// non-decreasing, each at most `depth`; empty when all would be 0.
    public var quoteListDepths: [Int]
    public var alignment: TextAlignment?
    /// The index into ``containerChain`` of the outermost container that begins at this block
    /// (and so every container inside it): nil when each goes on from the block before, or
    /// when beginning here follows anyway (see ``ContainerWalk``). Canonical form keeps it
    /// only where it says something.
    public var containerStart: Int?
    /// The block's anchor, its HTML `id`, so that in-page links (`href="#section"`) find it;
    /// see ``Block/sanitizedAnchor(_:)`` for what one may hold.
    public var anchor: String?
    /// A list item's task state, when it is a task (GFM `- [ ]`, an HTML checkbox); nil on a
    /// plain item and on every block that is no list item's own, which canonical form holds to.
    public var taskState: TaskState?

    public init(
        _ kind: BlockKind,
        text: String = "",
        markups: [Markup] = [],
        depth: Int = 0,
        quoteDepth: Int = 0,
        quoteListDepths: [Int] = [],
        alignment: TextAlignment? = nil,
        containerStart: Int? = nil,
        anchor: String? = nil,
        taskState: TaskState? = nil
    ) {
        self.kind = kind
        self.text = text
        self.markups = markups
        self.depth = depth
        self.quoteDepth = quoteDepth
        self.quoteListDepths = quoteListDepths
        self.alignment = alignment
        self.containerStart = containerStart
        self.anchor = anchor
        self.taskState = taskState
    }
}

/// One of the containers around a block, in ``Block/containers``.
package enum BlockContainer: Hashable, Sendable {
    case quote
    /// A list item (and the list it is in) at the given depth.
    case listItem(depth: Int)
}

extension Block {
    /// The containers around the block, outermost first: its `depth` list items and its
    /// `quoteDepth` quotes, in the order ``quoteListDepths`` gives. A list item's own item is not
    /// among them (it is the block).
    package var containers: [BlockContainer] {
        var result: [BlockContainer] = []
        result.reserveCapacity(max(depth, 0) + max(quoteDepth, 0))
        var quote = 0
        // A hand-built block may hold a negative depth: it has no list items.
        for level in 0...max(depth, 0) {
            while quote < quoteDepth, quoteListDepth(ofQuote: quote) <= level {
                result.append(.quote)
                quote += 1
            }
            if level < depth { result.append(.listItem(depth: level)) }
        }
        while quote < quoteDepth {
            result.append(.quote)
            quote += 1
        }
        return result
    }

    /// How many list items enclose the quote at `index` (0 outermost).
    package func quoteListDepth(ofQuote index: Int) -> Int {
        index < quoteListDepths.count ? quoteListDepths[index] : 0
    }

    /// Why ``quoteListDepths`` does not fit the block, if it does not.
    package var quoteListDepthsViolation: String? {
        guard !quoteListDepths.isEmpty else { return nil }
        guard quoteListDepths.count == quoteDepth else {
            return "quoteListDepths has \(quoteListDepths.count) entries for a quoteDepth of \(quoteDepth)"
        }
        var previous = 0
        for value in quoteListDepths {
            guard value >= previous, value <= depth else {
                return "quoteListDepths \(quoteListDepths) is not non-decreasing within 0...\(depth) (the block's depth)"
            }
            previous = value
        }
        return nil
    }
}

/// Paragraph alignment, from CSS `text-align`; the raw values are the CSS keywords.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case left, center, right, justify
}
