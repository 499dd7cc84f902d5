@_spi(InlineTraversal) import MarkbridgeIR
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// cmark-gfm with the table, strikethrough, autolink and tasklist extensions, through the
/// function pointers of ``GFMLibrary``: the GFM engine. Every call into cmark-gfm lives here.
struct GFMEngine: CmarkEngine {
    let library: GFMLibrary

    /// One parse at a time in the process: cmark-gfm keeps the inline parser's table of special
    /// characters in a global, which each parse's extensions add to when it finishes its blocks
    /// and take out again when it ends, so a parse ending on one thread took `~` and `www.`
    /// from another's (the concurrent test below found strikes and links missing). The tree,
    /// once made, is the parse's own: walking it needs no lock.
    private static let parseLock = Mutex(())

    func parse(_ text: UnsafePointer<CChar>, count: Int) -> OpaquePointer? {
        // The tree crosses the lock as an address: a pointer is not `Sendable`.
        let root = Self.parseLock.withLock { _ -> UInt in
            unsafe UInt(bitPattern: parseUnlocked(text, count: count))
        }
        return unsafe OpaquePointer(bitPattern: root)
    }

    private func parseUnlocked(_ text: UnsafePointer<CChar>, count: Int) -> OpaquePointer? {
        // Safe mode, as cmark's (CMARK_OPT_DEFAULT); footnotes stay off, as GitHub's
        // extensions list (`cmark-gfm -e table -e strikethrough -e autolink -e tasklist`) has them.
        guard let parser = unsafe library.parserNew(0) else { return nil }
        defer { unsafe library.parserFree(parser) }
        for name in GFMLibrary.extensionNames {
            // Each was found when the library loaded.
            if let syntax = unsafe library.findSyntaxExtension(name) { _ = unsafe library.parserAttachSyntaxExtension(parser, syntax) }
        }
        unsafe library.parserFeed(parser, text, count)
        return unsafe library.parserFinish(parser)
    }

    func freeTree(_ root: OpaquePointer) { unsafe library.nodeFree(root) }
    func newIterator(_ root: OpaquePointer) -> OpaquePointer? { unsafe library.iterNew(root) }
    func freeIterator(_ iterator: OpaquePointer) { unsafe library.iterFree(iterator) }

    func next(_ iterator: OpaquePointer) -> (node: OpaquePointer?, isEnter: Bool)? {
        // cmark-gfm.h, cmark_event_type: NONE 0, DONE 1, ENTER 2, EXIT 3.
        let event = unsafe library.iterNext(iterator)
        guard event == 2 || event == 3 else { return nil }
        return unsafe (library.iterGetNode(iterator), event == 2)
    }

    func nodeType(_ node: OpaquePointer) -> CmarkNodeType {
        // cmark-gfm.h, cmark_node_type: blocks are 0x8000 | n, inlines 0xC000 | n; the
        // extensions' types are numbered after those when they register.
        let type = unsafe library.nodeGetType(node)
        switch type {
        case 0x8001: return .document
        case 0x8002: return .blockQuote
        case 0x8003: return .list
        case 0x8004: return .item
        case 0x8005: return .codeBlock
        case 0x8006: return .htmlBlock
        case 0x8008: return .paragraph
        case 0x8009: return .heading
        case 0x800A: return .thematicBreak
        case 0xC001: return .text
        case 0xC002: return .softBreak
        case 0xC003: return .lineBreak
        case 0xC004: return .code
        case 0xC005: return .htmlInline
        case 0xC007: return .emphasis
        case 0xC008: return .strong
        case 0xC009: return .link
        case 0xC00A: return .image
        case library.tableType: return .table
        case library.tableRowType: return .tableRow
        case library.tableCellType: return .tableCell
        case library.strikethroughType: return .strikethrough
        default: return .other
        }
    }

    func lastChild(_ node: OpaquePointer) -> OpaquePointer? { unsafe library.nodeLastChild(node) }
    func literal(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe library.nodeGetLiteral(node) }
    func fenceInfo(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe library.nodeGetFenceInfo(node) }
    func url(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe library.nodeGetURL(node) }
    func title(_ node: OpaquePointer) -> UnsafePointer<CChar>? { unsafe library.nodeGetTitle(node) }
    func headingLevel(_ node: OpaquePointer) -> Int { unsafe Int(library.nodeGetHeadingLevel(node)) }

    func list(_ node: OpaquePointer) -> (ordered: Bool, start: Int, parenthesis: Bool, tight: Bool) {
        // cmark_list_type: ORDERED 2; cmark_delim_type: PAREN 2.
        unsafe (library.nodeGetListType(node) == 2, Int(library.nodeGetListStart(node)), library.nodeGetListDelim(node) == 2,
         library.nodeGetListTight(node) != 0)
    }

    func startLine(_ node: OpaquePointer) -> Int { unsafe Int(library.nodeGetStartLine(node)) }
    func startColumn(_ node: OpaquePointer) -> Int { unsafe Int(library.nodeGetStartColumn(node)) }
    func endLine(_ node: OpaquePointer) -> Int { unsafe Int(library.nodeGetEndLine(node)) }

    func taskState(_ item: OpaquePointer) -> TaskState? {
        // The tasklist extension claims the items it reads, and names them so.
        guard let name = unsafe library.nodeGetTypeString(item), unsafe strcmp(name, "tasklist") == 0 else { return nil }
        return unsafe TaskState(isChecked: library.tasklistItemChecked(item))
    }

    func tableAlignments(_ table: OpaquePointer) -> [TextAlignment?] {
        let count = unsafe Int(library.tableColumns(table))
        guard count > 0, let alignments = unsafe library.tableAlignments(table) else { return [] }
        // cmark-gfm-core-extensions.h: 'l', 'c', 'r', or 0 for none.
        return (0..<count).map { column in
            switch unsafe alignments[column] {
            case UInt8(ascii: "l"): .left
            case UInt8(ascii: "c"): .center
            case UInt8(ascii: "r"): .right
            default: nil
            }
        }
    }

    func isHeaderRow(_ row: OpaquePointer) -> Bool { unsafe library.tableRowIsHeader(row) != 0 }
}
