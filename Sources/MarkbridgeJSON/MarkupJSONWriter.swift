@_spi(InlineTraversal) import MarkbridgeIR

/// Writes markup JSON, version 1, by hand over bytes (Foundation's `JSONEncoder` is 6-7x slower
/// on this shape). Keys come in a fixed order and default-valued fields are omitted, so the same
/// document always gives byte-identical output.
public struct MarkupJSONWriter: DocumentWriter {
    public struct Options: Hashable, Sendable {
        public var offsetUnit: OffsetUnit
        /// Two-space indented output, one key per line, for people; compact output is one line.
        public var prettyPrinted: Bool
        /// Links and images whose URL the policy rejects are dropped, with a diagnostic.
        public var urlPolicy: URLPolicy

        public init(offsetUnit: OffsetUnit = .utf16, prettyPrinted: Bool = false, urlPolicy: URLPolicy = .default) {
            self.offsetUnit = offsetUnit
            self.prettyPrinted = prettyPrinted
            self.urlPolicy = urlPolicy
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    /// The document as markup JSON; `invalid-document` when it is not one our reader reads
    /// back (see ``Document/checkWritable()``).
    public func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try document.checkWritable()
        var emitter = Emitter(options: options, capacity: Self.estimatedSize(of: document, prettyPrinted: options.prettyPrinted))
        emitter.document(document)
        // Stopped at the deadline or on cancellation: what was written is cut short, and never returned.
        try ConversionDeadline.check()
        emitter.output.byte(UInt8(ascii: "\n"))
        let diagnostics = emitter.diagnostics
        return Diagnosed(emitter.output.finish(), diagnostics: diagnostics)
    }

    /// What the output is expected to take (see ``Document/estimatedWrittenSize(perBlock:perMarkup:perCell:)``):
    /// pretty-printing takes about twice the space around the text.
    static func estimatedSize(of document: Document, prettyPrinted: Bool) -> Int {
        prettyPrinted ? document.estimatedWrittenSize(perBlock: 96, perMarkup: 112, perCell: 64)
            : document.estimatedWrittenSize(perBlock: 40, perMarkup: 48, perCell: 32)
    }
}

/// The writer's state: output, indentation and the diagnostics raised so far.
private struct Emitter: ~Copyable {
    let options: MarkupJSONWriter.Options
    var output: JSONOutput
    var diagnostics: [Diagnostic] = []
    private var indent = 0
    private var needsComma = false

    init(options: MarkupJSONWriter.Options, capacity: Int) {
        self.options = options
        self.output = JSONOutput(capacity: capacity)
    }

    mutating func document(_ document: Document) {
        openObject()
        key("version")
        output.integer(1)
        key("offsetUnit")
        output.string(options.offsetUnit.rawValue)
        key("paragraphs")
        openArray()
        // Each block is read where it lies, a field at a time: passing a block to a function
        // (from the array or a span alike) copies it, a retain and release of each of its
        // references, which perf put at 2% of Markdown -> JSON.
        let blocks = document.blocks.span
        var countdown = DeadlineCountdown(every: 64)
        for index in blocks.indices {
            if countdown.shouldStop() { break }
            element()
            block(in: blocks, at: index)
        }
        close(UInt8(ascii: "]"), empty: document.blocks.isEmpty)
        close(UInt8(ascii: "}"), empty: false)
    }

    private mutating func block(in blocks: Span<Block>, at index: Int) {
        // An embed whose source the policy refuses is its text, as a paragraph; one it may
        // only link to is that paragraph linked to it, as every writer writes it. Any other
        // block is written as it is, not copied.
        if case .embed(let embed) = blocks[index].kind {
            switch options.urlPolicy.check(embed.src, for: .embed(embed.kind)) {
            case .allowed: break
            case .linkOnly(let source, let reason):
                diagnostics.append(.warning("embed-host-refused", "\(embed.kind.rawValue) at /paragraphs/\(index) not embedded: \(reason); written as a paragraph linking to its source", block: index))
                let substitute = [blocks[index].embedWrittenAsLink(to: source, title: embed.title)]
                return fields(in: substitute.span, at: 0, index: index)
            case .rejected(let reason):
                diagnostics.append(.warning("unsafe-url", "embed source dropped from /paragraphs/\(index): \(reason); its text kept as a paragraph", block: index))
                var paragraph = blocks[index]
                paragraph.kind = .paragraph
                let substitute = [paragraph]
                return fields(in: substitute.span, at: 0, index: index)
            }
        }
        fields(in: blocks, at: index, index: index)
    }

