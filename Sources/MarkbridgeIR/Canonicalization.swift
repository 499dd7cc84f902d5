@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The one place that produces canonical form; every reader ends here, and equality of
/// canonical documents is what round-trip properties and the semantic diff compare.
///
/// Canonical form:
/// - markups with empty ranges are dropped;
/// - touching or overlapping markups of the same kind and attributes are merged into one
///   (images excepted: each covers its own U+FFFC, so only exact duplicates collapse);
/// - markups are sorted by start, then longest first, then kind (see `MarkupOrder`);
/// - COLOR markups do not overlap: over shared text the innermost is kept (see
///   ``Block/resolvingOverlappingColors(_:)``), since text shows one colour;
/// - formatting does not begin or end on whitespace: space, tab and line feed at the edges of
///   a markup are outside it (except CODE, whose spaces are content, and IMAGE). `<b>very </b>x`
///   and `**very** x` then read the same. The HTML and Markdown readers trim so; markup JSON
///   keeps every range as it was given (`trimmingEdges: false`), since its clients draw an
///   underline or a background over a trailing space, and the Markdown writer, which cannot
///   write `**very **`, trims there and says so;
/// - a paragraph inside a quote is a ``BlockKind/blockquote``, and a blockquote block has a
///   `quoteDepth` of at least 1;
/// - ``Block/containerStart`` is kept only where a container begins that would otherwise go
///   on from the block before (see ``ContainerWalk``), and an anchor holds only what
///   ``Block/sanitizedAnchor(_:)`` keeps;
/// - only a list item has a ``Block/taskState``.
extension Document {
    public func canonicalized() -> Document {
        var copy = self
        copy.canonicalize()
        return copy
    }

    public mutating func canonicalize() {
        for index in blocks.indices {
            blocks[index].canonicalize()
        }
        canonicalizeContainerStarts()
    }
}

extension Block {
    /// `trimmingEdges: false` keeps every range where it is; sorting and merging still apply.
    package mutating func canonicalize(trimmingEdges: Bool = true) {
        canonicalize(edgesKnownFreeOfWhitespace: !trimmingEdges, trimsEdges: trimmingEdges)
    }

    /// `edgesKnownFreeOfWhitespace`: the caller has checked that no trimmable markup begins or
    /// ends with whitespace (the document builder, which knows each edge's byte), so the check
    /// that walks the text to every edge is skipped.
    mutating func canonicalize(edgesKnownFreeOfWhitespace: Bool, trimsEdges: Bool = true) {
        if kind == .paragraph && quoteDepth > 0 { kind = .blockquote }
        if let anchor, Block.sanitizedAnchor(anchor) != anchor { self.anchor = Block.sanitizedAnchor(anchor) }
        if kind == .blockquote && quoteDepth < 1 { quoteDepth = 1 }
        // Only a list item is a task: readers report a state they find elsewhere.
        if taskState != nil && !kind.isListItem { taskState = nil }
        // All zeros is the default order, written as none.
        if !quoteListDepths.isEmpty && !quoteListDepths.contains(where: { $0 != 0 }) { quoteListDepths = [] }
        if markups.isEmpty || Self.isCanonical(markups, in: text, edgesKnownFreeOfWhitespace: edgesKnownFreeOfWhitespace) { return }
        // Readers open the markups of one element in whatever order its rules list them: often
        // sorting is all that is missing.
        if !Self.isSorted(markups) {
            MarkupOrder.sort(&markups)
            if Self.isCanonical(markups, in: text, edgesKnownFreeOfWhitespace: edgesKnownFreeOfWhitespace) { return }
        }
        // Merge before trimming: a markup split into touching pieces (as writers split crossing
        // markups) is one markup again before its edges are looked at.
        let merged = Self.canonicalMarkups(Self.separatingLinks(markups))
        guard trimsEdges else {
            markups = merged
            return
        }
        let trimmed = Self.trimmingWhitespaceEdges(merged, in: text)
        // Trimming only shrinks ranges; when it changed nothing the merged list is canonical.
        markups = trimmed == merged ? merged : Self.canonicalMarkups(trimmed)
    }

