@_spi(InlineTraversal) import MarkbridgeIR

/// The HTML writer: one loop over the document's ``Document/blockEvents``, the public walk a
/// service's own renderer uses, with one `switch`. The events say where each quote, list, item,
/// table and definition list begins and ends, so the tags nest as every reader reads them back
/// and this writer keeps no container stack of its own. One value owns the output, so
/// appending never copies it.
struct HTMLBlockEmitter {
    /// The output as UTF-8.
    var out: [UInt8] = []
    var inline: HTMLInlineRenderer
    /// The number the next item of each open list would show without a `value`.
    private var nextNumbers: [Int] = []
    private let urlPolicy: URLPolicy
    /// For each block, whether it is an item of a loose list (see ``Swift/Array/itemsOfLooseLists()``),
    /// whose text is a paragraph in its item, as CommonMark's reference renderer writes it.
    var looseItems: [Bool] = []
    /// Where the output of the block or row being written began, for its C1 report.
    private var blockStart = 0
    /// The cells of the row being written, each as a paragraph of its own.
    private var rowCells: [Block] = []
    /// The blocks being written, which the events index.
    private var blocks: [Block] = []

    init(urlPolicy: URLPolicy) {
        self.urlPolicy = urlPolicy
        inline = HTMLInlineRenderer(urlPolicy: urlPolicy)
    }

    private mutating func emit(_ piece: String) {
        out.append(contentsOf: piece.utf8)
    }

    /// Writes the blocks, stopping early at the conversion's deadline (the writer then throws
    /// and returns nothing).
    mutating func write(_ blocks: [Block], events: BlockEvents) {
        self.blocks = blocks
        defer { self.blocks = [] }
        var countdown = DeadlineCountdown(every: 64)
        for event in events {
            switch event {
            case .enter(let node):
                if Self.isStep(node), countdown.shouldStop() { return }
                enter(node)
            case .exit(let node):
                exit(node)
            }
        }
    }

    /// Whether the deadline is looked at before the node: before each block shown with its
    /// text and each table row, as the writer's work goes.
    private static func isStep(_ node: BlockNode) -> Bool {
        switch node {
        case .block, .tableRow: true
        case .quote, .unorderedList, .orderedList, .listItem, .table, .tableCell, .definitionList: false
        }
    }

