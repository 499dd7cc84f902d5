@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// Reads CommonMark into the IR, with cmark parsing (safe by default) and its iterator feeding
/// the shared ``DocumentBuilder``. HTML blocks go through the HTML reader; inline HTML tags are
/// paired and become markups through the HTML reader's rule table; anything else is reported.
///
/// GitHub Flavored Markdown (``MarkdownWriter/Dialect/gfm``) is read the same way by cmark-gfm
/// with its table, strikethrough, autolink and tasklist extensions, loaded at run time (see
/// ``GFMLibrary``): the same walker, the same guards, and pipe tables, `~~strike~~`, bare URLs
/// and task list items besides. Where cmark-gfm is not installed, reading GFM fails with
/// `gfm-unavailable`, naming the package to install.
public struct MarkdownReader: DocumentReader {
    /// The Markdown read: the writer's dialects.
    public typealias Dialect = MarkdownWriter.Dialect

    public struct Options: Hashable, Sendable {
        public var urlPolicy: URLPolicy
        public var maxInputBytes: Int
        /// For HTML blocks and inline HTML: relative URLs are resolved against this absolute URL,
        /// elements without a rule are unwrapped or dropped, nesting past `maxHTMLDepth` is
        /// flattened, as the HTML reader does with the same options.
        public var baseURL: String?
        public var unknownElements: HTMLReader.UnknownElementPolicy
        public var maxHTMLDepth: Int
        public var dialect: Dialect

        public init(urlPolicy: URLPolicy = .default, maxInputBytes: Int = IRLimits.defaultMaxInputBytes, baseURL: String? = nil,
                    unknownElements: HTMLReader.UnknownElementPolicy = .unwrap, maxHTMLDepth: Int = 512,
                    dialect: Dialect = .commonMark) {
            self.urlPolicy = urlPolicy
            self.maxInputBytes = maxInputBytes
            self.baseURL = baseURL
            self.unknownElements = unknownElements
            self.maxHTMLDepth = maxHTMLDepth
            self.dialect = dialect
        }

        /// The HTML reader's options for the HTML inside.
        var embeddedHTML: HTMLReader.Options {
            HTMLReader.Options(urlPolicy: urlPolicy, baseURL: baseURL, unknownElements: unknownElements,
                               parser: .init(maxDepth: maxHTMLDepth))
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    public func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        switch options.dialect {
        case .commonMark: return try read(bytes, engine: CommonMarkEngine())
        case .gfm:
            let engine = GFMEngine(library: try Self.gfmLibrary())
            // Input over the size limit is refused as it came.
            guard bytes.count <= options.maxInputBytes, let (defused, reports) = GFMTableGuard.defuse(bytes) else { return try read(bytes, engine: engine) }
            var read = try read(defused, engine: engine)
            read.diagnostics.insert(contentsOf: reports, at: 0)
            return read
        }
    }

    /// cmark-gfm, or the error that says what to install.
    static func gfmLibrary(_ loaded: Result<GFMLibrary, GFMUnavailable> = GFMLibrary.shared) throws(ConversionError) -> GFMLibrary {
        switch loaded {
        case .success(let library): return library
        case .failure(let reason):
            throw ConversionError(code: "gfm-unavailable", message: "reading GitHub Flavored Markdown needs cmark-gfm's libraries, which could not be loaded (\(reason.detail)); install them with apt-get install \(GFMUnavailable.package)")
        }
    }

    /// cmark-gfm's version where it loads, for reports.
    public static var gfmVersion: String? {
        try? gfmLibrary().version
    }

