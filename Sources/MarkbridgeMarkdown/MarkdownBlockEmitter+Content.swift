@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// What each kind of block is written as, without its container prefixes: Markdown where
/// Markdown can hold it, else an HTML block (or a pipe table, or a link for an embed).
extension MarkdownBlockEmitter {
    /// The block's lines, without container prefixes.
    mutating func content(of block: Block, index: Int, isItem: Bool) -> MarkdownLines {
        switch block.kind {
        case .codeBlock(let language):
            // A fenced block holds its text raw: a CR would end a line there, and other
            // controls would reach whoever prints the Markdown. HTML can write them as
            // references; pure CommonMark cannot write them at all.
            // A fence holds its text raw, so formatting over code (`<b><pre>`), an anchor and an
            // alignment (`<pre style="text-align:right">`) need the HTML block, which keeps them.
            if block.anchor != nil || !block.markups.isEmpty || block.alignment != nil, allowsHTML,
               let html = htmlBlock(block, index: index, isItem: false, keepingEmptyLines: true) { return html }
            reportDroppedAnchor(block, index: index)
            reportMarkupsInFence(block, index: index)
            if block.alignment != nil {
                diagnostics.append(.warning("alignment-dropped", "alignment of code block \(index) has no CommonMark syntax; dropped\(allowsHTML ? "" : " (--markdown-html drop)")", block: index))
            }
            // A line that begins with more markers than the reader keeps (``MarkdownDepthClamp``)
            // would lose them: a fence cannot escape them, the HTML block can.
            if let line = Self.firstCutLine(block.text, quotesBefore: block.quoteDepth) {
                if allowsHTML, let html = htmlBlock(block, index: index, isItem: false, keepingEmptyLines: true) { return html }
                diagnostics.append(.warning("depth-clamped", "code block \(index): line \(line) begins with more than \(MarkdownDepthClamp.keptQuotes) '>' or \(MarkdownDepthClamp.keptListMarkers) list markers, with the block's quotes; a fenced block cannot escape them, and a reader of this output keeps only those (--markdown-html drop)", block: index))
            }
            guard MarkdownEscaping.hasRawControl(block.text.utf8) else { return codeBlock(block.text, language: language) }
            if allowsHTML, let html = htmlBlock(block, index: index, isItem: false, keepingEmptyLines: true) { return html }
            let (replaced, count) = MarkdownEscaping.replacingRawControls(block.text)
            diagnostics.append(.warning("control-character-replaced", "code block \(index): \(count) control character\(count == 1 ? "" : "s") (CR, C0 other than tab and line feed, DEL or C1) replaced with U+FFFD: a fenced block cannot hold them (--markdown-html drop)", block: index))
            return codeBlock(replaced, language: language)
        case .horizontalRule:
            if block.anchor != nil, allowsHTML, let html = htmlBlock(block, index: index, isItem: false) { return html }
            reportDroppedAnchor(block, index: index)
            return MarkdownLines(Array("***".utf8))
        case .image(let image):
            // A caption, an alignment, an anchor or a size need the HTML block, which keeps them.
            if block.text.isEmpty && block.alignment == nil && (block.anchor == nil && !image.hasSize || !allowsHTML) {
                reportDroppedAnchor(block, index: index)
                var out: [UInt8] = []
                if image.hasSize { diagnostics.append(MarkdownEscaping.imageSizeDroppedDiagnostic(image, block: index)) }
                if image.alt == "" { diagnostics.append(MarkdownEscaping.emptyAltDiagnostic(block: index)) }
                MarkdownEscaping.image(image, gfm: options.dialect == .gfm, into: &out)
                return MarkdownLines(out)
            }
            return htmlBlock(block, index: index, isItem: false) ?? .none
        case .embed(let embed):
            if allowsHTML, case .allowed = options.urlPolicy.check(embed.src, for: .embed(embed.kind)) {
                return htmlBlock(block, index: index, isItem: false) ?? .none
            }
            return embedLink(block, embed, index: index)
        case .heading(let level):
            let hashes = Array(repeatElement(UInt8(ascii: "#"), count: level))
            var block = block
            let breaks = block.text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if block.alignment != nil || breaks > 0 {
                if allowsHTML, let html = htmlBlock(block, index: index, isItem: false) { return html }
                if block.alignment != nil {
                    diagnostics.append(.warning("alignment-dropped", "alignment of block \(index) has no CommonMark syntax; dropped (--markdown-html drop)", block: index))
                }
                if breaks > 0 {
                    // An ATX heading is one line: a hard break (`\`) would end it. A space
                    // each, one UTF-16 unit as the line feed was, so the markups stay where they are.
                    diagnostics.append(.warning("line-break-dropped", "\(breaks) line break\(breaks == 1 ? "" : "s") in heading block \(index) written as spaces: a Markdown heading is one line (--markdown-html drop)", block: index))
                    block.text = String(String.UnicodeScalarView(block.text.unicodeScalars.map { $0 == "\n" ? " " : $0 }))
                }
            }
            if block.text.isEmpty { return MarkdownLines(block.anchor == nil ? hashes : hashes + [0x20] + anchorTag(block, index: index)) }
            guard let inline = inlineWriter.inline(block, index: index, diagnostics: &diagnostics) else { return htmlBlock(block, index: index, isItem: false) ?? MarkdownLines(hashes) }
            return MarkdownLines(hashes + [0x20] + anchorTag(block, index: index) + inline)
        case .tableRow(let row):
            // Reached without HTML: the row as a paragraph of its text, the table reported once.
            if row.startsTable {
                diagnostics.append(.warning("table-flattened", "table at block \(index) has no CommonMark form; written as one paragraph a row, cells separated by '\(TableRow.separator)' (--markdown-html drop)", block: index))
            }
            reportDroppedAnchor(block, index: index)
            let paragraph = Block(.paragraph, text: block.text, markups: block.markups)
            if paragraph.text.isEmpty {
                diagnostics.append(.warning("block-dropped", "block \(index), a table row of empty cells, has no CommonMark form as a paragraph; dropped (--markdown-html drop)", block: index))
                return .none
            }
            guard let inline = inlineWriter.inline(paragraph, index: index, diagnostics: &diagnostics) else { return .none }
            return MarkdownLines(inline)
        case .tableCaption:
            // Reached without HTML: a paragraph before its table, which has no caption in
            // CommonMark, nor in a pipe table.
            diagnostics.append(.warning("table-caption-flattened", "caption of the table at block \(index + 1) has no Markdown form without HTML (a pipe table has none); written as a paragraph before the table (--markdown-html drop)", block: index))
            var paragraph = block
            paragraph.kind = block.quoteDepth > 0 ? .blockquote : .paragraph
            return content(of: paragraph, index: index, isItem: false)
        case .definitionTerm, .definitionDescription:
            // Reached without HTML: a paragraph, the list reported once, at its first block.
            if !block.continuesDefinitionList(after: previous) {
                diagnostics.append(.warning("flattened-definition-list", "definition list at block \(index) has no CommonMark form; its terms and definitions written as paragraphs (--markdown-html drop)", block: index))
            }
            var paragraph = block
            paragraph.kind = block.quoteDepth > 0 ? .blockquote : .paragraph
            return content(of: paragraph, index: index, isItem: false)
        case .paragraph, .blockquote, .unorderedListItem, .orderedListItem:
            if block.text.isEmpty {
                if isItem && block.alignment == nil { return block.anchor == nil ? .none : MarkdownLines(anchorTag(block, index: index)) }
                return htmlBlock(block, index: index, isItem: isItem) ?? .none
            }
            if block.alignment != nil, let html = htmlBlock(block, index: index, isItem: isItem) { return html }
            guard let inline = inlineWriter.inline(block, index: index, diagnostics: &diagnostics) else {
                return htmlBlock(block, index: index, isItem: isItem) ?? .none
            }
            let anchor = anchorTag(block, index: index)
            return MarkdownLines(anchor + (isItem && anchor.isEmpty ? MarkdownEscaping.keepingLoneTagInline(inline) : inline))
        }
    }

