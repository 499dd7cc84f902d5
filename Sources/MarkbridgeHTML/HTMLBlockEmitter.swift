@_spi(InlineTraversal) import MarkbridgeIR

/// The HTML writer's state: the output, the containers open around the current block (quotes,
/// lists, list items) and the numbering of open ordered lists. One value owns the output, so
/// appending never copies it.
struct HTMLBlockEmitter {
    /// An open container around blocks.
    enum Container: Equatable {
        case quote
        case list(ordered: Bool)
        case item
        case table
        case definitionList
    }

    /// The output as UTF-8.
    var out: [UInt8] = []
    var inline: HTMLInlineRenderer
    private var open: [Container] = []
    /// The number the next item of each open list would show without a `value`.
    private var nextNumbers: [Int] = []
    private let urlPolicy: URLPolicy
    /// For each block, whether it is an item of a loose list (see ``Swift/Array/itemsOfLooseLists()``),
    /// whose text is a paragraph in its item, as CommonMark's reference renderer writes it.
    var looseItems: [Bool] = []
    /// The block written before, whose caption may have begun the table of the next.
    private var previous: Block?

    init(urlPolicy: URLPolicy) {
        self.urlPolicy = urlPolicy
        inline = HTMLInlineRenderer(urlPolicy: urlPolicy)
    }

    private mutating func emit(_ piece: String) {
        out.append(contentsOf: piece.utf8)
    }

    mutating func close(to count: Int) {
        while open.count > count {
            switch open.removeLast() {
            case .quote: emit("</blockquote>\n")
            case .list(let ordered):
                emit(ordered ? "</ol>\n" : "</ul>\n")
                nextNumbers.removeLast()
            case .item: emit("</li>\n")
            case .table: emit("</table>\n")
            case .definitionList: emit("</dl>\n")
            }
        }
    }

