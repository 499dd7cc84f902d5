@_spi(InlineTraversal) import MarkbridgeIR

/// The Markdown writer's guarantee for inline content, behind one small API: write a block's
/// text and markups so that cmark reads them back as the same text and markups.
///
/// Everything but emphasis is escaped by construction (the round-trip properties hold it to
/// that). Emphasis depends on the characters around its delimiters (CommonMark's flanking
/// rules), so for a block with emphasis it tries `*`, then `_`, then inline HTML, and takes the
/// first that reads back: whether `*` and `_` do is predicted by running CommonMark's delimiter
/// procedure over what was written (``EmphasisPrediction``), and only where the prediction
/// cannot be made is the block read back through cmark.
struct VerifiedInlineWriter {
    let allowsHTML: Bool
    let urlPolicy: URLPolicy
    /// GitHub Flavored Markdown: strikes as `~~` where they flank (see ``withTildes``).
    let gfm: Bool
    /// Inline HTML tags interpreted while reading output back, shared by every read-back.
    private var tagCache = MarkdownReader.InlineTagCache()
    /// Working space for inline rendering and emphasis prediction, reused from block to block.
    private var scratch = MarkdownInlineRenderer.Scratch()

    init(allowsHTML: Bool, urlPolicy: URLPolicy, gfm: Bool = false) {
        self.allowsHTML = allowsHTML
        self.urlPolicy = urlPolicy
        self.gfm = gfm
    }

    /// Inline content that reads back as the block's own text and markups, trying `*`, then
    /// `_`, then inline HTML for emphasis; nil when none does (the caller writes HTML).
    mutating func inline(_ block: Block, index: Int, diagnostics: inout [Diagnostic]) -> [UInt8]? {
        let styles: [MarkdownInlineRenderer.EmphasisStyle] = allowsHTML ? [.asteriskFirst, .underscoreFirst, .html] : [.asteriskFirst, .underscoreFirst]
        // Only emphasis depends on the characters around its delimiters (CommonMark's flanking
        // rules); everything else is escaped by construction, and the round-trip property tests
        // hold it to that. So only blocks with emphasis are read back.
        // Code spans hold no markup, so a code span that another markup reaches into (starts or
        // ends inside, or covers exactly: which one nests inside depends on the order) is read
        // back too, and written as inline HTML when it cannot be a span.
        let hasEmphasis = block.markups.contains { $0.kind == .strong || $0.kind == .emphasis }
        let codes = CodeSpans(block.markups)
        let codeCrossed = !codes.isEmpty && Self.markupReachesIntoCode(block.markups, codes)
        let needsReading = hasEmphasis || codeCrossed
        // A markup that starts inside a code span is opened while the span collects its text,
        // so its delimiter or tag becomes code text in every style (backticks hold no markup):
        // no style can read back, and the block goes to HTML without trying them. (Markups
        // that only end inside one split it instead, and can.) With HTML dropped, some
        // markups write nothing, so this holds only when HTML is kept.
        if allowsHTML && !codes.isEmpty && Self.markupStartsInsideCode(block.markups, codes) { return nil }
        for style in styles {
            var renderer = MarkdownInlineRenderer(emphasis: style, allowsHTML: allowsHTML, gfm: gfm)
            let inline = renderer.render(block, blockIndex: index, scratch: &scratch)
            // The prediction covers emphasis only: a crossed code span, or HTML emphasis, is
            // always read back. A certain "otherwise" skips the read-back, which would fail.
            let verdict = codeCrossed || style == .html ? .unsure : renderer.emphasisVerdict
            if !needsReading || verdict == .asWritten || (verdict == .unsure && readsBack(inline, as: block)) {
                diagnostics += renderer.diagnostics
                return gfm && style != .html ? withTildes(block, index: index, style: style, verified: inline, diagnostics: &diagnostics) : inline
            }
        }
        guard !allowsHTML else { return nil }
        // Pure CommonMark and no delimiter reads back: the emphasis goes, reported.
        var plain = block
        plain.markups.removeAll { $0.kind == .strong || $0.kind == .emphasis }
        diagnostics.append(.warning("emphasis-dropped", "emphasis in block \(index) cannot be written in CommonMark here; dropped (--markdown-html drop)", block: index))
        var renderer = MarkdownInlineRenderer(emphasis: .asteriskFirst, allowsHTML: false, gfm: gfm)
        let inline = renderer.render(plain, blockIndex: index, scratch: &scratch)
        diagnostics += renderer.diagnostics
        return gfm ? withTildes(plain, index: index, style: .asteriskFirst, verified: inline, diagnostics: &diagnostics) : inline
    }

    /// GitHub Flavored Markdown: `verified` (strikes written as `<s>`, which flank emphasis as
    /// `~~` would) again with `~~`, if every run of them flanks. Otherwise the `<s>` version
    /// where HTML is kept, or without HTML the block without its strikes, reported.
    private mutating func withTildes(_ block: Block, index: Int, style: MarkdownInlineRenderer.EmphasisStyle,
                                     verified: [UInt8], diagnostics: inout [Diagnostic]) -> [UInt8]? {
        guard block.markups.contains(where: { $0.kind == .strike }) else { return verified }
        var renderer = MarkdownInlineRenderer(emphasis: style, allowsHTML: allowsHTML, gfm: true)
        renderer.strikeStyle = .tildes
        let tildes = renderer.render(block, blockIndex: index, scratch: &scratch)
        if renderer.tildesFlank(in: tildes) { return tildes }
        if allowsHTML { return verified }
        var plain = block
        plain.markups.removeAll { $0.kind == .strike }
        diagnostics.append(.warning("markup-dropped", "STRIKE in block \(index) cannot be written as ~~ here (the runs would not flank) and HTML is dropped; dropped (--markdown-html drop)", block: index))
        return inline(plain, index: index, diagnostics: &diagnostics)
    }

