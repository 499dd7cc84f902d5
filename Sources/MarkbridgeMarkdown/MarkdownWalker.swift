@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// The state of one read: cmark events in, builder calls out.
struct MarkdownWalker {
    let options: MarkdownReader.Options
    var builder = DocumentBuilder()
    var context = NestingContext()
    var diagnostics: [Diagnostic] = []
    var headingLevel: Int?
    /// Markups opened by cmark nodes (emphasis, links), closed on their exit.
    var nodeMarkups: [[DocumentBuilder.OpenMarkup]] = []
    /// For each open link node, where its text began and where it points (nil when refused).
    var linkMarks: [(mark: DocumentBuilder.TextMark, href: String)?] = []
    /// Inline HTML tags opened and not yet closed, by name.
    /// Each with where its text began: an `<abbr title>`'s title (see `writeExpansion`), and a
    /// link's destination, to tell one around no text.
    var htmlTags: [(name: String, markups: [DocumentBuilder.OpenMarkup], mark: DocumentBuilder.TextMark, abbreviation: String?, href: String?)] = []
    /// While inside an image node: its alt text so far.
    var imageAlt: String?
    var imageDepth = 0
    /// Whether nesting past the IR's depth has been reported (once a document).
    var reportedDepthLimit = false
    /// Lists cmark read as loose: the block their first item will be, and where they begin.
    var looseLists: [(firstBlock: Int, location: SourceLocation?)] = []
    var tagCache = MarkdownReader.InlineTagCache()
    /// A script or style opened by inline HTML: its content, until its end tag, is dropped.
    var droppingElement: String?
    /// Markers removed before cmark read the input: diagnostics name the input's own columns.
    var depthClamp: MarkdownDepthClamp?
    /// The GFM table being read: each column's alignment, whether its next row begins it, and
    /// the row being read: whether it is the header, and how many of its cells have begun.
    var tableAlignments: [TextAlignment?] = []
    var rowStartsTable = false
    var rowIsHeader = false
    var cellIndex = 0
    /// A task's checkbox was just read as inline HTML: a space after it separates, as in
    /// GitHub's rendering, and is not the item's text.
    var dropsSpaceAfterBox = false

    init(options: MarkdownReader.Options) {
        self.options = options
    }

