import MarkbridgeHTML
import MarkbridgeIR

/// The Markdown writer's state: output, the indentation of open list items, the last item at
/// each depth (to keep or break ordered lists), and the block before.
struct MarkdownBlockEmitter {
    let options: MarkdownWriter.Options
    /// The Markdown so far, as UTF-8.
    var out: [UInt8] = []
    var diagnostics: [Diagnostic] = []
    /// For each list depth, the width of the latest item's marker: its content column.
    private var itemIndents: [Int] = []
    private var lastItems: [Int: (ordered: Bool, number: Int, delimiter: Character)] = [:]
    private var previous: Block?
    /// Inline HTML tags interpreted while reading output back, shared by every read-back.
    private var tagCache = MarkdownReader.InlineTagCache()
    /// Working space for inline rendering and emphasis prediction, reused from block to block.
    private var inlineScratch = MarkdownInlineRenderer.Scratch()

    init(options: MarkdownWriter.Options) {
        self.options = options
    }

    var allowsHTML: Bool { options.html == .keep }

    mutating func write(_ block: Block, index: Int) {
        separate(from: previous, to: block)
        let isItem = block.kind.isListItem
        let depth = block.depth
        if !lastItems.isEmpty { lastItems = lastItems.filter { isItem ? $0.key <= depth : $0.key < depth } }
        if itemIndents.count > depth { itemIndents.removeSubrange(depth...) }
        while itemIndents.count < depth { itemIndents.append(2) }
        var marker: [UInt8] = []
        switch block.kind {
        case .unorderedListItem:
            marker = Array("- ".utf8)
            lastItems[depth] = (false, 0, "-")
        case .orderedListItem(let given):
            // CommonMark reads at most nine digits and no sign: a number built by hand outside
            // that is clamped, so that the item stays an item (and `+ 1` cannot overflow).
            let number = ListNumber.clamped(given)
            var delimiter: Character = "."
            if let last = lastItems[depth], last.ordered {
                // The same list goes on only with the next number; else a new list, which needs
                // the other delimiter to not continue this one.
                delimiter = number == last.number + 1 ? last.delimiter : (last.delimiter == "." ? ")" : ".")
            }
            marker = Array("\(number)\(delimiter) ".utf8)
            lastItems[depth] = (true, number, delimiter)
        default:
            break
        }
        if isItem { itemIndents.append(marker.count) }
        let lines = content(of: block, index: index, isItem: isItem)
        let isCode: Bool
        if case .codeBlock = block.kind { isCode = true } else { isCode = false }
        // Each line: the container prefix (quotes, then the indentation of the open items),
        // then the item's marker on its first line or as much indentation on the others.
        let indentation = itemIndents.dropLast(isItem ? 1 : 0).reduce(0, +)
        func startLine(first: Bool) -> Int {
            let start = out.count
            for _ in 0..<block.quoteDepth { out.append(contentsOf: "> ".utf8) }
            out.append(contentsOf: repeatElement(0x20, count: indentation))
            if first { out.append(contentsOf: marker) } else { out.append(contentsOf: repeatElement(0x20, count: marker.count)) }
            return start
        }
        for (number, range) in lines.ranges.enumerated() {
            let start = startLine(first: number == 0)
            out.append(contentsOf: lines.bytes[range])
            // Code keeps its trailing spaces; elsewhere they could only be container indentation.
            if !isCode || range.isEmpty { trimTrailingSpaces(after: start) }
            out.append(0x0A)
        }
        if lines.ranges.isEmpty {
            trimTrailingSpaces(after: startLine(first: true))
            out.append(0x0A)
        }
        previous = block
    }

    private mutating func trimTrailingSpaces(after start: Int) {
        while out.count > start, out.last == 0x20 { out.removeLast() }
    }

    /// A blank line between blocks, inside the quotes both share; none between an empty list
    /// item and its own content (an item may begin with at most one blank line).
    private mutating func separate(from previous: Block?, to block: Block) {
        guard let previous else { return }
        if previous.kind.isListItem && previous.text.isEmpty && block.depth > previous.depth { return }
        let start = out.count
        for _ in 0..<min(previous.quoteDepth, block.quoteDepth) { out.append(contentsOf: "> ".utf8) }
        trimTrailingSpaces(after: start)
        out.append(0x0A)
    }

    /// The block's lines, without container prefixes.
    private mutating func content(of block: Block, index: Int, isItem: Bool) -> MarkdownLines {
        switch block.kind {
        case .codeBlock(let language):
            // A fenced block holds its text raw: a CR would end a line there, and other
            // controls would reach whoever prints the Markdown. HTML can write them as
            // references; pure CommonMark cannot write them at all.
            guard MarkdownEscaping.hasRawControl(block.text.utf8) else { return codeBlock(block.text, language: language) }
            if allowsHTML, let html = htmlBlock(block, index: index, isItem: false, keepingEmptyLines: true) { return html }
            let (replaced, count) = MarkdownEscaping.replacingRawControls(block.text)
            diagnostics.append(.warning("control-character-replaced", "code block \(index): \(count) control character\(count == 1 ? "" : "s") (CR, or C0 other than tab and line feed) replaced with U+FFFD: a fenced block cannot hold them (--markdown-html drop)"))
            return codeBlock(replaced, language: language)
        case .horizontalRule:
            return MarkdownLines(Array("***".utf8))
        case .image(let image):
            if block.text.isEmpty && block.alignment == nil {
                var out: [UInt8] = []
                MarkdownEscaping.image(image, into: &out)
                return MarkdownLines(out)
            }
            return htmlBlock(block, index: index, isItem: false) ?? .none
        case .heading(let level):
            let hashes = Array(repeatElement(UInt8(ascii: "#"), count: level))
            if block.alignment != nil || block.text.utf8.contains(0x0A) {
                if let html = htmlBlock(block, index: index, isItem: false) { return html }
            }
            if block.text.isEmpty { return MarkdownLines(hashes) }
            guard let inline = verifiedInline(block, index: index) else { return htmlBlock(block, index: index, isItem: false) ?? MarkdownLines(hashes) }
            return MarkdownLines(hashes + [0x20] + inline)
        case .paragraph, .blockquote, .unorderedListItem, .orderedListItem:
            if block.text.isEmpty {
                if isItem && block.alignment == nil { return .none }
                return htmlBlock(block, index: index, isItem: isItem) ?? .none
            }
            if block.alignment != nil, let html = htmlBlock(block, index: index, isItem: isItem) { return html }
            guard let inline = verifiedInline(block, index: index) else {
                return htmlBlock(block, index: index, isItem: isItem) ?? .none
            }
            return MarkdownLines(inline)
        }
    }

