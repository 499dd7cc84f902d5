import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// cmark, linked through the `CCmark` system-library target: the CommonMark engine. Every
/// call into the linked libcmark lives in this file.
struct CommonMarkEngine: CmarkEngine {
    /// The version of libcmark the binary is linked against, as cmark reports it ("0.30.2").
    static var version: String {
        guard let pointer = unsafe cmark_version_string() else { return "unknown" }
        return unsafe String(cString: pointer)
    }

    func parse(_ text: UnsafePointer<CChar>, count: Int) -> OpaquePointer? {
        // Safe mode: no raw HTML rendering; we read HTML ourselves.
        unsafe cmark_parse_document(text, count, CMARK_OPT_DEFAULT)
    }

    func freeTree(_ root: OpaquePointer) { unsafe cmark_node_free(root) }
    func newIterator(_ root: OpaquePointer) -> OpaquePointer? { unsafe cmark_iter_new(root) }
    func freeIterator(_ iterator: OpaquePointer) { unsafe cmark_iter_free(iterator) }

    func next(_ iterator: OpaquePointer) -> (node: OpaquePointer?, isEnter: Bool)? {
        let event = unsafe cmark_iter_next(iterator)
        if event == CMARK_EVENT_DONE || event == CMARK_EVENT_NONE { return nil }
        return unsafe (cmark_iter_get_node(iterator), event == CMARK_EVENT_ENTER)
    }

    func nodeType(_ node: OpaquePointer) -> CmarkNodeType {
        switch unsafe cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: .document
        case CMARK_NODE_BLOCK_QUOTE: .blockQuote
        case CMARK_NODE_LIST: .list
        case CMARK_NODE_ITEM: .item
        case CMARK_NODE_CODE_BLOCK: .codeBlock
        case CMARK_NODE_HTML_BLOCK: .htmlBlock
        case CMARK_NODE_PARAGRAPH: .paragraph
        case CMARK_NODE_HEADING: .heading
        case CMARK_NODE_THEMATIC_BREAK: .thematicBreak
        case CMARK_NODE_TEXT: .text
        case CMARK_NODE_SOFTBREAK: .softBreak
        case CMARK_NODE_LINEBREAK: .lineBreak
        case CMARK_NODE_CODE: .code
        case CMARK_NODE_HTML_INLINE: .htmlInline
        case CMARK_NODE_EMPH: .emphasis
        case CMARK_NODE_STRONG: .strong
        case CMARK_NODE_LINK: .link
        case CMARK_NODE_IMAGE: .image
        default: .other
        }
    }

    func lastChild(_ node: OpaquePointer) -> OpaquePointer? { unsafe cmark_node_last_child(node) }
    func literal(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe cmark_node_get_literal(node) }
    func fenceInfo(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe cmark_node_get_fence_info(node) }
    func url(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe cmark_node_get_url(node) }
    func title(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe cmark_node_get_title(node) }
    func headingLevel(_ node: OpaquePointer) -> Int { unsafe Int(cmark_node_get_heading_level(node)) }

    func list(_ node: OpaquePointer) -> (ordered: Bool, start: Int, parenthesis: Bool, tight: Bool) {
        unsafe (cmark_node_get_list_type(node) == CMARK_ORDERED_LIST, Int(cmark_node_get_list_start(node)),
         cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM, cmark_node_get_list_tight(node) != 0)
    }

    func startLine(_ node: OpaquePointer) -> Int { unsafe Int(cmark_node_get_start_line(node)) }
    func startColumn(_ node: OpaquePointer) -> Int { unsafe Int(cmark_node_get_start_column(node)) }
    func endLine(_ node: OpaquePointer) -> Int { unsafe Int(cmark_node_get_end_line(node)) }

    /// cmark's own HTML rendering of `markdown`: what any CommonMark renderer shows, for tests
    /// and the fuzzer to hold our output to. `unsafe` lets raw HTML through, as renderers
    /// configured that way do (`CMARK_OPT_UNSAFE`).
    static func renderHTML(_ markdown: [UInt8], unsafe: Bool) -> String {
        let options = unsafe ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
        let rendered = unsafe markdown.withUnsafeBufferPointer { buffer in
            unsafe buffer.baseAddress.map { base in
                unsafe base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { unsafe cmark_markdown_to_html($0, buffer.count, options) }
            } ?? cmark_markdown_to_html("", 0, options)
        }
        guard let rendered = unsafe rendered else { return "" }
        defer { unsafe free(rendered) }
        return unsafe CmarkLibrary.string(rendered)
    }
}