    /// Reads one event; `literal` is its node's text, code or HTML (see ``CmarkLibrary/walk(_:pieceBytes:_:)``).
    mutating func visit(_ event: CmarkLibrary.Event, literal: Span<UInt8>) {
        if imageDepth > 0, !event.kind.isImage {
            collectAlt(event, literal: literal)
            return
        }
        if dropsAsElementContent(event, literal: literal) { return }
        if dropsSpaceAfterBox {
            dropsSpaceAfterBox = false
            // The space by its byte: one that a combining mark follows is one character with it.
            if case .text = event.kind, !literal.isEmpty, literal[0] == UInt8(ascii: " ") {
                if literal.count > 1 { visit(event, literal: literal.extracting(1...)) }
                return
            }
        }
        switch event.kind {
        case .document, .custom:
            break
        case .blockQuote:
            if event.isEnter {
                builder.flushPendingItem(in: &context)
                context.enterQuote()
                noteDepthLimit(event)
            } else {
                closeInlineHTML(event)
                // `>` alone is a quote with nothing in it: an empty BQ block stands for it.
                builder.addBlockForEmptyQuote(in: &context)
                context.leaveQuote()
            }
        case .list(let ordered, let start, _, let tight):
            if event.isEnter {
                builder.flushPendingItem(in: &context)
                if !tight { looseLists.append((builder.finishedBlockCount, location(of: event))) }
                context.enterList(ordered: ordered, start: start)
                noteDepthLimit(event)
            } else {
                context.leaveList()
            }
        case .item(let task):
            if event.isEnter {
                // cmark reads at most nine digits, so only the items after 999,999,999 clamp.
                if let clamped = context.enterItem() { diagnose("list-number-clamped", ListNumber.clampingMessage(first: "\(clamped)"), event) }
                // The item's own block, whatever comes first in it, carries the state.
                if let task { context.markPendingItem(task) }
            } else {
                builder.flushPendingItem(in: &context)
                context.leaveItem()
            }
        case .paragraph:
            if event.isEnter {
                builder.startBlock(.paragraph, in: &context)
            } else {
                closeInlineHTML(event)
                builder.endBlock(keepingIfEmpty: false)
            }
        case .heading(let level):
            if event.isEnter {
                builder.flushPendingItem(in: &context)
                builder.startBlock(.heading(level: level), in: &context)
            } else {
                closeInlineHTML(event)
                builder.endBlock(keepingIfEmpty: true)
            }
        case .codeBlock(let info):
            builder.flushPendingItem(in: &context)
            let language = CodeLanguage.normalized(info)
            if let language, language != info {
                diagnose("info-string-truncated", "code block info string \(info.debugDescription) kept as its first word, \(language.debugDescription)", event)
            }
            builder.startBlock(.codeBlock(language: language), in: &context)
            let end = literal.count > 0 && literal[literal.count - 1] == 0x0A ? literal.count - 1 : literal.count
            if end > 0 { builder.appendUTF8(literal.extracting(..<end)) }
            builder.endBlock(keepingIfEmpty: true)
        case .thematicBreak:
            builder.flushPendingItem(in: &context)
            builder.startBlock(.horizontalRule, in: &context)
            builder.endBlock(keepingIfEmpty: true)
        case .htmlBlock:
            htmlBlock(event, html: CmarkLibrary.string(literal))
        case .text:
            // A line feed in text can only come from a character reference (`&#10;`): in a
            // browser it is whitespace, not a line break, and so it is here. Split at the byte,
            // not the `Character`: after `&#13;` the two are one "\r\n" character, which a
            // split on "\n" passes over, keeping a line break the writer never meant.
            var start = 0
            while let lineFeed = ByteScan.firstIndex(of: 0x0A, in: literal, from: start) {
                if lineFeed > start { builder.appendUTF8(literal.extracting(start..<lineFeed)) }
                builder.appendCollapsibleSpace()
                start = lineFeed + 1
            }
            if literal.count > start { builder.appendUTF8(literal.extracting(start...)) }
        case .softBreak:
            // The rule the HTML reader applies to a newline in running text: a collapsible space.
            builder.appendCollapsibleSpace()
        case .lineBreak:
            builder.appendLineBreak()
        case .code:
            let handle = builder.openMarkup(.code)
            builder.appendUTF8(literal)
            builder.closeMarkup(handle)
        case .htmlInline:
            inlineHTML(event, html: CmarkLibrary.string(literal))
        case .table(let alignments):
            if event.isEnter {
                builder.flushPendingItem(in: &context)
                tableAlignments = alignments
                rowStartsTable = true
            }
        case .tableRow(let isHeader):
            if event.isEnter {
                builder.startBlock(.tableRow(TableRow(cells: [], startsTable: rowStartsTable)), enclosedBy: &context)
                rowStartsTable = false
                rowIsHeader = isHeader
                cellIndex = 0
            } else {
                closeInlineHTML(event)
                builder.endBlock(keepingIfEmpty: true)
            }
        case .tableCell:
            if event.isEnter {
                builder.startCell(isHeader: rowIsHeader, alignment: cellIndex < tableAlignments.count ? tableAlignments[cellIndex] : nil)
                cellIndex += 1
            } else {
                // Inline HTML left open in a cell ends with it: markups stay inside one cell.
                closeInlineHTML(event)
                builder.endCell()
            }
        case .strikethrough:
            toggle(.strike, event)
        case .emphasis:
            toggle(.emphasis, event)
        case .strong:
            toggle(.strong, event)
        case .link(let url, let title):
            if event.isEnter {
                var markups: [DocumentBuilder.OpenMarkup] = []
                var mark: (DocumentBuilder.TextMark, String)?
                switch options.urlPolicy.check(url, for: .link) {
                // Only an embed's source is ever link-only.
                case .allowed(let checked), .linkOnly(let checked, _):
                    markups.append(builder.openMarkup(.link(LinkTarget(href: checked, title: title.isEmpty ? nil : title))))
                    mark = (builder.textMark, checked)
                    if let warning = URLPolicy.bidiWarning(checked, "link") { diagnose("bidi-in-url", warning, event) }
                case .rejected(let reason):
                    diagnose("unsafe-url", "link dropped, its text kept: \(reason)", event)
                }
                nodeMarkups.append(markups)
                linkMarks.append(mark)
            } else {
                if let link = linkMarks.popLast() ?? nil, builder.showsOnlyWhitespace(since: link.mark) {
                    // `[](url)`: nothing to follow, and no empty range in the IR to keep it in.
                    diagnose("empty-link-dropped", "link with no text to \(link.href) dropped: it shows nothing to follow, and an empty range has no place in the IR", event)
                }
                for handle in nodeMarkups.popLast() ?? [] { builder.closeMarkup(handle) }
            }
        case .image(let url, let title):
            if event.isEnter {
                // An image inside an image's description adds its own description to the alt text.
                imageDepth += 1
                if imageDepth == 1 { imageAlt = "" }
            } else if imageDepth > 1 {
                imageDepth -= 1
            } else {
                imageDepth = 0
                let alt = imageAlt ?? ""
                imageAlt = nil
                switch options.urlPolicy.check(url, for: .image) {
                case .allowed(let checked), .linkOnly(let checked, _):
                    builder.appendImage(ImageSource(src: checked, alt: alt.isEmpty ? nil : alt, title: title.isEmpty ? nil : title))
                    if let warning = URLPolicy.bidiWarning(checked, "image") { diagnose("bidi-in-url", warning, event) }
                case .rejected(let reason):
                    diagnose("unsafe-url", "image dropped, its alt text kept: \(reason)", event)
                    if !alt.isEmpty { builder.append(alt) }
                }
            }
        }
    }

