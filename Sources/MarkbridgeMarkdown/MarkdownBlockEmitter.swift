import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

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
    /// Whether the block before was a list item written with no content (no text, no
    /// anchor; a task box is not content, the reader takes it as the item's): CommonMark ends
    /// such an item at a blank line, and the line after it is the item's own text.
    private var previousWasBareMarker = false
    /// Where each block's containers begin, to tell an item that goes on with its list.
    private var walk = ContainerWalk()
    /// Whether the block being written, and the one before, went out as HTML blocks.
    private var wroteHTML = false
    private var previousWasHTML = false
    /// Inline content, written so that it reads back as written.
    private var inlineWriter: VerifiedInlineWriter

    init(options: MarkdownWriter.Options) {
        self.options = options
        inlineWriter = VerifiedInlineWriter(allowsHTML: options.html == .keep, urlPolicy: options.urlPolicy, gfm: options.dialect == .gfm)
    }

    var allowsHTML: Bool { options.html == .keep }

    /// Writes `block`; `tight` says it follows the block before with a line break (an item of a
    /// tight list, see ``MarkdownListLayout``), unless either is written as HTML. For the first
    /// block of a table or a definition list written whole (as one HTML block, or a pipe
    /// table), `group` holds all its blocks.
    /// `next` is the block after, if any: an empty quote is written as `>` alone only when
    /// nothing follows in it.
    mutating func write(_ block: Block, index: Int, tight: Bool = false, group: ArraySlice<Block>? = nil, next: Block? = nil) {
        let isItem = block.kind.isListItem
        let depth = block.depth
        if !lastItems.isEmpty { lastItems = lastItems.filter { isItem ? $0.key <= depth : $0.key < depth } }
        // A list that begins here, beside one of its kind, needs the other marker: CommonMark
        // goes on with a list whose items have the same bullet or delimiter, blank line or not.
        let beginsList = block.containerStart.map { $0 <= block.containerChainCount - 1 } ?? false
        let placement = walk.place(block)
        for member in group?.dropFirst() ?? [] { _ = walk.place(member) }
        if itemIndents.count > depth { itemIndents.removeSubrange(depth...) }
        while itemIndents.count < depth { itemIndents.append(2) }
        var marker: [UInt8] = []
        switch block.kind {
        case .unorderedListItem:
            var bullet: Character = "-"
            if let last = lastItems[depth], !last.ordered { bullet = beginsList ? (last.delimiter == "-" ? "*" : "-") : last.delimiter }
            marker = Array("\(bullet) ".utf8)
            lastItems[depth] = (false, 0, bullet)
        case .orderedListItem(let number):
            // In ListNumber.range (the writer checked): nine digits at most, no sign, and
            // `+ 1` cannot overflow.
            var delimiter: Character = "."
            if let last = lastItems[depth], last.ordered {
                // The same list goes on only with the next number; else a new list, which needs
                // the other delimiter to not continue this one.
                let inTurn = number == last.number + 1
                delimiter = inTurn && !beginsList ? last.delimiter : (last.delimiter == "." ? ")" : ".")
                if !inTurn && placement.start == placement.chainCount {
                    diagnostics.append(.warning("list-split", "ordered list item at block \(index) shows \(number) after \(last.number): CommonMark numbers a list's items one after another, so it begins a list of its own", block: index))
                }
            }
            marker = Array("\(number)\(delimiter) ".utf8)
            lastItems[depth] = (true, number, delimiter)
        case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule:
            break
        }
        if isItem { itemIndents.append(marker.count) }
        wroteHTML = false
        let lines: MarkdownLines
        if let group {
            lines = groupBlock(group, index: index)
        } else if block.standsForEmptyQuote(before: next), block.beginsInnermostContainer(after: previous) {
            // An empty quote, nothing else in it: its marker alone.
            lines = .none
        } else {
            lines = content(of: block, index: index, isItem: isItem)
        }
        if let previous, previousWasBareMarker, block.isFirstInEmptyItem(previous),
           !wroteHTML || block.kind == .paragraph || block.kind == .blockquote, !lines.ranges.isEmpty,
           writesParagraph(block, inGroup: group != nil) {
            // CommonMark: an item's first paragraph is its own text, and an empty item has no
            // syntax that keeps a paragraph after it apart; a `<p>` HTML block in it is read
            // back as that text too, as `<li><p>` is.
            diagnostics.append(.warning("empty-item-merged", "list item at block \(index - 1) is empty and the paragraph in it at block \(index) cannot be written apart from it: read back, that paragraph is the item's own text", block: index - 1))
        }
        let taskBox = isItem ? self.taskBox(block, index: index, lines: lines) : []
        // A tight break only between blocks written as Markdown: an HTML block ends at a blank line.
        if !(tight && !wroteHTML && !previousWasHTML) { separate(from: previous, to: block) }
        previousWasHTML = wroteHTML
        let isCode: Bool
        if case .codeBlock = block.kind { isCode = true } else { isCode = false }
        // Each line: the container prefix (a quote's marker, or the indentation of an open
        // item, in the order the containers nest), then the item's marker on its first line or
        // as much indentation on the others.
        let prefix = containerPrefix(of: block, through: nil)
        func startLine(first: Bool) -> Int {
            let start = out.count
            out.append(contentsOf: prefix)
            if first { out.append(contentsOf: marker + taskBox) } else { out.append(contentsOf: repeatElement(0x20, count: marker.count)) }
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
        previousWasBareMarker = isItem && lines.ranges.isEmpty
    }

    /// Whether `block`, written as Markdown, is a paragraph: a quote's paragraph in its quote,
    /// an image (`![a](src)` alone on its line), and a definition, caption, table row or embed
    /// flattened to one too.
    private func writesParagraph(_ block: Block, inGroup: Bool) -> Bool {
        switch block.kind {
        case .paragraph, .blockquote, .image, .definitionTerm, .definitionDescription, .tableCaption, .embed: true
        case .tableRow: !inGroup
        case .heading, .unorderedListItem, .orderedListItem, .codeBlock, .horizontalRule: false
        }
    }

    /// What goes between an item's marker and its content for its task state: GFM's `[ ] ` or
    /// `[x] `; where those cannot be (CommonMark, an empty item, an item in a quote, where
    /// cmark-gfm 0.29.0.gfm.6 reads no box), the disabled checkbox GitHub
    /// renders, as inline HTML the reader takes back; without HTML, the box as escaped text,
    /// reported. An item that is no task but whose text begins like a box has its `[` escaped
    /// in GFM, which would read it as one.
    private mutating func taskBox(_ block: Block, index: Int, lines: MarkdownLines) -> [UInt8] {
        guard let task = block.taskState else {
            if options.dialect == .gfm, let first = lines.ranges.first, !wroteHTML,
               MarkdownTaskBox.beginsLikeBox(lines.bytes[first]) {
                return Array("\\".utf8)
            }
            return []
        }
        let isEmpty = lines.ranges.isEmpty
        if wroteHTML {
            diagnostics.append(.warning("task-flattened", "task state (\(task.rawValue)) of list item \(index), written as an HTML block, has no place in it; dropped", block: index))
            return []
        }
        if options.dialect == .gfm && !isEmpty && block.quoteDepth == 0 { return MarkdownTaskBox.gfm(task) }
        if allowsHTML { return MarkdownTaskBox.checkbox(task) }
        let why = options.dialect == .commonMark ? "CommonMark has no task list items"
            : isEmpty ? "GFM has no box on an empty item" : "cmark-gfm reads no box in a quote"
        diagnostics.append(.warning("task-flattened", "task state (\(task.rawValue)) of list item \(index): \(why); written as the text \(task.isChecked ? "[x]" : "[ ]") (--markdown-html drop)", block: index))
        return MarkdownTaskBox.escapedText(task, isEmpty: isEmpty)
    }

    private mutating func trimTrailingSpaces(after start: Int) {
        while out.count > start, out.last == 0x20 { out.removeLast() }
    }

    /// A blank line between blocks, inside the quotes both share (and the items around those
    /// quotes, whose content a quote marker must be indented to); none between an empty list
    /// item and its own content (an item may begin with at most one blank line).
    private mutating func separate(from previous: Block?, to block: Block) {
        guard let previous else { return }
        // A blank line would end the item: what it holds follows on the next line.
        if previousWasBareMarker && block.depth > previous.depth { return }
        let start = out.count
        // Containers that begin at the block are not shared: a blank line outside a quote ends it.
        let limit = block.containerStart ?? Int.max
        if previous.quoteListDepths.isEmpty && block.quoteListDepths.isEmpty {
            for _ in 0..<min(previous.quoteDepth, block.quoteDepth, limit) { out.append(contentsOf: "> ".utf8) }
        } else {
            let (before, after) = (previous.containers, block.containers)
            var shared = 0
            while shared < before.count, shared < after.count, shared < limit, before[shared] == after[shared] { shared += 1 }
            // Up to the last quote both are in: items past it need no indentation on a blank line.
            if let lastQuote = after[..<shared].lastIndex(of: .quote) {
                out.append(contentsOf: containerPrefix(of: block, through: lastQuote + 1))
            }
        }
        trimTrailingSpaces(after: start)
        out.append(0x0A)
    }

    /// The line prefix the block's containers make, for its first `count` containers (all when
    /// nil): `> ` for a quote, the content indentation of the item for a list item.
    private func containerPrefix(of block: Block, through count: Int?) -> [UInt8] {
        var prefix: [UInt8] = []
        if block.quoteListDepths.isEmpty && count == nil {
            // The usual order: the quotes, then the items' indentation.
            for _ in 0..<block.quoteDepth { prefix.append(contentsOf: "> ".utf8) }
            let indentation = itemIndents.prefix(block.depth).reduce(0, +)
            prefix.append(contentsOf: repeatElement(0x20, count: indentation))
            return prefix
        }
        for container in block.containers.prefix(count ?? Int.max) {
            switch container {
            case .quote: prefix.append(contentsOf: "> ".utf8)
            case .listItem(let depth): prefix.append(contentsOf: repeatElement(0x20, count: depth < itemIndents.count ? itemIndents[depth] : 2))
            }
        }
        return prefix
    }

    /// The block's lines, without container prefixes.
    private mutating func content(of block: Block, index: Int, isItem: Bool) -> MarkdownLines {
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
        var html = written.value
        if html.last == 0x0A { html.removeLast() }
        return MarkdownLines(html, omittingEmpty: !keepingEmptyLines)
    }

    /// A whole table or definition list as one HTML block, which the reader maps back to its
    /// blocks (a `<table>` or `<dl>` block of CommonMark ends only at a blank line, and the
    /// writer writes none inside it); a table as a pipe table where GFM can have one.
    private mutating func groupBlock(_ rows: ArraySlice<Block>, index: Int) -> MarkdownLines {
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