    /// The block's anchor as inline HTML to begin its content (`<a id="x"></a>`, which the
    /// reader gives back to the block it begins), or nothing, reported, without HTML.
    private mutating func anchorTag(_ block: Block, index: Int) -> [UInt8] {
        guard let anchor = block.anchor else { return [] }
        guard allowsHTML else {
            reportDroppedAnchor(block, index: index)
            return []
        }
        return Array("<a id=\"\(HTMLEscaping.attribute(anchor))\"></a>".utf8)
    }

    /// An anchor Markdown cannot carry here: without HTML, or on a block it has no inline content for.
    private mutating func reportDroppedAnchor(_ block: Block, index: Int) {
        guard let anchor = block.anchor else { return }
        diagnostics.append(.warning("anchor-dropped", "anchor \(anchor.debugDescription) of block \(index) has no CommonMark form here; dropped\(allowsHTML ? "" : " (--markdown-html drop)")", block: index))
    }

    /// Formatting over a code block's text, which a fence cannot hold (its text is raw): each
    /// markup dropped, said with its kind and range.
    private mutating func reportMarkupsInFence(_ block: Block, index: Int) {
        for markup in block.markups {
            diagnostics.append(.warning("markup-dropped", "\(markup.kind.name) \(markup.range) over code block \(index) has no CommonMark form (a fence holds its text raw); dropped (--markdown-html drop)", block: index))
        }
    }