    /// Whether `markups` are already canonical: the usual case for a reader's output, checked in
    /// one pass so that only blocks that need it pay for sorting and merging. Conservative: a
    /// markup touching an earlier one of the same kind (which may or may not merge) says no.
    static func isCanonical(_ markups: [Markup], in text: String, edgesKnownFreeOfWhitespace: Bool = false) -> Bool {
        // Scratch space on the stack, for the usual block: this runs for every block every
        // reader makes. Past 16 edges they go on the heap; past 16 kinds, no answer but no.
        guard MarkupKind.Tag.count <= 16 else { return false }
        var furthestEnd = InlineArray<16, Int>(repeating: Int.min)
        var edges = InlineArray<16, Int>(repeating: 0)
        var moreEdges: [Int] = []
        var edgeCount = 0
        var previous: Markup?
        for markup in markups {
            if markup.range.isEmpty { return false }
            if let previous, !MarkupOrder.precedes(previous, markup) { return false }
            let rank = markup.kind.canonicalRank
            if markup.range.start <= furthestEnd[rank] { return false }
            furthestEnd[rank] = max(furthestEnd[rank], markup.range.end)
            if markup.kind.trimsWhitespaceEdges && !edgesKnownFreeOfWhitespace {
                if edgeCount + 2 <= edges.count {
                    edges[edgeCount] = markup.range.start
                    edges[edgeCount + 1] = markup.range.end - 1
                } else {
                    moreEdges += [markup.range.start, markup.range.end - 1]
                }
                edgeCount += 2
            }
            previous = markup
        }
        if edgeCount == 0 { return true }
        guard moreEdges.isEmpty else {
            return !Self.anyWhitespace(at: (0..<edges.count).map { edges[$0] } + moreEdges, in: text)
        }
        // Insertion sort: a few edges, most of them in order already.
        for index in 1..<edgeCount {
            let edge = edges[index]
            var slot = index
            while slot > 0, edges[slot - 1] > edge {
                edges[slot] = edges[slot - 1]
                slot -= 1
            }
            edges[slot] = edge
        }
        return !Self.anyWhitespace(atSorted: edges.span.extracting(0..<edgeCount), in: text)
    }

    /// Whether the code unit at any of the UTF-16 `offsets` of `text` is a space, tab or line
    /// feed. One forward walk over the UTF-8 bytes, so linear in the text whatever the offsets.
    static func anyWhitespace(at offsets: [Int], in text: String) -> Bool {
        anyWhitespace(atSorted: offsets.sorted().span, in: text)
    }

    /// Whether the code unit at any of the UTF-16 `offsets` of `text` is a space, tab or line
    /// feed (offsets outside the text are not); linear in the text, for writers that ask about
    /// markup edges.
    package static func hasWhitespace(atUTF16Offsets offsets: [Int], in text: String) -> Bool {
        anyWhitespace(at: offsets.filter { $0 >= 0 }, in: text)
    }

    /// The same, over offsets in increasing order.
    static func anyWhitespace(atSorted offsets: Span<Int>, in text: String) -> Bool {
        let bytes = text.utf8.span
        var walk = UTF16Walk()
        for position in offsets.indices {
            let index = walk.advance(to: offsets[position], in: bytes)
            guard walk.byteIndex < bytes.count else { return false }
            // No index means the target fell inside a surrogate pair: not whitespace.
            if let index, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { return true }
        }
        return false
    }

    static func isSorted(_ markups: [Markup]) -> Bool {
        for index in markups.indices.dropFirst() where !MarkupOrder.precedes(markups[index - 1], markups[index]) {
            return false
        }
        return true
    }

    /// Links over the same text have no meaning in any output, so where two overlap the one that
    /// starts later (the inner one, as HTML nests them) keeps its text and the other is cut around
    /// it. Readers can meet this only in odd input (links reopened across blocks); the JSON
    /// reader refuses overlapping links before it canonicalizes.
    static func separatingLinks(_ markups: [Markup]) -> [Markup] {
        // Counted before any array is made: most blocks have one link or none.
        var linkCount = 0
        for markup in markups { if case .link = markup.kind { linkCount += 1 } }
        guard linkCount > 1 else { return markups }
        let links = markups.filter { if case .link = $0.kind { true } else { false } }
        // The usual case: links already in order and apart.
        var inOrder = true
        for (previous, next) in zip(links, links.dropFirst()) where next.range.start < previous.range.end {
            inOrder = false
            break
        }
        if inOrder { return markups }
        let sorted = links.sorted { $0.range.start != $1.range.start ? $0.range.start < $1.range.start : $0.range.end < $1.range.end }
        var placed: [Markup] = []
        for link in sorted {
            var pieces: [Markup] = []
            for existing in placed {
                if existing.range.end <= link.range.start || existing.range.start >= link.range.end || existing.kind == link.kind {
                    pieces.append(existing)
                    continue
                }
                if existing.range.start < link.range.start {
                    pieces.append(Markup(existing.kind, start: existing.range.start, end: link.range.start))
                }
                if existing.range.end > link.range.end {
                    pieces.append(Markup(existing.kind, start: link.range.end, end: existing.range.end))
                }
            }
            pieces.append(link)
            placed = pieces
        }
        return markups.filter { if case .link = $0.kind { false } else { true } } + placed
    }