    private func read(_ bytes: [UInt8], engine: some CmarkEngine) throws(ConversionError) -> Diagnosed<Document> {
        guard bytes.count <= options.maxInputBytes else {
            throw ConversionError(code: "input-too-large", message: "input is \(bytes.count) bytes, over the limit of \(options.maxInputBytes)")
        }
        try EncodingSniffing.refuseWideEncodings(bytes)
        if let bad = UTF8Validation.firstInvalidOffset(bytes) {
            throw ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte \(bad)", at: SourceLocation(byteOffset: bad, in: bytes))
        }
        var tagCache = InlineTagCache()
        guard let (clamped, clamp) = MarkdownDepthClamp.clamp(bytes) else {
            try MarkdownComplexityGuard.check(bytes)
            let read = readChecked(bytes, engine: engine, tagCache: &tagCache)
            // The walk, or an HTML block's read inside it, stops at the deadline or on
            // cancellation: what it built is then cut short, and never returned.
            try ConversionDeadline.check()
            return read
        }
        do {
            try MarkdownComplexityGuard.check(clamped)
        } catch {
            throw ConversionError(code: error.code, message: error.message, at: error.location.map(clamp.original))
        }
        var read = readChecked(clamped, engine: engine, tagCache: &tagCache, depthClamp: clamp)
        try ConversionDeadline.check()
        read.diagnostics.insert(clamp.diagnostic, at: 0)
        return read
    }

    /// Inline HTML tags already interpreted, by their source text.
    typealias InlineTagCache = [String: (HTMLInlineTag, [String])]

    /// A read of input known to be valid UTF-8 and of none of the shapes the complexity guard
    /// refuses, sharing its interpreted tags with other reads: the writer reads back many small
    /// pieces of its own inline output (no containers, no stray `![`) with the same few tags.
    /// cmark parses `pieceBytes` or more at a time (see ``MarkdownPieces``): tests give less.
    func readChecked(_ bytes: [UInt8], engine: some CmarkEngine = CommonMarkEngine(), tagCache: inout InlineTagCache,
                     pieceBytes: Int = CmarkLibrary.defaultPieceBytes, depthClamp: MarkdownDepthClamp? = nil) -> Diagnosed<Document> {
        var walker = MarkdownWalker(options: options)
        walker.depthClamp = depthClamp
        // The clamp reports the nesting past the limit already, where it begins.
        walker.reportedDepthLimit = depthClamp != nil
        walker.tagCache = tagCache
        tagCache = [:]
        CmarkLibrary.walk(bytes, engine: engine, pieceBytes: pieceBytes) { walker.visit($0) }
        tagCache = walker.tagCache
        return Diagnosed(walker.finish(), diagnostics: walker.diagnostics)
    }
}

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