    /// The block as an HTML block, which the reader parses with the HTML reader. A list item's
    /// content is written as a paragraph in the item.
    private mutating func htmlBlock(_ block: Block, index: Int, isItem: Bool, keepingEmptyLines: Bool = false) -> MarkdownLines? {
        guard allowsHTML else {
            if block.alignment != nil {
                diagnostics.append(.warning("alignment-dropped", "alignment of block \(index) has no CommonMark syntax; dropped (--markdown-html drop)", block: index))
            } else {
                diagnostics.append(.warning("block-dropped", "block \(index) has no CommonMark form (an empty paragraph, or a caption); dropped (--markdown-html drop)", block: index))
            }
            return nil
        }
        var single = block
        if isItem { single.kind = .paragraph }
        if single.kind == .blockquote { single.kind = .paragraph }
        // An empty line would end most HTML blocks; only `<pre>`'s, which ends at `</pre>`,
        // may keep them (they are its text).
        return html(of: [single], index: index, keepingEmptyLines: keepingEmptyLines)
    }

    /// Blocks as one HTML block, written where the Markdown's own prefixes put them (so outside
    /// any list or quote of their own); the HTML writer's diagnostics counted from `index`.
    private mutating func html(of blocks: some Collection<Block>, index: Int, keepingEmptyLines: Bool = false) -> MarkdownLines {
        wroteHTML = true
        let placed = blocks.map { block in
            var copy = block
            copy.depth = 0
            copy.quoteDepth = 0
            copy.quoteListDepths = []
            // The HTML block is one group, begun with its first block.
            copy.containerStart = nil
            return copy
        }
        let written = HTMLWriter(options: .init(urlPolicy: options.urlPolicy)).writeChecked(Document(blocks: placed))
        for diagnostic in written.diagnostics {
            var moved = diagnostic
            if let block = diagnostic.block { moved.block = index + block }
            diagnostics.append(moved)
        }
        var html = Self.escapingCutLines(written.value, quotesBefore: blocks.first?.quoteDepth ?? 0)
        if html.last == 0x0A { html.removeLast() }
        return MarkdownLines(html, omittingEmpty: !keepingEmptyLines)
    }