    /// The fields of `blocks[position]`, which is block `index` of the document.
    private mutating func fields(in blocks: Span<Block>, at position: Int, index: Int) {
        openObject()
        key("type")
        if let tag = blocks[position].kind.tag {
            output.plainString(tag.rawValue)
        } else if case .heading(let level) = blocks[position].kind {
            output.string("H\(level)")
        }
        if !blocks[position].text.isEmpty {
            key("text")
            output.string(blocks[position].text)
        }
        if blocks[position].depth != 0 {
            key("depth")
            output.integer(blocks[position].depth)
        }
        if blocks[position].quoteDepth != (blocks[position].kind == .blockquote ? 1 : 0) {
            key("quoteDepth")
            output.integer(blocks[position].quoteDepth)
        }
        if !blocks[position].quoteListDepths.isEmpty {
            key("quoteListDepths")
            output.byte(UInt8(ascii: "["))
            for (index, value) in blocks[position].quoteListDepths.enumerated() {
                if index > 0 { output.byte(UInt8(ascii: ",")) }
                output.integer(value)
            }
            output.byte(UInt8(ascii: "]"))
        }
        if let start = blocks[position].containerStart {
            key("containerStart")
            output.integer(start)
        }
        switch blocks[position].kind {
        case .orderedListItem(let number):
            key("number")
            output.integer(number)
        case .codeBlock(let language?):
            key("language")
            output.string(language)
        case .image(let image):
            imageFields(image, block: index)
        case .embed(let embed):
            embedFields(embed, block: index)
        case .tableRow(let row):
            tableRowFields(row, text: blocks[position].text)
        case .definitionTerm(let continues), .definitionDescription(let continues):
            if continues {
                key("continues")
                output.raw("true")
            }
        case .paragraph, .heading, .blockquote, .codeBlock(nil), .unorderedListItem, .tableCaption, .horizontalRule:
            break
        }
        if let alignment = blocks[position].alignment {
            key("align")
            output.string(alignment.rawValue)
        }
        if let anchor = blocks[position].anchor {
            key("name")
            output.string(anchor)
        }
        if let task = blocks[position].taskState {
            key("task")
            output.string(task.rawValue)
        }
        // Only links and images can be refused: a block keeps its array unless one is, and a
        // new one is made only then (each is checked once, which reports it).
        var markups = blocks[position].markups
        if markups.contains(where: { $0.kind.url != nil }) {
            var kept: [Markup]?
            for offset in markups.indices {
                if keepsURL(of: markups[offset], blockIndex: index) {
                    kept?.append(markups[offset])
                } else if kept == nil {
                    kept = Array(markups[..<offset])
                }
            }
            if let kept { markups = kept }
        }
        if !markups.isEmpty {
            key("markups")
            openArray()
            let translator = options.offsetUnit == .utf16 ? nil : OffsetTranslator(
                text: blocks[position].text, offsets: markups.flatMap { [$0.range.start, $0.range.end] },
                from: .utf16, to: options.offsetUnit)
            for markup in markups {
                element()
                self.markup(markup, translator: translator)
            }
            close(UInt8(ascii: "]"), empty: false)
        }
        close(UInt8(ascii: "}"), empty: false)
    }