    mutating func visit(_ event: CmarkLibrary.Event) {
        if imageDepth > 0, !event.kind.isImage {
            collectAlt(event)
            return
        }
        if dropsAsElementContent(event) { return }
        if dropsSpaceAfterBox {
            dropsSpaceAfterBox = false
            if case .text = event.kind, event.literal.first == " " {
                var shortened = event
                shortened.literal.removeFirst()
                if !shortened.literal.isEmpty { visit(shortened) }
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
            var literal = event.literal
            if literal.hasSuffix("\n") { literal.removeLast() }
            builder.append(literal)
            builder.endBlock(keepingIfEmpty: true)
        case .thematicBreak:
            builder.flushPendingItem(in: &context)
            builder.startBlock(.horizontalRule, in: &context)
            builder.endBlock(keepingIfEmpty: true)
        case .htmlBlock:
            htmlBlock(event)
        case .text:
            // A line feed in text can only come from a character reference (`&#10;`): in a
            // browser it is whitespace, not a line break, and so it is here.
            let literal = event.literal
            if ByteScan.firstIndex(of: 0x0A, in: literal.utf8.span) != nil {
                for (index, piece) in event.literal.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if index > 0 { builder.appendCollapsibleSpace() }
                    if !piece.isEmpty { builder.append(String(piece)) }
                }
            } else {
                builder.append(event.literal)
            }
        case .softBreak:
            // The rule the HTML reader applies to a newline in running text: a collapsible space.
            builder.appendCollapsibleSpace()
        case .lineBreak:
            builder.appendLineBreak()
        case .code:
            let handle = builder.openMarkup(.code)
            builder.append(event.literal)
            builder.closeMarkup(handle)
        case .htmlInline:
            inlineHTML(event)
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
    private mutating func collectAlt(_ event: CmarkLibrary.Event) {
        switch event.kind {
        case .text, .code: imageAlt? += event.literal
        case .softBreak, .lineBreak: imageAlt? += " "
        case .htmlInline where event.isEnter:
            // Alt text is plain text: a tag in it is not shown, and not kept.
            diagnose("inline-html", "inline HTML in an image's alt text dropped: \(event.literal)", event)
        default: break
        }
    }

    private mutating func htmlBlock(_ event: CmarkLibrary.Event) {
        // A checkbox alone on an item's first line is an HTML block to cmark: the box of an
        // empty task item, as the writers write one.
        if context.hasPendingItem, event.literal.utf8.count < 128, case .checkbox(let state) = interpretedTag(String(event.literal.trimmingSuffix(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }))).0 {
            context.markPendingItem(state)
            return
        }
        let read = HTMLReader(options: options.embeddedHTML).readEmbedded(event.literal, line: event.line)
        diagnostics += read.diagnostics
        for (offset, var block) in read.value.blocks.enumerated() {
            builder.endBlock(keepingIfEmpty: false)
            // The HTML block's containers begin with it (a second `<dl>` block is a list of its
            // own), and its starts keep their places among the containers around it.
            let innerCount = block.containerChainCount
            let innerStart = offset == 0 && innerCount > 0 ? 0 : block.containerStart
            let innerDepth = block.depth
            if block.kind == .paragraph, context.hasPendingItem {
                let next = context.nextBlock(.paragraph)
                block.kind = next.kind
                block.depth = next.depth
                block.taskState = next.taskState
            } else {
                builder.flushPendingItem(in: &context)
                block.depth += context.blockDepth
            }
            // The HTML's own quotes sit inside the items around the HTML block.
            let added = block.depth - innerDepth
            let inner = (0..<block.quoteDepth).map { block.quoteListDepth(ofQuote: $0) + added }
            block.quoteDepth = min(block.quoteDepth + context.quoteDepth, IRLimits.maxDepth)
            let depth = block.depth
            block.quoteListDepths = (context.openQuoteListDepths.prefix(IRLimits.maxDepth) + inner).prefix(block.quoteDepth).map { min($0, depth) }
            var start = innerStart.map { $0 + block.containerChainCount - innerCount }
            if let outer = context.takeContainerStart(for: block) { start = min(start ?? outer, outer) }
            block.containerStart = start
            block.canonicalize()
            builder.appendFinishedBlock(block)
        }
    }

    /// Inline HTML tags come one at a time: a start tag opens markups, its end tag closes them.
    private mutating func inlineHTML(_ event: CmarkLibrary.Event) {
        // A comment shows nothing, and the writers put an empty one where GFM would otherwise
        // read an e-mail address as a link.
        if event.literal.hasPrefix("<!--") {
            diagnose("dropped-comment", "an HTML comment dropped", event, severity: .note)
            return
        }
        let (tag, messages) = interpretedTag(event.literal)
        for message in messages { diagnose("inline-html", message, event) }
        switch tag {
        case .open(let name, let kinds):
            let href = kinds.lazy.compactMap { if case .link(let target) = $0 { target.href } else { nil } }.first
            htmlTags.append((name, kinds.map { builder.openMarkup($0) }, builder.textMark, nil, href))
        case .abbreviation(let name, let kinds, let title):
            htmlTags.append((name, kinds.map { builder.openMarkup($0) }, builder.textMark, title, nil))
        case .close(let name):
            guard let index = htmlTags.lastIndex(where: { $0.name == name }) else {
                diagnose("inline-html", "end tag </\(name)> with no start tag dropped", event)
                return
            }
            for entry in htmlTags[index...].reversed() { close(entry, event) }
            htmlTags.removeSubrange(index...)
        case .lineBreak:
            builder.appendLineBreak()
        case .image(let image):
            builder.appendImage(image)
        case .anchor(let name, let id):
            htmlTags.append((name, [], builder.textMark, nil, nil))
            if !builder.anchorBlock(id) {
                diagnose("anchor-dropped", "anchor \(id.debugDescription) dropped: only one at the start of a block has a place (an id for in-page links)", event)
            }
        case .checkbox(let state):
            // The box GitHub renders, which the writers write where Markdown has no `[ ]`.
            guard builder.currentKind?.isListItem == true, builder.currentBlockIsEmpty, builder.currentTaskState == nil else {
                diagnose("form-control", "checkbox <input> not at the start of a list item dropped: only a task list item's box has a place", event)
                return
            }
            builder.updateCurrentBlock { $0.taskState = state }
            dropsSpaceAfterBox = true
        case .unsupported(let name):
            diagnose("inline-html", "inline HTML <\(name)> not supported; the tag dropped, the text around it kept", event)
        }
    }

    /// Ends an inline tag's markups; what it showed says what else its end means.
    private mutating func close(_ entry: (name: String, markups: [DocumentBuilder.OpenMarkup], mark: DocumentBuilder.TextMark, abbreviation: String?, href: String?),
                                _ event: CmarkLibrary.Event) {
        if let href = entry.href, builder.showsOnlyWhitespace(since: entry.mark) {
            diagnose("empty-link-dropped", "link with no text to \(href) dropped: it shows nothing to follow, and an empty range has no place in the IR", event)
        }
        for handle in entry.markups.reversed() { builder.closeMarkup(handle) }
        if let title = entry.abbreviation { writeExpansion(title, since: entry.mark, event) }
    }

    /// An `<abbr title>` closed: its expansion after its text, in parentheses, as the HTML
    /// reader writes it (see ``Abbreviation``), said; none where the title repeats the text.
    /// One left open is closed, and written, at its block's end.
    private mutating func writeExpansion(_ title: String, since mark: DocumentBuilder.TextMark, _ event: CmarkLibrary.Event) {
        guard let shown = builder.text(since: mark) else { return }
        guard let expansion = Abbreviation.expansion(title: title, shown: shown) else { return }
        guard builder.isInBlock, !shown.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else {
            diagnose("abbreviation-expanded", "title \(expansion.debugDescription) of an <abbr> that shows no text dropped: there is no text to write it after", event)
            return
        }
        builder.appendCollapsibleSpace()
        builder.append(Abbreviation.written(expansion))
        diagnose("abbreviation-expanded", "<abbr> title \(expansion.debugDescription) written after its text in parentheses: the IR has no place for an expansion shown on hover", event)
    }

    /// Tags repeat (every `<u>`, every `<span style="color:...">`): each distinct one is
    /// interpreted once per read.
    private mutating func interpretedTag(_ literal: String) -> (HTMLInlineTag, [String]) {
        if let known = tagCache[literal] { return known }
        var messages: [String] = []
        let tag = HTMLInlineTag.interpret(literal, urlPolicy: options.urlPolicy, baseURL: options.baseURL, diagnostics: &messages)
        // Bounded: a document of distinct tags (a unique link on every one) gains nothing from it.
        if tagCache.count < 4096 { tagCache[literal] = (tag, messages) }
        return (tag, messages)
    }

    private mutating func closeInlineHTML(_ event: CmarkLibrary.Event) {
        for entry in htmlTags.reversed() { close(entry, event) }
        htmlTags.removeAll()
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

extension StringProtocol {
    /// The string without the characters at its end that `drop` holds.
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}

extension CmarkLibrary.Event.Kind {
    var isImage: Bool {
        if case .image = self { return true }
        return false
    }
}