    /// Inline content that reads back as the block's own text and markups, trying `*`, then
    /// `_`, then inline HTML for emphasis; nil when none does (the caller writes HTML).
    private mutating func verifiedInline(_ block: Block, index: Int) -> [UInt8]? {
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
            var renderer = MarkdownInlineRenderer(emphasis: style, allowsHTML: allowsHTML)
            let inline = renderer.render(block, blockIndex: index, scratch: &inlineScratch)
            // The prediction covers emphasis only: a crossed code span, or HTML emphasis, is
            // always read back. A certain "otherwise" skips the read-back, which would fail.
            let verdict = codeCrossed || style == .html ? .unsure : renderer.emphasisVerdict
            if !needsReading || verdict == .asWritten || (verdict == .unsure && readsBack(inline, as: block)) {
                diagnostics += renderer.diagnostics
                return inline
            }
        }
        guard !allowsHTML else { return nil }
        // Pure CommonMark and no delimiter reads back: the emphasis goes, reported.
        var plain = block
        plain.markups.removeAll { $0.kind == .strong || $0.kind == .emphasis }
        diagnostics.append(.warning("emphasis-dropped", "emphasis in block \(index) cannot be written in CommonMark here; dropped (--markdown-html drop)"))
        var renderer = MarkdownInlineRenderer(emphasis: .asteriskFirst, allowsHTML: false)
        let inline = renderer.render(plain, blockIndex: index, scratch: &inlineScratch)
        diagnostics += renderer.diagnostics
        return inline
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

    /// Whether `inline`, read as a paragraph, gives the block's text and (writable) markups.
    private mutating func readsBack(_ inline: [UInt8], as block: Block) -> Bool {
        let read = MarkdownReader(options: .init(urlPolicy: options.urlPolicy)).readChecked(inline, tagCache: &tagCache).value
        var expected = block.markups
        if !allowsHTML {
            expected.removeAll { !$0.kind.hasCommonMarkSyntax }
        }
        let blocks = read.blocks
        if blocks.count == 1, case .image(let image) = blocks[0].kind {
            return block.text == "\u{FFFC}" && expected == [Markup(.image(image), start: 0, end: 1)]
        }
        return blocks.count == 1 && blocks[0].text == block.text && blocks[0].markups == expected
    }

    /// The block as an HTML block, which the reader parses with the HTML reader. A list item's
    /// content is written as a paragraph in the item.
    private mutating func htmlBlock(_ block: Block, index: Int, isItem: Bool, keepingEmptyLines: Bool = false) -> MarkdownLines? {
        guard allowsHTML else {
            if block.alignment != nil {
                diagnostics.append(.warning("alignment-dropped", "alignment of block \(index) has no CommonMark syntax; dropped (--markdown-html drop)"))
            } else {
                diagnostics.append(.warning("block-dropped", "block \(index) has no CommonMark form (an empty paragraph, or a caption); dropped (--markdown-html drop)"))
            }
            return nil
        }
        var single = block
        single.depth = 0
        single.quoteDepth = 0
        if isItem { single.kind = .paragraph }
        if single.kind == .blockquote { single.kind = .paragraph }
        // An empty line would end most HTML blocks; only `<pre>`'s, which ends at `</pre>`,
        // may keep them (they are its text).
        var html = HTMLWriter(options: .init(urlPolicy: options.urlPolicy)).write(Document(blocks: [single])).value
        if html.last == 0x0A { html.removeLast() }
        return MarkdownLines(html, omittingEmpty: !keepingEmptyLines)
    }

    /// A fenced code block with a fence longer than any fence-like run inside.
    private func codeBlock(_ text: String, language: String?) -> MarkdownLines {
        let useTildes = language?.contains("`") ?? false
        let fenceCharacter = useTildes ? UInt8(ascii: "~") : UInt8(ascii: "`")
        let fence = repeatElement(fenceCharacter, count: max(2, MarkdownLines.longestLeadingRun(of: fenceCharacter, in: text.utf8)) + 1)
        var out = Array(fence)
        if let language { MarkdownEscaping.infoString(language, fence: fenceCharacter, into: &out) }
        out.append(0x0A)
        if !text.isEmpty {
            out.append(contentsOf: text.utf8)
            out.append(0x0A)
        }
        out.append(contentsOf: fence)
        return MarkdownLines(out)
    }
}