    /// The number (1-based) of the first line of `text` that ``MarkdownDepthClamp`` would cut,
    /// written after `quotesBefore` quote markers; nil for none.
    static func firstCutLine(_ text: String, quotesBefore: Int) -> Int? {
        firstCutLine(text.utf8.span, quotesBefore: quotesBefore)
    }

    static func firstCutLine(_ bytes: Span<UInt8>, quotesBefore: Int) -> Int? {
        var first: Int?
        forEachCutLine(in: bytes, quotesBefore: quotesBefore) { number, _ in
            first = number
            return false
        }
        return first
    }

    /// Calls `body` with the number (1-based) and byte range of each line of `bytes` that
    /// ``MarkdownDepthClamp`` would cut, written after `quotesBefore` quote markers, until it
    /// returns false.
    private static func forEachCutLine(in bytes: Span<UInt8>, quotesBefore: Int, _ body: (Int, Range<Int>) -> Bool) {
        // A cut line holds at least one more `>` than the quotes before leave room for, or one
        // more list marker than kept, each but the last with its space: most lines are shorter.
        let shortestCut = min(MarkdownDepthClamp.keptQuotes + 1 - quotesBefore, 2 * MarkdownDepthClamp.keptListMarkers + 1)
        guard bytes.count >= shortestCut else { return }
        var line = 1
        var start = 0
        while start <= bytes.count {
            let end = ByteScan.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count
            if end - start >= shortestCut && MarkdownDepthClamp.cuts(lineAt: start, in: bytes, quotesBefore: quotesBefore),
               !body(line, start..<end) { return }
            start = end + 1
            line += 1
        }
    }

