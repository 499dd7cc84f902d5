@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The walker over a cmark engine's tree (``CmarkEngine``: the linked cmark or the loaded
/// cmark-gfm). The engine's C calls live in its own file, behind this boundary: nothing outside
/// them sees a C pointer, and every tree is freed with `defer` right after creation.
enum CmarkLibrary {
    /// The version of libcmark the binary is linked against, as cmark reports it ("0.30.2").
    static var version: String { CommonMarkEngine.version }

    /// One step of cmark's iterator, as Swift values.
    struct Event {
        enum Kind {
            case document, blockQuote, list(ordered: Bool, start: Int, parenthesis: Bool, tight: Bool), item(task: TaskState?), codeBlock(info: String)
            case htmlBlock, paragraph, heading(level: Int), thematicBreak
            case text, softBreak, lineBreak, code, htmlInline, emphasis, strong
            case link(url: String, title: String), image(url: String, title: String)
            /// GFM's extensions: a table with each column's alignment, a row, a cell, `~~`.
            case table(alignments: [TextAlignment?]), tableRow(isHeader: Bool), tableCell, strikethrough
            case custom

            /// Whether cmark holds a literal for such a node: its text, code or HTML.
            var hasLiteral: Bool {
                switch self {
                case .text, .code, .htmlInline, .htmlBlock, .codeBlock: true
                case .document, .blockQuote, .list, .item, .paragraph, .heading, .thematicBreak, .softBreak, .lineBreak,
                     .emphasis, .strong, .link, .image, .table, .tableRow, .tableCell, .strikethrough, .custom: false
                }
            }
        }

        var kind: Kind
        var isEnter: Bool
        var line: Int
        var column: Int
    }

    /// How long a piece ``walk(_:pieceBytes:_:)`` parses at a time, at least: cmark's tree of it
    /// takes about seven times as much, whatever the document's size. Small, so that the tree
    /// stays in cache while it is walked: 256 KiB pieces cost Markdown -> JSON of 50 MB of the
    /// repeated samples about a quarter more time than one parse of the whole (malloc's free
    /// lists and cache misses), 16 KiB pieces nothing (5.1 s, median of 5, at a 229 MB peak
    /// against 641 MB).
    static let defaultPieceBytes = 16 * 1024

    /// Parses `markdown` with cmark (safe mode: no raw HTML rendering; we read HTML ourselves)
    /// and reports every enter and exit event, in order. cmark's own iterator walks the tree, so
    /// nesting costs no Swift stack. The input is parsed in pieces of at least `pieceBytes`
    /// (see ``MarkdownPieces``), each tree freed before the next piece is parsed: the events are
    /// those of one parse of the whole, but for a document node entered and left at each cut,
    /// and their lines count from the start of the input. Each event comes with the literal of
    /// its node, as cmark's bytes, valid only during the call: the text of text, code, HTML and
    /// code block nodes, empty for the others. A reader appends text from them with no string
    /// made for each. Returns the number of pieces walked.
    @discardableResult
    static func walk(_ markdown: [UInt8], pieceBytes: Int = defaultPieceBytes, _ visit: (Event, _ literal: Span<UInt8>) -> Void) -> Int {
        walk(markdown, engine: CommonMarkEngine(), pieceBytes: pieceBytes, visit)
    }

    /// The same walk over `engine`'s tree.
    @discardableResult
    static func walk(_ markdown: [UInt8], engine: some CmarkEngine, pieceBytes: Int = defaultPieceBytes, _ visit: (Event, _ literal: Span<UInt8>) -> Void) -> Int {
        let bytes = markdown.span
        let cuts = markdown.count > pieceBytes && !MarkdownPieces.mayDefineLinkReference(bytes)
        var start = 0
        var lineOffset = 0
        var length = pieceBytes
        var pieces = 0
        // Stops between pieces and between events once the deadline passes or the task is
        // cancelled; the reader then throws (cmark's parse of one piece cannot be stopped).
        var countdown = DeadlineCountdown(every: 1024)
        while ConversionDeadline.stopReason() == nil {
            let end = cuts && length < markdown.count - start ? MarkdownPieces.cut(in: bytes, after: start + length) ?? markdown.count : markdown.count
            let lines = end < markdown.count ? MarkdownPieces.lineCount(bytes, in: start..<end) : 0
            let walked = unsafe parse(markdown, start..<end, engine) { root in
                // A fenced code block or HTML block open at the end of the piece would have gone
                // on past the cut: the piece is not walked, and a longer one parsed instead.
                if end < markdown.count, let last = unsafe engine.lastChild(root),
                   unsafe [.codeBlock, .htmlBlock].contains(engine.nodeType(last)),
                   unsafe engine.endLine(last) >= lines {
                    return false
                }
                unsafe walk(root, engine, lineOffset: lineOffset, countdown: &countdown, visit)
                return true
            }
            if walked { pieces += 1 }
            if end == markdown.count || countdown.reason != nil { return pieces }
            if walked {
                start = end
                lineOffset += lines
                length = pieceBytes
            } else {
                // Twice as long each time, so that a block open to the end costs at most two parses of the input.
                length = 2 * max(length, end - start)
            }
        }
        return pieces
    }