    private mutating func markup(_ markup: Markup, translator: OffsetTranslator?) {
        if options.prettyPrinted {
            openObject()
            key("type")
            output.raw(Self.quotedNames[markup.kind.canonicalRank])
            key("start")
        } else {
            // Markups are most of the output: compact output writes the fixed text before the
            // first number in one piece rather than six.
            output.raw(Self.compactOpenings[markup.kind.canonicalRank])
            indent += 1
        }
        output.integer(translator?[markup.range.start] ?? markup.range.start)
        if options.prettyPrinted { key("end") } else { output.raw(#","end":"#) }
        output.integer(translator?[markup.range.end] ?? markup.range.end)
        switch markup.kind {
        case .link(let target):
            key("href")
            output.string(target.href)
            if let title = target.title {
                key("title")
                output.string(title)
            }
        case .image(let image):
            imageFields(image, block: nil)
        case .color(let color), .background(let color):
            key("color")
            output.color(color)
        case .hashtag(let tag):
            key("tag")
            output.string(tag)
        case .mention(let name):
            key("name")
            output.string(name)
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight:
            break
        }
        close(UInt8(ascii: "}"), empty: false)
    }

    /// `{"type":"KIND","start":` for each markup kind, by rank, as the compact writer spells it.
    private static let compactOpenings: [[UInt8]] = MarkupKind.Tag.allCases.map { Array(#"{"type":"\#($0.name)","start":"#.utf8) }

    /// `"KIND"` for each markup kind, by rank.
    private static let quotedNames: [[UInt8]] = MarkupKind.Tag.allCases.map { Array(#""\#($0.name)""#.utf8) }

    /// `"src"`, then what is given of `"width"`, `"height"`, `"alt"`, `"title"`.
    private mutating func imageFields(_ image: ImageSource, block: Int?) {
        key("src")
        if let block, case .rejected(let reason) = options.urlPolicy.check(image.src, for: .image) {
            diagnostics.append(.warning("unsafe-url", "image source dropped from /paragraphs/\(block): \(reason)", block: block))
            output.string("")
        } else {
            output.string(image.src)
        }
        // The size right after the source, as an embed's.
        sizeFields(width: image.width, height: image.height)
        if let alt = image.alt {
            key("alt")
            output.string(alt)
        }
        if let title = image.title {
            key("title")
            output.string(title)
        }
    }

    /// What is given of `"width"` and `"height"`, an image's or an embed's.
    private mutating func sizeFields(width: Int?, height: Int?) {
        if let width {
            key("width")
            output.integer(width)
        }
        if let height {
            key("height")
            output.integer(height)
        }
    }

    /// `"embed"`, `"src"`, then what is given of `"poster"`, `"width"`, `"height"`, `"title"`.
    private mutating func embedFields(_ embed: Embed, block: Int) {
        key("embed")
        output.plainString(embed.kind.rawValue)
        key("src")
        output.string(embed.src)
        if let poster = embed.poster {
            if case .rejected(let reason) = options.urlPolicy.check(poster, for: .image) {
                diagnostics.append(.warning("unsafe-url", "embed poster dropped from /paragraphs/\(block): \(reason)", block: block))
            } else {
                key("poster")
                output.string(poster)
            }
        }
        sizeFields(width: embed.width, height: embed.height)
        if let title = embed.title {
            key("title")
            output.string(title)
        }
    }

    /// `"startsTable"` when it does, then `"cells"`: each cell's range in the output's unit, and
    /// what it has of `"header"`, `"colspan"`, `"rowspan"`, `"align"`.
    private mutating func tableRowFields(_ row: TableRow, text: String) {
        if row.startsTable {
            key("startsTable")
            output.raw("true")
        }
        key("cells")
        openArray()
        let translator = options.offsetUnit == .utf16 ? nil : OffsetTranslator(
            text: text, offsets: row.cells.flatMap { [$0.range.start, $0.range.end] }, from: .utf16, to: options.offsetUnit)
        for cell in row.cells {
            element()
            openObject()
            key("start")
            output.integer(translator?[cell.range.start] ?? cell.range.start)
            key("end")
            output.integer(translator?[cell.range.end] ?? cell.range.end)
            if cell.isHeader {
                key("header")
                output.raw("true")
            }
            if cell.columnSpan != 1 {
                key("colspan")
                output.integer(cell.columnSpan)
            }
            if cell.rowSpan != 1 {
                key("rowspan")
                output.integer(cell.rowSpan)
            }
            if let alignment = cell.alignment {
                key("align")
                output.string(alignment.rawValue)
            }
            close(UInt8(ascii: "}"), empty: false)
        }
        close(UInt8(ascii: "]"), empty: row.cells.isEmpty)
    }

    /// Inline links and images must pass the URL policy; a rejected one is dropped, text kept.
    private mutating func keepsURL(of markup: Markup, blockIndex: Int) -> Bool {
        guard let (url, use) = markup.kind.url, case .rejected(let reason) = options.urlPolicy.check(url, for: use) else { return true }
        diagnostics.append(.warning(
            "unsafe-url",
            "\(markup.kind.name) \(markup.range) dropped from /paragraphs/\(blockIndex): \(reason)", block: blockIndex))
        return false
    }

    // MARK: Layout

    private mutating func openObject() {
        output.byte(UInt8(ascii: "{"))
        indent += 1
        needsComma = false
    }

    private mutating func openArray() {
        output.byte(UInt8(ascii: "["))
        indent += 1
        needsComma = false
    }

    /// Starts an array element: a separator, then in pretty output a new line.
    private mutating func element() {
        if needsComma { output.byte(UInt8(ascii: ",")) }
        newline()
        needsComma = true
    }

    private mutating func key(_ name: StaticString) {
        element()
        output.byte(UInt8(ascii: "\""))
        output.raw(name)
        output.raw(options.prettyPrinted ? "\": " : "\":")
        needsComma = true
    }

    private mutating func close(_ bracket: UInt8, empty: Bool) {
        indent -= 1
        if !empty { newline() }
        output.byte(bracket)
        needsComma = true
    }

    private mutating func newline() {
        guard options.prettyPrinted else { return }
        output.byte(UInt8(ascii: "\n"))
        for _ in 0..<indent { output.raw("  ") }
    }
}