    /// Whether a markup other than a code span overlaps one without strictly containing it:
    /// it starts or ends inside one, or covers exactly the same text.
    static func markupReachesIntoCode(_ markups: [Markup], _ codes: CodeSpans? = nil) -> Bool {
        let codes = codes ?? CodeSpans(markups)
        guard !codes.isEmpty else { return false }
        // Code spans that overlap or touch each other (never in a canonical IR) count too.
        if codes.overlapOneAnother { return true }
        return markups.contains { other in
            other.kind != .code && (codes.hasInside(other.range.start) || codes.hasInside(other.range.end) || codes.contains(other.range))
        }
    }

    /// Whether a markup other than a code span starts strictly inside one.
    static func markupStartsInsideCode(_ markups: [Markup], _ codes: CodeSpans? = nil) -> Bool {
        let codes = codes ?? CodeSpans(markups)
        guard !codes.isEmpty else { return false }
        return markups.contains { $0.kind != .code && codes.hasInside($0.range.start) }
    }

    /// A block's code spans, sorted, for questions about offsets in O(log n) each: a block with
    /// many markups is still checked in O(n log n), never by comparing every pair.
    struct CodeSpans {
        /// The spans' ranges by start.
        private let ranges: [TextRange]
        /// Their interiors merged where they overlap or touch, by start: an offset inside one of
        /// these is inside a span or on the edge where two meet (which only makes a caller
        /// more careful).
        private let interiors: [TextRange]

        init(_ markups: [Markup]) {
            // Most blocks have no code span: they cost one pass and no allocation.
            guard markups.contains(where: { if case .code = $0.kind { true } else { false } }) else {
                ranges = []
                interiors = []
                return
            }
            ranges = markups.compactMap { markup in
                if case .code = markup.kind, !markup.range.isEmpty { markup.range } else { nil }
            }.sorted { $0.start < $1.start }
            var merged: [TextRange] = []
            for range in ranges {
                if let last = merged.last, range.start <= last.end {
                    merged[merged.count - 1] = TextRange(start: last.start, end: max(last.end, range.end))
                } else {
                    merged.append(range)
                }
            }
            interiors = merged
        }

        var isEmpty: Bool { ranges.isEmpty }

        var overlapOneAnother: Bool { interiors.count < ranges.count }

        /// Whether `offset` is strictly inside a span (after its start, before its end).
        func hasInside(_ offset: Int) -> Bool {
            // The last interior that starts before the offset.
            var low = 0
            var high = interiors.count
            while low < high {
                let middle = (low + high) / 2
                if interiors[middle].start < offset { low = middle + 1 } else { high = middle }
            }
            return low > 0 && offset < interiors[low - 1].end
        }

        /// Whether a span covers exactly `range`.
        func contains(_ range: TextRange) -> Bool {
            var low = 0
            var high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].start < range.start { low = middle + 1 } else { high = middle }
            }
            while low < ranges.count && ranges[low].start == range.start {
                if ranges[low].end == range.end { return true }
                low += 1
            }
            return false
        }
    }

    /// Without HTML a code span is written one span a line: the markups that reads back as.
    static func splittingCodeAtLineBreaks(_ markups: [Markup], in text: String) -> [Markup] {
        guard markups.contains(where: { $0.kind == .code }), text.utf8.contains(0x0A) else { return markups }
        let units = Array(text.utf16)
        var result: [Markup] = []
        for markup in markups {
            guard markup.kind == .code, units[markup.range.start..<markup.range.end].contains(0x0A) else {
                result.append(markup)
                continue
            }
            var start = markup.range.start
            for offset in markup.range.start...markup.range.end where offset == markup.range.end || units[offset] == 0x0A {
                if offset > start { result.append(Markup(.code, start: start, end: offset)) }
                start = offset + 1
            }
        }
        var split = Block(.paragraph, text: text, markups: result)
        split.canonicalize(trimmingEdges: false)
        return split.markups
    }

    /// Whether `inline`, read as a paragraph, gives the block's text and (writable) markups.
    private mutating func readsBack(_ inline: [UInt8], as block: Block) -> Bool {
        let read = MarkdownReader(options: .init(urlPolicy: urlPolicy)).readChecked(inline, tagCache: &tagCache).value
        var expected = block.markups
        if !allowsHTML {
            expected.removeAll { !$0.kind.hasCommonMarkSyntax && !(gfm && $0.kind == .strike) }
            expected = Self.splittingCodeAtLineBreaks(expected, in: block.text)
            // Written without their size (said by the renderer).
            for index in expected.indices {
                if case .image(let image) = expected[index].kind, image.hasSize { expected[index].kind = .image(image.withoutSize) }
            }
        }
        let blocks = read.blocks
        if blocks.count == 1, case .image(let image) = blocks[0].kind {
            return block.text == "\u{FFFC}" && expected == [Markup(.image(image), start: 0, end: 1)]
        }
        return blocks.count == 1 && blocks[0].text == block.text && blocks[0].markups == expected
    }
}
