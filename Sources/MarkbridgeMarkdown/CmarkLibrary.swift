@_spi(Internals) import MarkbridgeBytes
import CCmark
@_spi(Internals) import MarkbridgeIR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The linked cmark library. All cmark calls live in this file, behind this boundary: nothing
/// outside it sees a C pointer, and every node is freed with `defer` right after creation.
enum CmarkLibrary {
    /// The version of libcmark the binary is linked against, as cmark reports it ("0.30.2").
    static var version: String {
        guard let pointer = cmark_version_string() else { return "unknown" }
        return String(cString: pointer)
    }

    /// One step of cmark's iterator, as Swift values.
    struct Event {
        enum Kind {
            case document, blockQuote, list(ordered: Bool, start: Int, parenthesis: Bool), item, codeBlock(info: String)
            case htmlBlock, paragraph, heading(level: Int), thematicBreak
            case text, softBreak, lineBreak, code, htmlInline, emphasis, strong
            case link(url: String, title: String), image(url: String, title: String)
            case custom
        }

        var kind: Kind
        var isEnter: Bool
        /// The literal of leaf nodes (text, code, HTML, code blocks).
        var literal: String
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
    /// and their lines count from the start of the input. Returns the number of pieces walked.
    @discardableResult
    static func walk(_ markdown: [UInt8], pieceBytes: Int = defaultPieceBytes, _ visit: (Event) -> Void) -> Int {
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
            let walked = parse(markdown, start..<end) { root in
                // A fenced code block or HTML block open at the end of the piece would have gone
                // on past the cut: the piece is not walked, and a longer one parsed instead.
                if end < markdown.count, let last = cmark_node_last_child(root),
                   [CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK].contains(cmark_node_get_type(last)),
                   Int(cmark_node_get_end_line(last)) >= lines {
                    return false
                }
                walk(root, lineOffset: lineOffset, countdown: &countdown, visit)
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

    /// cmark's tree of `markdown[range]`, handed to `body` and freed after it.
    private static func parse(_ markdown: [UInt8], _ range: Range<Int>, _ body: (OpaquePointer) -> Bool) -> Bool {
        markdown.withUnsafeBufferPointer { buffer in
            let root = buffer.baseAddress.map { base in
                (base + range.lowerBound).withMemoryRebound(to: CChar.self, capacity: range.count) {
                    cmark_parse_document($0, range.count, CMARK_OPT_DEFAULT)
                }
            } ?? cmark_parse_document("", 0, CMARK_OPT_DEFAULT)
            guard let root else { return true }
            defer { cmark_node_free(root) }
            return body(root)
        }
    }

    /// Every event of the tree under `root`, in order.
    private static func walk(_ root: OpaquePointer, lineOffset: Int, countdown: inout DeadlineCountdown, _ visit: (Event) -> Void) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        while !countdown.shouldStop() {
            let eventType = cmark_iter_next(iterator)
            if eventType == CMARK_EVENT_DONE || eventType == CMARK_EVENT_NONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            var event = event(for: node, isEnter: eventType == CMARK_EVENT_ENTER)
            // cmark reports line 0 where it has no position (soft breaks, some inlines).
            if event.line > 0 { event.line += lineOffset }
            visit(event)
        }
    }

    /// cmark's own HTML rendering of `markdown`: what any CommonMark renderer shows, for tests
    /// and the fuzzer to hold our output to. `unsafe` lets raw HTML through, as renderers
    /// configured that way do (`CMARK_OPT_UNSAFE`).
    static func renderHTML(_ markdown: [UInt8], unsafe: Bool) -> String {
        let options = unsafe ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
        let rendered = markdown.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_markdown_to_html($0, buffer.count, options) }
            } ?? cmark_markdown_to_html("", 0, options)
        }
        guard let rendered else { return "" }
        defer { free(rendered) }
        return string(rendered)
    }

    /// A string cmark made. The input was checked as UTF-8 before parsing, and cmark writes
    /// only whole characters of it and its own (U+FFFD, decoded entities), so our check (sixteen
    /// bytes at a time) always passes; `String(cString:)` checked a character at a time.
    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            String(checkingUTF8: UnsafeBufferPointer(start: bytes, count: strlen(pointer)))
        }
    }

    private static func event(for node: OpaquePointer, isEnter: Bool) -> Event {
        let kind: Event.Kind
        var literal = ""
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: kind = .document
        case CMARK_NODE_BLOCK_QUOTE: kind = .blockQuote
        case CMARK_NODE_LIST:
            kind = .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                         start: Int(cmark_node_get_list_start(node)),
                         parenthesis: cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM)
        case CMARK_NODE_ITEM: kind = .item
        case CMARK_NODE_CODE_BLOCK:
            kind = .codeBlock(info: string(cmark_node_get_fence_info(node)))
            literal = string(cmark_node_get_literal(node))
        case CMARK_NODE_HTML_BLOCK:
            kind = .htmlBlock
            literal = string(cmark_node_get_literal(node))
        case CMARK_NODE_PARAGRAPH: kind = .paragraph
        case CMARK_NODE_HEADING: kind = .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: kind = .thematicBreak
        case CMARK_NODE_TEXT:
            kind = .text
            literal = string(cmark_node_get_literal(node))
        case CMARK_NODE_SOFTBREAK: kind = .softBreak
        case CMARK_NODE_LINEBREAK: kind = .lineBreak
        case CMARK_NODE_CODE:
            kind = .code
            literal = string(cmark_node_get_literal(node))
        case CMARK_NODE_HTML_INLINE:
            kind = .htmlInline
            literal = string(cmark_node_get_literal(node))
        case CMARK_NODE_EMPH: kind = .emphasis
        case CMARK_NODE_STRONG: kind = .strong
        case CMARK_NODE_LINK: kind = .link(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE: kind = .image(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        default: kind = .custom
        }
        return Event(kind: kind, isEnter: isEnter, literal: literal,
                     line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node)))
    }
}

/// The cmark version, for `--version` output and reports.
public enum CmarkVersion {
    public static var string: String { CmarkLibrary.version }
}

/// cmark's own rendering, for the package's tests and fuzzer to hold our output to (see
/// ``CmarkLibrary/renderHTML(_:unsafe:)``).
package enum CmarkRendering {
    package static func html(_ markdown: [UInt8], unsafe: Bool) -> String {
        CmarkLibrary.renderHTML(markdown, unsafe: unsafe)
    }
}