    /// HTML with the first marker of each line that ``MarkdownDepthClamp`` would cut written as a
    /// character reference, which HTML reads as the character and the clamp as no marker. (The
    /// HTML writer escapes `>` in text, so the markers are list markers, or `>` in an attribute.)
    static func escapingCutLines(_ html: [UInt8], quotesBefore: Int) -> [UInt8] {
        var markers: [Int] = []
        forEachCutLine(in: html.span, quotesBefore: quotesBefore) { _, line in
            if let marker = html[line].firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) { markers.append(marker) }
            return true
        }
        guard !markers.isEmpty else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(html.count + 6 * markers.count)
        var copied = 0
        for marker in markers {
            out.append(contentsOf: html[copied..<marker])
            out.append(contentsOf: "&#\(html[marker]);".utf8)
            copied = marker + 1
        }
        out.append(contentsOf: html[copied...])
        return out
    }

    /// A whole table or definition list as one HTML block, which the reader maps back to its
    /// blocks (a `<table>` or `<dl>` block of CommonMark ends only at a blank line, and the
    /// writer writes none inside it); a table as a pipe table where GFM can have one.
    mutating func groupBlock(_ rows: ArraySlice<Block>, index: Int) -> MarkdownLines {
        // An anchor needs the HTML table, where HTML is allowed.
        if rows.first?.kind != .tableCaption, MarkdownPipeTable.fits(rows, dialect: options.dialect), !(allowsHTML && rows.contains { $0.anchor != nil }), let table = pipeTable(rows, index: index) {
            for (offset, row) in rows.enumerated() { reportDroppedAnchor(row, index: index + offset) }
            return table
        }
        return html(of: rows, index: index)
    }

    /// A GitHub Flavored Markdown pipe table: each cell's inline content with every `|` in it
    /// escaped (the table splits its rows before reading a cell's inline content, code spans
    /// and link destinations included). Nil when a cell's content needs HTML.
    private mutating func pipeTable(_ rows: ArraySlice<Block>, index: Int) -> MarkdownLines? {
        var lines: [[UInt8]] = []
        for (offset, row) in rows.enumerated() {
            var line: [UInt8] = [UInt8(ascii: "|")]
            for cell in row.cellParagraphs {
                var trimmed = cell
                trimmed.alignment = nil
                trimmed.canonicalize()
                for markup in cell.markups where !trimmed.markups.contains(markup) {
                    diagnostics.append(.warning("markup-range-adjusted",
                        "\(markup.kind.name) \(markup.range) in a cell of block \(index + offset) begins or ends on whitespace, which Markdown cannot mark; written without it", block: index + offset))
                }
                line.append(0x20)
                if !trimmed.text.isEmpty {
                    guard let inline = inlineWriter.inline(trimmed, index: index + offset, diagnostics: &diagnostics) else { return nil }
                    for byte in inline {
                        if byte == UInt8(ascii: "|") { line.append(UInt8(ascii: "\\")) }
                        line.append(byte)
                    }
                }
                line.append(contentsOf: " |".utf8)
            }
            lines.append(line)
            if offset == 0 { lines.append(MarkdownPipeTable.delimiterRow(row.tableCells)) }
        }
        return MarkdownLines(Array(lines.joined(separator: [0x0A])))
    }

    /// Without HTML, or with a source it may only link to, an embed is a link to its source
    /// over its text (or title, or the source itself), reported: what a reader can still follow.
    private mutating func embedLink(_ block: Block, _ embed: Embed, index: Int) -> MarkdownLines {
        let source: String
        switch options.urlPolicy.check(embed.src, for: .embed(embed.kind)) {
        case .allowed(let checked):
            diagnostics.append(.warning("embed-dropped", "\(embed.kind.rawValue) in block \(index) has no CommonMark form; written as a link to its source\(Self.notInLink(embed)) (--markdown-html drop)", block: index))
            source = checked
        case .linkOnly(let checked, let reason):
            diagnostics.append(.warning("embed-host-refused", "\(embed.kind.rawValue) in block \(index) not embedded: \(reason); written as a link to its source\(Self.notInLink(embed))", block: index))
            source = checked
        case .rejected:
            diagnostics.append(.warning("unsafe-url", "embed source in block \(index) not written; its text kept", block: index))
            var text = block
            text.kind = .paragraph
            return content(of: text, index: index, isItem: false)
        }
        // A paragraph now: an alignment is kept as HTML, or reported, as any paragraph's.
        return content(of: block.embedWrittenAsLink(to: source, title: embed.title), index: index, isItem: false)
    }

    /// What of an embed a link to its source cannot carry, said beside the loss so that nothing
    /// goes unnamed: `; its poster https://… and size 640×360 dropped`, or nothing.
    static func notInLink(_ embed: Embed) -> String {
        var parts: [String] = []
        if let poster = embed.poster { parts.append("poster \(poster)") }
        switch (embed.width, embed.height) {
        case let (width?, height?): parts.append("size \(width)×\(height)")
        case let (width?, nil): parts.append("width \(width)")
        case let (nil, height?): parts.append("height \(height)")
        case (nil, nil): break
        }
        return parts.isEmpty ? "" : "; its " + parts.joined(separator: " and ") + " dropped"
    }

    /// A fenced code block with a fence longer than any fence-like run inside.
    private func codeBlock(_ text: String, language: String?) -> MarkdownLines {
        // By bytes: a backtick that a combining mark follows is one character with it.
        let useTildes = language?.utf8.contains(UInt8(ascii: "`")) ?? false
        let fenceCharacter = useTildes ? UInt8(ascii: "~") : UInt8(ascii: "`")
        let fence = repeatElement(fenceCharacter, count: max(2, MarkdownLines.longestLeadingRun(of: fenceCharacter, in: text.utf8)) + 1)
        var out = Array(fence)
        if let language { MarkdownEscaping.escape(language, as: .infoString(fence: fenceCharacter), into: &out) }
        out.append(0x0A)
        if !text.isEmpty {
            out.append(contentsOf: text.utf8)
            out.append(0x0A)
        }
        out.append(contentsOf: fence)
        return MarkdownLines(out)
    }
}
