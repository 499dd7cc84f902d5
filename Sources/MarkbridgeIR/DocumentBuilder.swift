@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The one builder every reader feeds, so that no reader does offset arithmetic itself.
///
/// Readers start and end blocks, append text, and open and close markups around it (cmark's
/// enter/exit events and HTML start/end tags map straight onto this). The builder keeps the
/// running UTF-16 length, so an offset costs nothing, and hands back a canonical document.
/// A markup still open when its block ends is cut there and continues in the next block.
package struct DocumentBuilder: Sendable {
    /// A markup opened and not yet closed, returned by ``openMarkup(_:)``.
    public struct OpenMarkup: Hashable, Sendable {
        fileprivate let id: Int
    }

    private var blocks: [Block] = []
    /// The block being built, meaningful while `isInBlock` (kept out of an optional so that
    /// the many checks of whether a block is open never copy it).
    private var current = Block(.paragraph)
    public private(set) var isInBlock = false
    /// The current block's text, made a `String` once when the block ends.
    private var text = BlockText()
    private var utf16Length = 0
    /// Markups in the order they were opened, so mostly in canonical order already; an open
    /// markup's slot has its start and is given its end when it closes.
    private var markups: [Markup] = []
    /// Each markup's range in bytes of `text`, slot for slot: where a reader builds the block,
    /// the byte at each edge is known, and whether it is whitespace (which canonical form
    /// trims) is asked there, instead of walking the text to every UTF-16 edge afterwards.
    private var markupBytes: [(start: Int, end: Int)] = []
    /// Open markups by id: the slot in `markups` each fills when it closes.
    private var open: [(id: Int, slot: Int)] = []
    private var nextID = 0
    /// Collapsible whitespace seen and not yet written: it becomes one space only if more text
    /// follows in the same block (CSS `white-space: normal`).
    private var pendingSpace = false
    /// Markups opened after the pending space was noted begin after it, when it is written.
    private var pendingSpaceMark = 0
    /// Slots of markups that keep their edge whitespace (code) closed while a space noted
    /// inside them was pending: CSS keeps a collapsed run's space where the run began, inside
    /// the element, so such a markup ends after the space once it is written.
    private var closedBeforePendingSpace: [Int] = []
    /// The cells of the table row being built, the last one open while `isInCell`.
    private var rowCells: [TableCell] = []
    public private(set) var isInCell = false
    /// Where the text of the open cell begins: whitespace collapses there as at a block's start.
    private var cellStart = 0

    /// How many blocks have begun, kept or not: a ``TextMark`` tells by it whether the open
    /// block is the one it was taken in.
    private var blocksBegun = 0

    /// An anchor for the next block to begin (an `id` on an element none of whose blocks has begun).
    private var pendingAnchor: String?

    /// How many more markups may go on from one block into the next (see `carryBudget(forInputBytes:)`).
    public var carryBudget = Int.max
    /// Markups let go at a block's end because the carry budget was spent.
    public private(set) var markupsLetGo = 0

    /// A markup left open over many blocks is repeated in each (`<b><i><u>…` then `<p>x` many
    /// times: 4 input bytes, a block with a dozen markups, 50 times the input in JSON). Carrying
    /// is bounded by the input: one markup carried per `inputBytesPerCarriedMarkup` bytes in all
    /// (at least `minimumCarryBudget`), far above any real document; past it, what is still open
    /// ends with its block and the reader reports it.
    public static let inputBytesPerCarriedMarkup = 4
    public static let minimumCarryBudget = 4096

    public static func carryBudget(forInputBytes count: Int) -> Int {
        max(minimumCarryBudget, count / inputBytesPerCarriedMarkup)
    }

    public init() {}

    /// Whether a block is started and not ended.

    /// Starts a block, ending the current one first.
    public mutating func startBlock(
        _ kind: BlockKind, depth: Int = 0, quoteDepth: Int = 0, quoteListDepths: [Int] = [], alignment: TextAlignment? = nil
    ) {
        if isInBlock { endBlock() }
        current = Block(kind, depth: depth, quoteDepth: quoteDepth, quoteListDepths: quoteListDepths, alignment: alignment)
        blocksBegun += 1
        if let anchor = pendingAnchor {
            current.anchor = anchor
            pendingAnchor = nil
        }
        isInBlock = true
    }

    /// Gives the block an anchor (an HTML `id`, sanitized by ``Block/sanitizedAnchor(_:)``):
    /// the block being built when nothing is in it yet, else the next block to begin. Returns
    /// false when the anchor has no block to go to: the open block has text or an anchor
    /// already, or another anchor waits for the next block. An id sanitized to nothing is no
    /// anchor, and goes nowhere either.
    public mutating func anchorBlock(_ id: String) -> Bool {
        guard let anchor = Block.sanitizedAnchor(id) else { return false }
        if isInBlock {
            guard utf16Length == 0, current.anchor == nil, !pendingSpace else { return false }
            current.anchor = anchor
            return true
        }
        guard pendingAnchor == nil else { return false }
        pendingAnchor = anchor
        return true
    }

    /// A place in the text being built (see ``showsOnlyWhitespace(since:)``).
    public struct TextMark: Hashable, Sendable {
        fileprivate let blocksBegun: Int
        /// The open block's length in bytes then; nil between blocks.
        fileprivate let byte: Int?
    }

    /// Where the text stands now.
    public var textMark: TextMark { TextMark(blocksBegun: blocksBegun, byte: isInBlock ? text.byteCount : nil) }

    /// Whether nothing but whitespace (which canonical form trims from a markup's edges) has
    /// been appended since `mark`: a markup opened there and closed now covers nothing, and
    /// canonical form drops it, so the reader can say so (an empty link). Whitespace pending
    /// is not text yet. Conservative: once a block has ended since the mark, it says no.
    public func showsOnlyWhitespace(since mark: TextMark) -> Bool {
        let start: Int
        switch mark.byte {
        case nil where mark.blocksBegun == blocksBegun:
            return true
        case nil where mark.blocksBegun + 1 == blocksBegun && isInBlock:
            start = 0
        case let byte? where mark.blocksBegun == blocksBegun && isInBlock:
            start = byte
        default:
            return false
        }
        return start >= text.byteCount || text.holdsOnlyWhitespace(from: start)
    }

    /// The text appended since `mark`, while it is in the open block (nil once a block has
    /// ended since): what an element's content was, for a reader of lone tags.
    public func text(since mark: TextMark) -> String? {
        guard isInBlock else { return mark.byte == nil && mark.blocksBegun == blocksBegun ? "" : nil }
        let start: Int
        switch mark.byte {
        case nil where mark.blocksBegun + 1 == blocksBegun: start = 0
        case let byte? where mark.blocksBegun == blocksBegun: start = byte
        default: return nil
        }
        return String(decoding: Array(text.string().utf8.dropFirst(start)), as: UTF8.self)
    }

    /// Whether an anchor waits for a block to begin: at the end of a read, one that is lost.
    public var hasPendingAnchor: Bool { pendingAnchor != nil }

    /// The kind of the block being built, if one is open.
    public var currentKind: BlockKind? { isInBlock ? current.kind : nil }

    /// Whether a block is open with nothing in it yet: no text, no space waiting.
    public var currentBlockIsEmpty: Bool { isInBlock && utf16Length == 0 && !pendingSpace }

    /// The task state of the block being built, if one is open and has one.
    public var currentTaskState: TaskState? { isInBlock ? current.taskState : nil }

    /// Appends text to the current block, starting a paragraph if none is open.
    public mutating func append(_ piece: String) {
        if !isInBlock { startBlock(.paragraph) }
        writePendingSpace()
        utf16Length += ByteScan.utf16Count(ofUTF8: piece.utf8.span)
        text.append(piece)
    }

    /// Appends text given as UTF-8. The bytes should be valid UTF-8 (readers pass text from
    /// validated input); an invalid sequence is replaced with U+FFFD when the block ends, and
    /// the block's markups are then clamped to its text rather than trusted.
    public mutating func appendUTF8(_ bytes: Span<UInt8>) {
        appendBytes(bytes, isReaderText: false)
    }

    /// Appends bytes that this package's HTML reader takes from its validated input: the
    /// block's string is made from them without a second check (see `String(htmlReaderText:)`).
    package mutating func appendValidUTF8(_ bytes: Span<UInt8>) {
        appendBytes(bytes, isReaderText: true)
    }

    /// The same, with the bytes' length in UTF-16 units already known (a reader that scanned
    /// them anyway counted it on the way, saving a pass over the text).
    package mutating func appendValidUTF8(_ bytes: Span<UInt8>, utf16Count: Int) {
        assert(utf16Count == ByteScan.utf16Count(ofUTF8: bytes), "a wrong UTF-16 length would shift every markup after it")
        appendBytes(bytes, isReaderText: true, utf16Count: utf16Count)
    }

    private mutating func appendBytes(_ bytes: Span<UInt8>, isReaderText: Bool, utf16Count: Int? = nil) {
        if !isInBlock { startBlock(.paragraph) }
        writePendingSpace()
        text.append(bytes, isReaderText: isReaderText)
        utf16Length += utf16Count ?? ByteScan.utf16Count(ofUTF8: bytes)
    }

    /// Appends text given as UTF-8 (see the span form).
    public mutating func appendUTF8(_ bytes: ArraySlice<UInt8>) {
        appendUTF8(bytes.span)
    }

    private mutating func writePendingSpace() {
        guard pendingSpace else { return }
        pendingSpace = false
        guard utf16Length > cellStart else {
            closedBeforePendingSpace.removeAll()
            return
        }
        for entry in open where entry.id > pendingSpaceMark && markups[entry.slot].range.start == utf16Length {
            markups[entry.slot].range.start += 1
            markupBytes[entry.slot].start += 1
        }
        for slot in closedBeforePendingSpace where markups[slot].range.end == utf16Length {
            markups[slot].range.end += 1
            markupBytes[slot].end += 1
        }
        closedBeforePendingSpace.removeAll()
        text.appendSpace()
        utf16Length += 1
    }

    /// Whitespace pending is not written: at a block's or cell's edge, before a line break.
    private mutating func dropPendingSpace() {
        pendingSpace = false
        closedBeforePendingSpace.removeAll()
    }

    /// Notes collapsible whitespace: one space between words, none at the start or end of a
    /// block or right after a line break. Readers that collapse whitespace (HTML outside `pre`,
    /// Markdown soft breaks) call this instead of appending spaces.
    public mutating func appendCollapsibleSpace() {
        guard isInBlock, utf16Length > cellStart, text.lastByte != 0x0A else { return }
        if !pendingSpace { pendingSpaceMark = nextID }
        pendingSpace = true
    }

    /// Appends a hard line break; whitespace pending before it is dropped.
    public mutating func appendLineBreak() {
        dropPendingSpace()
        append("\n")
    }

    /// Starts a cell of the table row being built (see ``TableRow``): after the separator if it
    /// is not the first. Does nothing outside a row.
    public mutating func startCell(isHeader: Bool, columnSpan: Int = 1, rowSpan: Int = 1, alignment: TextAlignment? = nil) {
        guard isInBlock, case .tableRow = current.kind else { return }
        if isInCell { endCell() }
        dropPendingSpace()
        if !rowCells.isEmpty {
            text.append(TableRow.separator)
            utf16Length += TableRow.separator.utf16.count
        }
        cellStart = utf16Length
        rowCells.append(TableCell(TextRange(start: utf16Length, end: utf16Length), isHeader: isHeader,
                                  columnSpan: columnSpan, rowSpan: rowSpan, alignment: alignment))
        isInCell = true
    }

    /// Ends the open cell: whitespace pending at its end and a line break that ends it go, as
    /// they do at a block's end.
    public mutating func endCell() {
        guard isInCell else { return }
        dropPendingSpace()
        if utf16Length > cellStart { removeTrailingLineBreak() }
        rowCells[rowCells.count - 1].range.end = utf16Length
        isInCell = false
    }

    /// A line break between blocks inside a cell, where the IR has no blocks: none at the
    /// cell's start or after another.
    public mutating func breakLineInCell() {
        guard isInCell, utf16Length > cellStart, text.lastByte != 0x0A else { return }
        appendLineBreak()
    }

    /// A line break between blocks flattened into the open block's text (a paragraph inside a
    /// heading): none at the block's start or right after another.
    public mutating func breakLine() {
        guard isInBlock, !isInCell, utf16Length > 0, text.lastByte != 0x0A else { return }
        appendLineBreak()
    }

    /// Removes a line break that ends the current block, as a browser does not render a
    /// `<br>` that ends a block. Returns whether there was one.
    @discardableResult
    public mutating func removeTrailingLineBreak() -> Bool {
        guard text.lastByte == 0x0A else { return false }
        text.removeLastLineFeed()
        utf16Length -= 1
        dropPendingSpace()
        return true
    }

    /// Sets the attributes of the block being built (the reader learns some only on the way).
    public mutating func updateCurrentBlock(_ update: (inout Block) -> Void) {
        guard isInBlock else { return }
        update(&current)
    }

    /// Appends an inline image: U+FFFC in the text with an IMAGE markup over it.
    public mutating func appendImage(_ image: ImageSource) {
        append("")
        let start = utf16Length
        let startByte = text.byteCount
        append("\u{FFFC}")
        markups.append(Markup(.image(image), start: start, end: utf16Length))
        markupBytes.append((startByte, text.byteCount))
    }

    /// Opens a markup at the current position.
    public mutating func openMarkup(_ kind: MarkupKind) -> OpenMarkup {
        nextID += 1
        if let slot = touchingClosedSlot(of: kind) {
            open.append((nextID, slot))
        } else {
            open.append((nextID, markups.count))
            markups.append(Markup(kind, start: utf16Length, end: utf16Length))
            markupBytes.append((text.byteCount, text.byteCount))
        }
        return OpenMarkup(id: nextID)
    }

    /// A closed markup of `kind` that ends right here, which canonical form would merge with
    /// one opened here (`<i>a</i><i>b</i>`, or what the adoption agency makes of
    /// `<b>x<i>y</b>z</i>`): it is reopened instead, so the block stays canonical without a
    /// sort. Looks only a few slots back; farther ones are merged by canonicalization.
    private func touchingClosedSlot(of kind: MarkupKind) -> Int? {
        guard !pendingSpace, utf16Length > 0, kind.mergesWhenTouching else { return nil }
        var slot = markups.count - 1
        while slot >= max(0, markups.count - 4) {
            if markups[slot].range.end == utf16Length, markups[slot].kind == kind,
               !open.contains(where: { $0.slot == slot }) {
                return slot
            }
            slot -= 1
        }
        return nil
    }

    /// Closes a markup at the current position. Closing one already closed does nothing.
    public mutating func closeMarkup(_ handle: OpenMarkup) {
        guard let index = open.lastIndex(where: { $0.id == handle.id }) else { return }
        let entry = open.remove(at: index)
        markups[entry.slot].range.end = utf16Length
        markupBytes[entry.slot].end = text.byteCount
        if pendingSpace, entry.id <= pendingSpaceMark, !markups[entry.slot].kind.trimsWhitespaceEdges {
            closedBeforePendingSpace.append(entry.slot)
        }
    }

    /// Ends the current block, cutting open markups at its end; they resume in the next block.
    /// An empty block is dropped unless `keepingIfEmpty`.
    public mutating func endBlock(keepingIfEmpty: Bool = true) {
        guard isInBlock else { return }
        // Taken out rather than copied (a copy retains every reference the block holds).
        var block = Block(.paragraph)
        swap(&block, &current)
        for entry in open {
            markups[entry.slot].range.end = utf16Length
            markupBytes[entry.slot].end = text.byteCount
        }
        dropPendingSpace()
        let isRow = finishRow(&block)
        // A further paragraph of a term or definition with none before it begins one.
        if block.kind.continuesDefinition, !block.continuesDefinition(after: blocks.last) { block.kind = block.kind.definition(continuing: false) }
        // An anchor is something to link to, a task's box something to see: such a block
        // stays, empty or not (an empty task item the blocks after it are in).
        if !text.isEmpty || keepingIfEmpty || isRow || block.anchor != nil || block.taskState != nil {
            block.text = text.string()
            // Text the caller passed as invalid UTF-8 was repaired, so its length is measured again.
            let repaired = block.text.utf8.count != text.byteCount
            let length = repaired ? block.text.utf16.count : utf16Length
            for index in markups.indices {
                markups[index].range.end = min(markups[index].range.end, length)
                markups[index].range.start = min(markups[index].range.start, markups[index].range.end)
            }
            // An exact copy: the working array keeps its capacity for the next block, and the
            // document holds no spare slots (a block's markups array grew by doubling).
            var exact: [Markup] = []
            exact.reserveCapacity(markups.count)
            exact.append(contentsOf: markups)
            block.markups = exact
            if isRow, case .tableRow(let row) = block.kind, let within = row.markupsWithinCells(block.markups) {
                // A markup opened outside the table runs over the separators too.
                block.markups = within
                block.canonicalize()
            } else {
                block.canonicalize(edgesKnownFreeOfWhitespace: !repaired && edgesFreeOfWhitespace())
            }
            keepCaptionBefore(block)
            blocks.append(block)
        }
        isInBlock = false
        text.removeAll()
        utf16Length = 0
        // Markups still open go on in the next block, from its start, in their order.
        if open.count > carryBudget {
            markupsLetGo += open.count
            open.removeAll()
        }
        carryBudget -= open.count
        if open.isEmpty {
            markups.removeAll(keepingCapacity: true)
            markupBytes.removeAll(keepingCapacity: true)
        } else {
            var continuing: [Markup] = []
            for index in open.indices {
                continuing.append(Markup(markups[open[index].slot].kind, start: 0, end: 0))
                open[index].slot = index
            }
            markups.removeAll(keepingCapacity: true)
            markups.append(contentsOf: continuing)
            markupBytes = Array(repeating: (0, 0), count: continuing.count)
        }
    }

    /// Gives a row block its cells; returns whether it is a row with any. A row whose cells do
    /// not tile its text (text outside any cell, which a reader should never add) is a
    /// paragraph instead, so that no text is lost.
    private mutating func finishRow(_ block: inout Block) -> Bool {
        if isInCell { endCell() }
        cellStart = 0
        guard case .tableRow(var row) = block.kind else { return false }
        let text = self.text.string()
        row.cells = rowCells
        rowCells.removeAll(keepingCapacity: true)
        if row.violation(in: text) == nil {
            // A row with nothing to continue begins a table, whatever the reader said (the
            // first row of its table may have had no cells, and been no row).
            if !row.startsTable, !block.continuesTable(after: blocks.last) { row.startsTable = true }
            block.kind = .tableRow(row)
            return true
        }
        block.kind = block.quoteDepth > 0 ? .blockquote : .paragraph
        return false
    }

    /// Whether no markup that canonical form trims begins or ends on a space, tab or line feed
    /// of the block's text (a removed trailing line break may have left an edge past the end:
    /// such an edge is at the text's end, and counts as clean only if the text's last byte is).
    private func edgesFreeOfWhitespace() -> Bool {
        let count = text.byteCount
        for (slot, markup) in markups.enumerated() where markup.kind.trimsWhitespaceEdges && !markup.range.isEmpty {
            let end = min(markupBytes[slot].end, count)
            let start = min(markupBytes[slot].start, end)
            guard start < end else { return false }
            if Self.isTrimmed(text.byte(at: start)) || Self.isTrimmed(text.byte(at: end - 1)) { return false }
        }
        return true
    }

    private static func isTrimmed(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A
    }

    /// The blocks finished so far.
    public var finishedBlocks: [Block] { blocks }

    /// How many blocks are finished: cheaper to ask than `finishedBlocks.count`, which hands out
    /// a second reference to the array (and so a whole copy on the next append, had it been kept).
    public var finishedBlockCount: Int { blocks.count }

    /// The block finished last, if any.
    public var lastFinishedBlock: Block? { blocks.last }

    /// Adds a block made elsewhere (an embedded HTML block) after the finished ones.
    public mutating func appendFinishedBlock(_ block: Block) {
        endBlock(keepingIfEmpty: false)
        keepCaptionBefore(block)
        blocks.append(block)
    }

    /// Table captions made paragraphs because no row of their table came right after them.
    public private(set) var captionsWithoutTable = 0

    /// Blocks moved up to the depth the list items before them allow (their item was empty and
    /// dropped, or never began), for the reader to report; the first one's index.
    public private(set) var depthsLowered = 0
    public private(set) var firstLoweredBlock: Int?

    /// A caption stays one only when `next`, the block after it, is the first row of its
    /// table (see ``Block/captions(_:)``); otherwise it is a paragraph of its text, counted
    /// for the reader to report.
    private mutating func keepCaptionBefore(_ next: Block?) {
        guard let last = blocks.indices.last, blocks[last].kind == .tableCaption, !blocks[last].captions(next) else { return }
        blocks[last].kind = blocks[last].quoteDepth > 0 ? .blockquote : .paragraph
        captionsWithoutTable += 1
    }

    /// Changes the last finished blocks in place (a caption joining the image before it):
    /// `update` gets them from `count` back, and may remove some.
    ///
    /// The tail is moved out block by block, never sliced: a slice would share the array's
    /// storage, so removing from the array would copy every finished block, once per call.
    public mutating func updateFinishedBlocks(last count: Int, _ update: (inout [Block]) -> Void) {
        guard count > 0, blocks.count >= count else { return }
        var tail: [Block] = []
        tail.reserveCapacity(count)
        for _ in 0..<count { tail.append(blocks.removeLast()) }
        tail.reverse()
        update(&tail)
        blocks.append(contentsOf: tail)
    }

    /// Ends any open block and returns the canonical document.
    public mutating func finish() -> Document {
        endBlock()
        keepCaptionBefore(nil)
        open.removeAll()
        markups.removeAll()
        markupBytes.removeAll()
        pendingAnchor = nil
        lowerBlocksDeeperThanTheirItems()
        var document = Document(blocks: blocks)
        blocks = []
        document.canonicalizeContainerStarts()
        return document
    }

    /// A block deeper than the items before it has no item to be in, and no writer can write
    /// it: whatever shape of input left it so (text and a nested list directly in a list after
    /// an empty item), it is kept at the deepest depth they allow.
    private mutating func lowerBlocksDeeperThanTheirItems() {
        var items = ItemDepthWalk()
        for index in blocks.indices {
            let allowed = items.allowedDepth(for: blocks[index])
            guard allowed < blocks[index].depth else { continue }
            blocks[index] = blocks[index].moved(toDepth: allowed)
            depthsLowered += 1
            if firstLoweredBlock == nil { firstLoweredBlock = index }
        }
    }
}