    /// Moves the edges of trimmable markups inward past whitespace.
    ///
    /// Each edge's byte is found in one forward walk by UTF-16 offsets, and the whitespace from
    /// there is counted byte by byte: a space, tab or line feed is one byte and one unit. (A flag
    /// per unit of the whole text, made for each block with whitespace at an edge, was 3.6% of
    /// reading a real article.)
    static func trimmingWhitespaceEdges(_ markups: [Markup], in text: String) -> [Markup] {
        // Each trimmable markup's first and last unit, in increasing order.
        var edges: [(offset: Int, index: Int, isEnd: Bool)] = []
        for index in markups.indices where markups[index].kind.trimsWhitespaceEdges && !markups[index].range.isEmpty {
            edges.append((max(markups[index].range.start, 0), index, false))
            edges.append((markups[index].range.end - 1, index, true))
        }
        guard !edges.isEmpty else { return markups }
        edges.sort { $0.offset < $1.offset }
        let bytes = text.utf8.span
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        var result = markups
        var walk = UTF16Walk()
        for edge in edges {
            // No byte: past the text, or inside a surrogate pair (not whitespace).
            guard edge.offset >= 0, let at = walk.advance(to: edge.offset, in: bytes), at < bytes.count,
                  isSpace(bytes[at]) else { continue }
            let range = markups[edge.index].range
            let length = range.end - max(range.start, 0)
            var count = 1
            if edge.isEnd {
                while count < length && at - count >= 0 && isSpace(bytes[at - count]) { count += 1 }
                result[edge.index].range.end -= count
            } else {
                while count < length && at + count < bytes.count && isSpace(bytes[at + count]) { count += 1 }
                result[edge.index].range.start = max(range.start, 0) + count
            }
            // All whitespace: both edges went past each other; empty at its end, as trimming
            // the start first leaves it.
            if result[edge.index].range.end < result[edge.index].range.start {
                result[edge.index].range = TextRange(start: range.end, end: range.end)
            }
        }
        return result
    }

    /// Sort-based, so O(m log m) in the number of markups whatever their overlap.
    static func canonicalMarkups(_ input: [Markup]) -> [Markup] {
        resolvingOverlappingColors(mergedMarkups(input))
    }

    /// Sorted, with empty ranges dropped and equal markups that touch or overlap merged:
    /// canonical form but for overlapping colours.
    static func mergedMarkups(_ input: [Markup]) -> [Markup] {
        if input.isEmpty { return input }
        if input.count == 1 { return input[0].range.isEmpty ? [] : input }
        // Group equal kinds together, each group in order of start, to merge in one pass.
        // One array, sorted in place: filtering and then sorting into a new one made two.
        var grouped = input
        grouped.removeAll { $0.range.isEmpty }
        grouped.sort { lhs, rhs in
            if lhs.kind != rhs.kind { return MarkupOrder.kindPrecedes(lhs.kind, rhs.kind) }
            if lhs.range.start != rhs.range.start { return lhs.range.start < rhs.range.start }
            return lhs.range.end > rhs.range.end
        }
        var merged: [Markup] = []
        merged.reserveCapacity(grouped.count)
        for markup in grouped {
            if let last = merged.last, last.kind == markup.kind {
                if markup.kind.mergesWhenTouching, markup.range.start <= last.range.end {
                    merged[merged.count - 1].range.end = max(last.range.end, markup.range.end)
                    continue
                }
                if last.range == markup.range { continue }
            }
            merged.append(markup)
        }
        MarkupOrder.sort(&merged)
        return merged
    }
}