    private mutating func enter(_ node: BlockNode) {
        switch node {
        case .quote: emit("<blockquote>\n")
        case .unorderedList:
            emit("<ul>\n")
            nextNumbers.append(1)
        case .orderedList(let start):
            emit(start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n")
            nextNumbers.append(start)
        case .listItem(let index):
            // An item no block opens is no writable document's (``ItemDepthWalk``); the
            // events still give one for a document built by hand.
            guard let index else {
                emit("<li>")
                return
            }
            let block = blocks[index]
            var attributes = HTMLWriter.anchorAttribute(for: block) + HTMLWriter.style(for: block)
            if case .orderedListItem(let number) = block.kind, !nextNumbers.isEmpty {
                if number != nextNumbers[nextNumbers.count - 1] { attributes += " value=\"\(number)\"" }
                // In ListNumber.range (readers keep it there, and the writer checks any other
                // document), so `+ 1` cannot overflow.
                nextNumbers[nextNumbers.count - 1] = number + 1
            }
            emit("<li\(attributes)>")
        case .table: emit("<table>\n")
        case .tableRow(let index):
            blockStart = out.count
            rowCells = blocks[index].cellParagraphs
            emit("<tr\(HTMLWriter.anchorAttribute(for: blocks[index]))>")
        case .tableCell(let index, let cell):
            let attributes = blocks[index].tableCells[cell]
            let paragraph = rowCells[cell]
            var tag = attributes.isHeader ? "<th" : "<td"
            if attributes.columnSpan != 1 { tag += " colspan=\"\(attributes.columnSpan)\"" }
            if attributes.rowSpan != 1 { tag += " rowspan=\"\(attributes.rowSpan)\"" }
            emit(tag + HTMLWriter.style(for: paragraph) + ">")
            if !paragraph.text.isEmpty { inline.render(paragraph, blockIndex: index, preformatted: false, into: &out) }
            // A line break that ends the cell: one more, as the reader drops the last.
            if paragraph.text.hasSuffix("\n") { emit("<br>") }
        case .definitionList: emit("<dl>\n")
        case .block(let index):
            blockStart = out.count
            writeBlock(blocks[index], index: index)
            reportReplacedControls(since: blockStart, block: index)
        }
    }

    private mutating func exit(_ node: BlockNode) {
        switch node {
        case .quote: emit("</blockquote>\n")
        case .unorderedList:
            emit("</ul>\n")
            nextNumbers.removeLast()
        case .orderedList:
            emit("</ol>\n")
            nextNumbers.removeLast()
        case .listItem: emit("</li>\n")
        case .table: emit("</table>\n")
        case .tableRow(let index):
            emit("</tr>\n")
            reportReplacedControls(since: blockStart, block: index)
        case .tableCell(let index, let cell): emit(blocks[index].tableCells[cell].isHeader ? "</th>" : "</td>")
        case .definitionList: emit("</dl>\n")
        case .block: break
        }
    }

    /// Controls the written HTML cannot give back, said once a block each: NUL, which HTML has
    /// no way to write (a raw one, or `&#0;`, reads as U+FFFD), is written as `&#xFFFD;`; C1
    /// controls are written as references, as nothing raw may reach a terminal, but HTML reads
    /// all but five of those as Windows-1252 characters (`&#x80;` is `€`), as browsers do, and
    /// no spelling reads back as the control.
    private mutating func reportReplacedControls(since start: Int, block index: Int) {
        guard out[start...].contains(UInt8(ascii: "&")) else { return }
        // Every `&` the text and attributes hold is written `&amp;`: this reference is the writer's.
        let nulCount = HTMLEscaping.occurrences(of: "&#xFFFD;", in: out[start...])
        if nulCount > 0 {
            inline.diagnostics.append(.warning("control-character-replaced", "block \(index): \(nulCount) NUL character\(nulCount == 1 ? "" : "s") (U+0000) written as U+FFFD: HTML cannot hold one", block: index))
        }
        let changed = HTMLEscaping.c1ReferencesReadOtherwise(in: out[start...])
        guard let first = changed.first else { return }
        func name(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        inline.diagnostics.append(.warning("control-character-replaced", "block \(index): \(changed.count) C1 control character\(changed.count == 1 ? "" : "s") written as references, which HTML reads as Windows-1252 characters (\(name(first.control)) as \(name(first.readAs)))", block: index))
    }

    /// The block's own element and text. A list item's `<li>` is its node's, entered before:
    /// here is only the text in it.
    private mutating func writeBlock(_ block: Block, index: Int) {
        let style = HTMLWriter.anchorAttribute(for: block) + HTMLWriter.style(for: block)
        switch block.kind {
        case .paragraph, .blockquote:
            emit("<p\(style)>")
            writeInline(block, index: index)
            emit("</p>\n")
        case .definitionTerm(let continues), .definitionDescription(let continues):
            let name = block.kind.tag == .definitionTerm ? "dt" : "dd"
            // A term or definition of several paragraphs is one element, each paragraph a
            // `<p>` in it with its own attributes (on the element they would hold for all).
            let goesOn = index + 1 < blocks.count && blocks[index + 1].continuesDefinition(after: block)
            if continues || goesOn {
                if !continues { emit("<\(name)>\n") }
                emit("<p\(style)>")
                writeInline(block, index: index)
                emit("</p>\n")
            } else {
                emit("<\(name)\(style)>")
                writeInline(block, index: index)
            }
            if !goesOn { emit("</\(name)>\n") }
        case .heading(let level):
            emit("<h\(level)\(style)>")
            // An empty heading is written empty: the reader keeps it as it is.
            if !block.text.isEmpty { writeInline(block, index: index) }
            emit("</h\(level)>\n")
        case .unorderedListItem, .orderedListItem:
            guard !block.text.isEmpty || block.taskState != nil else { break }
            let isLoose = index < looseItems.count && looseItems[index]
            if isLoose { emit("\n<p>") }
            // A task as GitHub renders one: a disabled checkbox, then the item's text.
            switch block.taskState {
            case .unchecked: emit(block.text.isEmpty ? "<input type=\"checkbox\" disabled>" : "<input type=\"checkbox\" disabled> ")
            case .checked: emit(block.text.isEmpty ? "<input type=\"checkbox\" checked disabled>" : "<input type=\"checkbox\" checked disabled> ")
            case nil: break
            }
            if !block.text.isEmpty { inline.render(block, blockIndex: index, preformatted: false, into: &out) }
            // A line break that ends an item: one more, as the reader drops the last.
            if block.text.hasSuffix("\n") { emit("<br>") }
            if isLoose { emit("</p>\n") }
        case .codeBlock(let language):
            let attribute = language.map { " class=\"language-\(HTMLEscaping.attribute($0))\"" } ?? ""
            emit("<pre\(style)><code\(attribute)>")
            // The reader drops a newline that ends the block (the parser drops one right after
            // `<pre>`, but `<code>` comes between).
            inline.render(block, blockIndex: index, preformatted: true, into: &out)
            if block.text.hasSuffix("\n") { emit("\n") }
            emit("</code></pre>\n")
        case .image(var image):
            switch urlPolicy.check(image.src, for: .image) {
            case .rejected(let reason):
                inline.diagnostics.append(.warning("unsafe-url", "image block \(index) not written: \(reason)", block: index))
                return
            case .allowed(let cleaned), .linkOnly(let cleaned, _):
                image.src = cleaned
            }
            if block.text.isEmpty {
                emit("<p\(style)>\(inline.imageTag(image))</p>\n")
            } else {
                emit("<figure\(style)>\(inline.imageTag(image))<figcaption>")
                inline.render(block, blockIndex: index, preformatted: false, into: &out)
                emit("</figcaption></figure>\n")
            }
        case .embed(var embed):
            switch urlPolicy.check(embed.src, for: .embed(embed.kind)) {
            case .allowed(let cleaned):
                // The spelling the policy checked (edge whitespace and inner line breaks gone,
                // as browsers drop them), not the one the IR was given.
                embed.src = cleaned
            case .linkOnly(let source, let reason):
                inline.diagnostics.append(.warning("embed-host-refused", "\(embed.kind.rawValue) in block \(index) not embedded: \(reason); written as a link to its source", block: index))
                writeBlock(block.embedWrittenAsLink(to: source, title: embed.title), index: index)
                return
            case .rejected(let reason):
                inline.diagnostics.append(.warning("unsafe-url", "embed source in block \(index) not written: \(reason); its text kept as a paragraph", block: index))
                var text = block
                text.kind = .paragraph
                writeBlock(text, index: index)
                return
            }
            // Always in a figure: the element alone on a line is no HTML block in Markdown, and
            // the text (caption or fallback) is shown as a caption, as browsers no longer show
            // fallback content.
            emit("<figure\(style)>\(embedTag(embed, index: index))")
            if !block.text.isEmpty {
                emit("<figcaption>")
                inline.render(block, blockIndex: index, preformatted: false, into: &out)
                emit("</figcaption>")
            }
            emit("</figure>\n")
        case .tableRow:
            // Written through its row and cell nodes, never entered as a block.
            break
        case .tableCaption:
            emit("<caption\(style)>")
            writeInline(block, index: index)
            emit("</caption>\n")
        case .horizontalRule:
            emit("<hr\(HTMLWriter.anchorAttribute(for: block))>\n")
        }
    }

    /// The element for an embed. Whatever it shows, embedded content must never run script
    /// with this page's origin: a frame may run script (a player needs to) but gets no
    /// `allow-same-origin`, so its page has an opaque origin of its own even when served from
    /// this site, and it cannot navigate this page or submit forms. An object (`<object>`,
    /// `<embed>`, which cannot be sandboxed) is written as a frame with nothing allowed at
    /// all: no script, no plugins, no popups; the HTML reader reads such a frame back as an
    /// object. No referrer is sent, and frames load lazily. Video and audio run no script.
    private mutating func embedTag(_ embed: Embed, index: Int) -> String {
        var attributes = ""
        let source = HTMLEscaping.attribute(embed.src)
        if let width = embed.width { attributes += " width=\"\(width)\"" }
        if let height = embed.height { attributes += " height=\"\(height)\"" }
        if let title = embed.title { attributes += " title=\"\(HTMLEscaping.attribute(title))\"" }
        switch embed.kind {
        case .iframe:
            return "<iframe src=\"\(source)\"\(attributes) sandbox=\"allow-scripts allow-popups allow-presentation\" "
                + "allowfullscreen loading=\"lazy\" referrerpolicy=\"no-referrer\"></iframe>"
        case .video:
            if let poster = embed.poster {
                if case .allowed(let checked) = urlPolicy.check(poster, for: .image) {
                    attributes += " poster=\"\(HTMLEscaping.attribute(checked))\""
                } else {
                    inline.diagnostics.append(.warning("unsafe-url", "video poster in block \(index) not written", block: index))
                }
            }
            return "<video src=\"\(source)\"\(attributes) controls preload=\"metadata\"></video>"
        case .audio:
            return "<audio src=\"\(source)\"\(attributes) controls preload=\"metadata\"></audio>"
        case .object:
            return "<iframe src=\"\(source)\"\(attributes) sandbox=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\"></iframe>"
        }
    }

    /// Paragraph-like content: an empty block is an intentional blank line, written as a lone
    /// `<br>`; a line break that ends the text gets one more `<br>`, since the reader (like a
    /// browser) does not count the last one.
    private mutating func writeInline(_ block: Block, index: Int) {
        if block.text.isEmpty {
            emit("<br>")
            return
        }
        inline.render(block, blockIndex: index, preformatted: false, into: &out)
        if block.text.hasSuffix("\n") { emit("<br>") }
    }
}