    /// The engine's tree of `markdown[range]`, handed to `body` and freed after it.
    private static func parse(_ markdown: [UInt8], _ range: Range<Int>, _ engine: some CmarkEngine, _ body: (OpaquePointer) -> Bool) -> Bool {
        unsafe markdown.withUnsafeBufferPointer { buffer in
            let root = unsafe buffer.baseAddress.map { base in
                unsafe (base + range.lowerBound).withMemoryRebound(to: CChar.self, capacity: range.count) {
                    unsafe engine.parse($0, count: range.count)
                }
            } ?? engine.parse("", count: 0)
            guard let root = unsafe root else { return true }
            defer { unsafe engine.freeTree(root) }
            return unsafe body(root)
        }
    }

    /// Every event of the tree under `root`, in order.
    private static func walk(_ root: OpaquePointer, _ engine: some CmarkEngine, lineOffset: Int, countdown: inout DeadlineCountdown, _ visit: (Event, Span<UInt8>) -> Void) {
        guard let iterator = unsafe engine.newIterator(root) else { return }
        defer { unsafe engine.freeIterator(iterator) }
        while !countdown.shouldStop(), let (node, isEnter) = unsafe engine.next(iterator) {
            guard let node = unsafe node else { continue }
            var event = unsafe event(for: node, engine, isEnter: isEnter)
            // cmark reports line 0 where it has no position (soft breaks, some inlines).
            if event.line > 0 { event.line += lineOffset }
            guard event.kind.hasLiteral, let literal = unsafe engine.literal(node) else {
                visit(event, Span())
                continue
            }
            let count = unsafe strlen(literal)
            unsafe literal.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                visit(event, unsafe UnsafeBufferPointer(start: bytes, count: count).span)
            }
        }
    }

    /// A string of bytes cmark made, such as an event's literal.
    static func string(_ bytes: Span<UInt8>) -> String {
        unsafe bytes.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
    }

    /// A string cmark made. The input was checked as UTF-8 before parsing, and cmark writes
    /// only whole characters of it and its own (U+FFFD, decoded entities), so our check (sixteen
    /// bytes at a time) always passes; `String(cString:)` checked a character at a time.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer = unsafe pointer else { return "" }
        return unsafe pointer.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            unsafe String(decoding: UnsafeBufferPointer(start: bytes, count: strlen(pointer)), as: UTF8.self)
        }
    }

    private static func event(for node: OpaquePointer, _ engine: some CmarkEngine, isEnter: Bool) -> Event {
        let kind: Event.Kind
        switch unsafe engine.nodeType(node) {
        case .document: kind = .document
        case .blockQuote: kind = .blockQuote
        case .list:
            let list = unsafe engine.list(node)
            kind = .list(ordered: list.ordered, start: list.start, parenthesis: list.parenthesis, tight: list.tight)
        case .item: kind = unsafe .item(task: engine.taskState(node))
        case .codeBlock:
            kind = unsafe .codeBlock(info: string(engine.fenceInfo(node)))
        case .htmlBlock: kind = .htmlBlock
        case .paragraph: kind = .paragraph
        case .heading: kind = unsafe .heading(level: engine.headingLevel(node))
        case .thematicBreak: kind = .thematicBreak
        case .text: kind = .text
        case .softBreak: kind = .softBreak
        case .lineBreak: kind = .lineBreak
        case .code: kind = .code
        case .htmlInline: kind = .htmlInline
        case .emphasis: kind = .emphasis
        case .strong: kind = .strong
        case .link: kind = unsafe .link(url: string(engine.url(node)), title: string(engine.title(node)))
        case .image: kind = unsafe .image(url: string(engine.url(node)), title: string(engine.title(node)))
        case .table: kind = unsafe .table(alignments: engine.tableAlignments(node))
        case .tableRow: kind = unsafe .tableRow(isHeader: engine.isHeaderRow(node))
        case .tableCell: kind = .tableCell
        case .strikethrough: kind = .strikethrough
        case .other: kind = .custom
        }
        return unsafe Event(kind: kind, isEnter: isEnter, line: engine.startLine(node), column: engine.startColumn(node))
    }
}

/// The cmark version, for `--version` output and reports.
public enum CmarkVersion {
    public static var string: String { CmarkLibrary.version }
}

/// cmark's own rendering, for the package's tests and fuzzer to hold our output to (see
/// ``CommonMarkEngine/renderHTML(_:unsafe:)``).
package enum CmarkRendering {
    package static func html(_ markdown: [UInt8], unsafe: Bool) -> String {
        CommonMarkEngine.renderHTML(markdown, unsafe: unsafe)
    }
}