    /// Closes and opens containers so the block sits where its containers say (see
    /// ``Block/containers``): a quote, or a list and an item for each level of depth; those
    /// from ``Block/containerStart`` on are new ones. `next` is the block after, if any.
    mutating func write(_ block: Block, index: Int, next: Block? = nil) {
        defer { previous = block }
        var target: [Container] = []
        target.reserveCapacity(block.quoteDepth + 2 * block.depth + 1)
        if block.quoteListDepths.isEmpty {
            // The usual order, without building the container list: quotes, then the lists.
            target.append(contentsOf: repeatElement(.quote, count: block.quoteDepth))
            for _ in 0..<block.depth { appendListLevel(to: &target) }
        } else {
            for container in block.containers {
                switch container {
                case .quote: target.append(.quote)
                case .listItem: appendListLevel(to: &target)
                }
            }
        }
        var itemNumber: Int?
        switch block.kind {
        case .unorderedListItem: target.append(.list(ordered: false))
        case .orderedListItem(let number):
            target.append(.list(ordered: true))
            // In ListNumber.range (the writer checked), so `+ 1` below cannot overflow.
            itemNumber = number
        case .tableRow, .tableCaption: target.append(.table)
        case .definitionTerm, .definitionDescription: target.append(.definitionList)
        case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .horizontalRule: break
        }
        var common = 0
        while common < open.count, common < target.count, open[common] == target[common] { common += 1 }
        // A row that starts a table ends the one open at its place, unless its caption began
        // it; a caption always begins its table.
        if case .tableRow(let row) = block.kind, row.startsTable, common == target.count, !(previous?.captions(block) ?? false) { common -= 1 }
        if block.kind == .tableCaption { common = min(common, target.count - 1) }
        // Containers that begin here are new elements, even where the same are open.
        if let start = block.containerStart { common = min(common, Self.position(ofContainer: start, in: block)) }
        let isBareQuote = block.standsForEmptyQuote(before: next) && common <= Self.position(ofContainer: block.containerChainCount - 1, in: block)
        close(to: common)
        for container in target[common...] {
            open.append(container)
            switch container {
            case .quote: emit("<blockquote>\n")
            case .list(let ordered):
                if ordered {
                    let start = itemNumber ?? 1
                    emit(start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n")
                    nextNumbers.append(start)
                } else {
                    emit("<ul>\n")
                    nextNumbers.append(1)
                }
            case .item: emit("<li>")
            case .table: emit("<table>\n")
            case .definitionList: emit("<dl>\n")
            }
        }
        // An empty quote is its quote alone: `<blockquote></blockquote>` reads back as this block.
        if isBareQuote { return }
        let start = out.count
        writeBlock(block, index: index, itemNumber: itemNumber, next: next)
        reportC1References(since: start, block: index)
    }

    /// Where the container at `index` of the block's ``Block/containerChain`` is in the
    /// emitter's stack: a list item takes two places (its list and itself).
    static func position(ofContainer index: Int, in block: Block) -> Int {
        var position = 0
        for link in block.containerChain.prefix(max(index, 0)) {
            if case .listItem = link { position += 2 } else { position += 1 }
        }
        return position
    }

    /// C1 controls are written as references, as nothing raw may reach a terminal; but HTML
    /// reads all but five of those references as Windows-1252 characters (`&#x80;` is `€`),
    /// as browsers do, and no spelling reads back as the control. Said, once a block.
    private mutating func reportC1References(since start: Int, block index: Int) {
        guard out[start...].contains(UInt8(ascii: "&")) else { return }
        let changed = HTMLEscaping.c1ReferencesReadOtherwise(in: out[start...])
        guard let first = changed.first else { return }
        func name(_ value: UInt32) -> String {
            let hex = String(value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        inline.diagnostics.append(.warning("control-character-replaced", "block \(index): \(changed.count) C1 control character\(changed.count == 1 ? "" : "s") written as references, which HTML reads as Windows-1252 characters (\(name(first.control)) as \(name(first.readAs)))", block: index))
    }

    /// A list and an item in it, the list ordered as the one open at that place, if any.
    private func appendListLevel(to target: inout [Container]) {
        let position = target.count
        if position < open.count, case .list(let ordered) = open[position] {
            target.append(.list(ordered: ordered))
        } else {
            target.append(.list(ordered: false))
        }
        target.append(.item)
    }

    private mutating func writeBlock(_ block: Block, index: Int, itemNumber: Int?, next: Block? = nil) {
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
            let goesOn = next?.continuesDefinition(after: block) ?? false
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
            var attributes = style
            if let number = itemNumber, let expected = nextNumbers.last, number != expected { attributes += " value=\"\(number)\"" }
            if let number = itemNumber, !nextNumbers.isEmpty { nextNumbers[nextNumbers.count - 1] = number + 1 }
            open.append(.item)
            emit("<li\(attributes)>")
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
                writeBlock(block.embedWrittenAsLink(to: source, title: embed.title), index: index, itemNumber: nil)
                return
            case .rejected(let reason):
                inline.diagnostics.append(.warning("unsafe-url", "embed source in block \(index) not written: \(reason); its text kept as a paragraph", block: index))
                var text = block
                text.kind = .paragraph
                writeBlock(text, index: index, itemNumber: nil)
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
            emit("<tr\(HTMLWriter.anchorAttribute(for: block))>")
            for (cell, paragraph) in zip(block.tableCells, block.cellParagraphs) {
                let name = cell.isHeader ? "th" : "td"
                var attributes = ""
                if cell.columnSpan != 1 { attributes += " colspan=\"\(cell.columnSpan)\"" }
                if cell.rowSpan != 1 { attributes += " rowspan=\"\(cell.rowSpan)\"" }
                emit("<\(name)\(attributes)\(HTMLWriter.style(for: paragraph))>")
                if !paragraph.text.isEmpty { inline.render(paragraph, blockIndex: index, preformatted: false, into: &out) }
                // A line break that ends the cell: one more, as the reader drops the last.
                if paragraph.text.hasSuffix("\n") { emit("<br>") }
                emit("</\(name)>")
            }
            emit("</tr>\n")
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