    private mutating func toggle(_ kind: MarkupKind, _ event: CmarkLibrary.Event) {
        if event.isEnter {
            nodeMarkups.append([builder.openMarkup(kind)])
        } else {
            for handle in nodeMarkups.popLast() ?? [] { builder.closeMarkup(handle) }
        }
    }

    /// Text inside an image node is its alt text (formatting dropped, as CommonMark says).
    private mutating func collectAlt(_ event: CmarkLibrary.Event, literal: Span<UInt8>) {
        switch event.kind {
        case .text, .code: imageAlt? += CmarkLibrary.string(literal)
        case .softBreak, .lineBreak: imageAlt? += " "
        case .htmlInline where event.isEnter:
            // Alt text is plain text: a tag in it is not shown, and not kept.
            diagnose("inline-html", "inline HTML in an image's alt text dropped: \(CmarkLibrary.string(literal))", event)
        default: break
        }
    }

    /// Lists and quotes nested past the IR's depth, reported once, where it first happens.
    private mutating func noteDepthLimit(_ event: CmarkLibrary.Event) {
        guard context.isBeyondDepthLimit, !reportedDepthLimit else { return }
        reportedDepthLimit = true
        diagnose("depth-clamped", "lists and quotes nested deeper than \(IRLimits.maxDepth): what is inside is kept at depth \(IRLimits.maxDepth)", event)
    }

    mutating func diagnose(_ code: String, _ message: String, _ event: CmarkLibrary.Event, severity: Diagnostic.Severity = .warning) {
        diagnostics.append(Diagnostic(severity, code: code, message: message, at: location(of: event)))
    }

    private func location(of event: CmarkLibrary.Event) -> SourceLocation? {
        // cmark counts columns in bytes, from 1; soft breaks and some inlines report 0.
        let column = depthClamp?.originalColumn(line: event.line, column: max(event.column, 1)) ?? max(event.column, 1)
        return event.line > 0 ? SourceLocation(line: event.line, column: column, byteOffset: 0) : nil
    }

    /// A list loose only by the blank lines between its items has no place in the IR, which
    /// keeps looseness as CommonMark derives it from what an item holds (a further paragraph):
    /// every writer then shows it tight, its items without paragraph spacing. Said per list.
    private mutating func noteLooseListsReadTight(in document: Document) {
        let loose = document.blocks.itemsOfLooseLists()
        for list in looseLists where loose.indices.contains(list.firstBlock) && document.blocks[list.firstBlock].kind.isListItem && !loose[list.firstBlock] {
            diagnostics.append(.warning("list-spacing-dropped",
                "a loose list (blank lines between its items, block \(list.firstBlock) its first) read as tight: only an item holding a further paragraph keeps a list loose in the IR, so its items are written without paragraph spacing",
                at: list.location))
        }
    }

    mutating func finish() -> Document {
        builder.endBlock(keepingIfEmpty: false)
        let document = builder.finishPromotingLoneImages()
        if !looseLists.isEmpty { noteLooseListsReadTight(in: document) }
        if builder.depthsLowered > 0, let first = builder.firstLoweredBlock {
            let count = builder.depthsLowered
            diagnostics.append(.warning("depth-lowered", "\(count) block\(count == 1 ? "" : "s"), the first block \(first), nested deeper than the list items before \(count == 1 ? "it" : "them"): kept at the depth those items allow"))
        }
        return document
    }
}

extension CmarkLibrary.Event.Kind {
    var isImage: Bool {
        if case .image = self { return true }
        return false
    }
}
