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
        let id: Int
    }

    // The builder's state, read and written by its parts in DocumentBuilder+Text, +Markups
    // and +Cells; no other file touches it.
    var blocks: [Block] = []
    /// The block being built, meaningful while `isInBlock` (kept out of an optional so that
    /// the many checks of whether a block is open never copy it). Between blocks it is an
    /// empty paragraph, as `endBlock` leaves it, which `startBlock` fills in place: nothing
    /// changes it while no block is open.
    var current = Block(.paragraph)
    /// The empty paragraph `endBlock` leaves in `current` and in the array's new slot, read
    /// from one constant: `Block`'s initializer builds its value twice over, copies one and
    /// destroys the other, which for an empty block is all reference counting (four outlined
    /// copies and destroys per block, 0.8% of HTML -> JSON's instructions).
    private static let emptyParagraph = Block(.paragraph)
    /// Whether a block is started and not ended.
    public private(set) var isInBlock = false
    /// The current block's text, made a `String` once when the block ends.
    var text = BlockText()
    var utf16Length = 0
    /// Markups in the order they were opened, so mostly in canonical order already; an open
    /// markup's slot has its start and is given its end when it closes.
    var markups: [Markup] = []
    /// Each markup's range in bytes of `text`, slot for slot: where a reader builds the block,
    /// the byte at each edge is known, and whether it is whitespace (which canonical form
    /// trims) is asked there, instead of walking the text to every UTF-16 edge afterwards.
    var markupBytes: [(start: Int, end: Int)] = []
    /// Open markups by id: the slot in `markups` each fills when it closes.
    var open: [(id: Int, slot: Int)] = []
    var nextID = 0
    /// Collapsible whitespace seen and not yet written: it becomes one space only if more text
    /// follows in the same block (CSS `white-space: normal`).
    var pendingSpace = false
    /// Markups opened after the pending space was noted begin after it, when it is written.
    var pendingSpaceMark = 0
    /// Slots of markups that keep their edge whitespace (code) closed while a space noted
    /// inside them was pending: CSS keeps a collapsed run's space where the run began, inside
    /// the element, so such a markup ends after the space once it is written.
    var closedBeforePendingSpace: [Int] = []
    /// The cells of the table row being built, the last one open while `isInCell`.
    var rowCells: [TableCell] = []
    public internal(set) var isInCell = false
    /// Where the text of the open cell begins: whitespace collapses there as at a block's start.
    var cellStart = 0

    /// How many blocks have begun, kept or not: a ``TextMark`` tells by it whether the open
    /// block is the one it was taken in.
    var blocksBegun = 0

    /// An anchor for the next block to begin (an `id` on an element none of whose blocks has begun).
    var pendingAnchor: String?

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

    /// Room for about `count` finished blocks, for a reader that can tell how many it will
    /// make: the array of blocks then does not grow by doubling, each time copying every block
    /// into new pages that the system faults in. A reserve never written is address space, not
    /// memory.
    package mutating func reserveBlocks(_ count: Int) {
        blocks.reserveCapacity(count)
    }

    /// Reserves room for a block's text of `textBytes` bytes and `markups` markups: the
    /// storage is kept from block to block, so a reader that knows its input saves a short
    /// document the growth of each by doubling from empty (four or five allocations apiece).
    package mutating func reserveBlockStorage(textBytes: Int, markups count: Int) {
        text.reserveBytes(textBytes)
        markups.reserveCapacity(count)
        markupBytes.reserveCapacity(count)
        open.reserveCapacity(count)
    }

    /// Starts a block, ending the current one first.
    public mutating func startBlock(
        _ kind: BlockKind, depth: Int = 0, quoteDepth: Int = 0, quoteListDepths: [Int] = [], alignment: TextAlignment? = nil
    ) {
        if isInBlock { endBlock() }
        // `current` is the empty paragraph `endBlock` left (or the first): its fields are set
        // in place, as assigning a new block copied that block once more.
        current.kind = kind
        current.depth = depth
        current.quoteDepth = quoteDepth
        current.quoteListDepths = quoteListDepths
        current.alignment = alignment
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

    /// Sets the attributes of the block being built (the reader learns some only on the way).
    public mutating func updateCurrentBlock(_ update: (inout Block) -> Void) {
        guard isInBlock else { return }
        update(&current)
    }

    /// Ends the current block, cutting open markups at its end; they resume in the next block.
    /// An empty block is dropped unless `keepingIfEmpty`.
    public mutating func endBlock(keepingIfEmpty: Bool = true) {
        guard isInBlock else { return }
        // Taken out rather than copied (a copy retains every reference the block holds).
        var block = exchange(&current, with: Self.emptyParagraph)
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
            // document holds no spare slots (a block's markups array grew by doubling). Made in
            // place: a local array assigned to the block stayed shared with it, and sorting the
            // markups then copied them all again.
            block.markups = []
            block.markups.reserveCapacity(markups.count)
            block.markups.append(contentsOf: markups)
            if isRow, case .tableRow(let row) = block.kind, let within = row.markupsWithinCells(block.markups) {
                // A markup opened outside the table runs over the separators too.
                block.markups = within
                block.canonicalize()
            } else {
                block.canonicalize(edgesKnownFreeOfWhitespace: !repaired && edgesFreeOfWhitespace())
            }
            keepCaptionBefore(block)
            // Moved into the array, not copied: a copy retains each of the block's references
            // and releases them again when `block` goes.
            blocks.append(Self.emptyParagraph)
            swap(&block, &blocks[blocks.count - 1])
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
            markupBytes.removeAll(keepingCapacity: true)
            markupBytes.append(contentsOf: repeatElement((start: 0, end: 0), count: continuing.count))
        }
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
    /// for the reader to report. `next` is taken as it is, not as an optional: making one of
    /// it copies the block, for every block, where only a caption's next needs looking at.
    private mutating func keepCaptionBefore(_ next: Block) {
        guard let last = blocks.indices.last, case .tableCaption = blocks[last].kind, !blocks[last].captions(next) else { return }
        unmakeLastCaption()
    }

    /// A caption that ends the document has no table after it.
    private mutating func keepNoCaptionAtEnd() {
        guard let last = blocks.indices.last, case .tableCaption = blocks[last].kind else { return }
        unmakeLastCaption()
    }

    private mutating func unmakeLastCaption() {
        let last = blocks.count - 1
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
        keepNoCaptionAtEnd()
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
