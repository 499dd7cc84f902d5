@_spi(InlineTraversal) import MarkbridgeIR

/// A cmark engine as ``CmarkLibrary``'s walker sees it: how to parse, iterate and ask a node
/// what it is. cmark (``CommonMarkEngine``, linked) and cmark-gfm (``GFMEngine``, loaded at run
/// time) share cmark's tree and iterator, but not their symbols' addresses nor the numbers of
/// their node types, so each says those its own way, and one walker serves both. Pointers
/// handed out here never leave the walker.
protocol CmarkEngine {
    /// The engine's tree of `count` bytes of UTF-8 at `text` (nil where it could not allocate).
    func parse(_ text: UnsafePointer<CChar>, count: Int) -> OpaquePointer?
    func freeTree(_ root: OpaquePointer)
    func newIterator(_ root: OpaquePointer) -> OpaquePointer?
    func freeIterator(_ iterator: OpaquePointer)
    /// The iterator's next node and whether it is entered, or nil when the walk is done.
    func next(_ iterator: OpaquePointer) -> (node: OpaquePointer?, isEnter: Bool)?
    func nodeType(_ node: OpaquePointer) -> CmarkNodeType
    func lastChild(_ node: OpaquePointer) -> OpaquePointer?
    func literal(_ node: OpaquePointer) -> UnsafePointer<CChar>?
    func fenceInfo(_ node: OpaquePointer) -> UnsafePointer<CChar>?
    func url(_ node: OpaquePointer) -> UnsafePointer<CChar>?
    func title(_ node: OpaquePointer) -> UnsafePointer<CChar>?
    func headingLevel(_ node: OpaquePointer) -> Int
    func list(_ node: OpaquePointer) -> (ordered: Bool, start: Int, parenthesis: Bool, tight: Bool)
    func startLine(_ node: OpaquePointer) -> Int
    func startColumn(_ node: OpaquePointer) -> Int
    func endLine(_ node: OpaquePointer) -> Int
    /// A list item's task state (GFM's tasklist extension); nil on a plain item.
    func taskState(_ item: OpaquePointer) -> TaskState?
    /// Each column's alignment of a table (GFM's table extension).
    func tableAlignments(_ table: OpaquePointer) -> [TextAlignment?]
    /// Whether a table row is the table's header row.
    func isHeaderRow(_ row: OpaquePointer) -> Bool
}

extension CmarkEngine {
    func taskState(_ item: OpaquePointer) -> TaskState? { nil }
    func tableAlignments(_ table: OpaquePointer) -> [TextAlignment?] { [] }
    func isHeaderRow(_ row: OpaquePointer) -> Bool { false }
}

/// What a node is, whichever engine made it: CommonMark's node types and the GFM extensions'
/// (`table`, `table_row`, `table_cell`, `strikethrough`); a task list item is an ``item``
/// with a ``CmarkEngine/taskState(_:)``. Anything else (a footnote, a custom block) is
/// ``other``, which the reader walks through.
enum CmarkNodeType {
    case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
    case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image
    case table, tableRow, tableCell, strikethrough
    case other
}
