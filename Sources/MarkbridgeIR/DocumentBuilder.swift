/// The one builder every reader feeds, so that no reader does offset arithmetic itself.
///
/// Readers start and end blocks, append text, and open and close markups around it (cmark's
/// enter/exit events and HTML start/end tags map straight onto this). The builder keeps the
/// running UTF-16 length, so an offset costs nothing, and hands back a canonical document.
/// A markup still open when its block ends is cut there and continues in the next block.
public struct DocumentBuilder: Sendable {
    /// A markup opened and not yet closed, returned by ``openMarkup(_:)``.
    public struct OpenMarkup: Hashable, Sendable {
        fileprivate let id: Int
    }

    private var blocks: [Block] = []
    private var current: Block?
    private var text = ""
    private var utf16Length = 0
    private var markups: [Markup] = []
    /// Open markups by id, with the offset in the current block where each began.
    private var open: [(id: Int, kind: MarkupKind, start: Int)] = []
    private var nextID = 0
    /// Collapsible whitespace seen and not yet written: it becomes one space only if more text
    /// follows in the same block (CSS `white-space: normal`).
    private var pendingSpace = false
    /// Markups opened after the pending space was noted begin after it, when it is written.
    private var pendingSpaceMark = 0

    public init() {}

    /// The UTF-16 length of the current block's text so far.
    public var currentLength: Int { utf16Length }

    /// Whether a block is started and not ended.
    public var isInBlock: Bool { current != nil }

    /// Whether the current block has no text yet.
    public var currentBlockIsEmpty: Bool { utf16Length == 0 }

    /// The last character appended to the current block, if any.
    public var lastScalar: Unicode.Scalar? { text.unicodeScalars.last }

    /// Starts a block, ending the current one first.
    public mutating func startBlock(
        _ kind: BlockKind, depth: Int = 0, quoteDepth: Int = 0, alignment: TextAlignment? = nil
    ) {
        if current != nil { endBlock() }
        current = Block(kind, depth: depth, quoteDepth: quoteDepth, alignment: alignment)
    }

    /// The kind of the block being built, if one is open.
    public var currentKind: BlockKind? { current?.kind }

    /// Appends text to the current block, starting a paragraph if none is open.
    public mutating func append(_ piece: String) {
        if current == nil { startBlock(.paragraph) }
        if pendingSpace {
            pendingSpace = false
            if utf16Length > 0 {
                for index in open.indices where open[index].id > pendingSpaceMark && open[index].start == utf16Length {
                    open[index].start += 1
                }
                text += " "
                utf16Length += 1
            }
        }
        text += piece
        utf16Length += piece.utf16.count
    }

    /// Notes collapsible whitespace: one space between words, none at the start or end of a
    /// block or right after a line break. Readers that collapse whitespace (HTML outside `pre`,
    /// Markdown soft breaks) call this instead of appending spaces.
    public mutating func appendCollapsibleSpace() {
        guard current != nil, utf16Length > 0, text.utf8.last != 0x0A else { return }
        if !pendingSpace { pendingSpaceMark = nextID }
        pendingSpace = true
    }

    /// Appends a hard line break; whitespace pending before it is dropped.
    public mutating func appendLineBreak() {
        pendingSpace = false
        append("\n")
    }

    /// Removes a line break that ends the current block, as a browser does not render a
    /// `<br>` that ends a block. Returns whether there was one.
    @discardableResult
    public mutating func removeTrailingLineBreak() -> Bool {
        guard text.utf8.last == 0x0A else { return false }
        text.removeLast()
        utf16Length -= 1
        pendingSpace = false
        return true
    }

    /// Sets the attributes of the block being built (the reader learns some only on the way).
    public mutating func updateCurrentBlock(_ update: (inout Block) -> Void) {
        guard var block = current else { return }
        update(&block)
        current = block
    }

    /// Appends an inline image: U+FFFC in the text with an IMAGE markup over it.
    public mutating func appendImage(_ image: ImageSource) {
        append("")
        let start = utf16Length
        append("\u{FFFC}")
        markups.append(Markup(.image(image), start: start, end: utf16Length))
    }

    /// Opens a markup at the current position.
    public mutating func openMarkup(_ kind: MarkupKind) -> OpenMarkup {
        nextID += 1
        open.append((nextID, kind, utf16Length))
        return OpenMarkup(id: nextID)
    }

    /// Closes a markup at the current position. Closing one already closed does nothing.
    public mutating func closeMarkup(_ handle: OpenMarkup) {
        guard let index = open.lastIndex(where: { $0.id == handle.id }) else { return }
        let entry = open.remove(at: index)
        markups.append(Markup(entry.kind, start: entry.start, end: utf16Length))
    }

    /// Ends the current block, cutting open markups at its end; they resume in the next block.
    /// An empty block is dropped unless `keepingIfEmpty`.
    public mutating func endBlock(keepingIfEmpty: Bool = true) {
        guard var block = current else { return }
        for index in open.indices {
            markups.append(Markup(open[index].kind, start: min(open[index].start, utf16Length), end: utf16Length))
            open[index].start = 0
        }
        pendingSpace = false
        if !text.isEmpty || keepingIfEmpty {
            block.text = text
            block.markups = markups.map { markup in
                var clamped = markup
                clamped.range.end = min(clamped.range.end, utf16Length)
                clamped.range.start = min(clamped.range.start, clamped.range.end)
                return clamped
            }
            block.canonicalize()
            blocks.append(block)
        }
        current = nil
        text = ""
        utf16Length = 0
        markups = []
    }

    /// The blocks finished so far.
    public var finishedBlocks: [Block] { blocks }

    /// Adds a block made elsewhere (an embedded HTML block) after the finished ones.
    public mutating func appendFinishedBlock(_ block: Block) {
        endBlock(keepingIfEmpty: false)
        blocks.append(block)
    }

    /// Changes the last finished blocks in place (a caption joining the image before it):
    /// `update` gets them from `count` back, and may remove some.
    public mutating func updateFinishedBlocks(last count: Int, _ update: (inout ArraySlice<Block>) -> Void) {
        guard blocks.count >= count else { return }
        var tail = blocks[(blocks.count - count)...]
        blocks.removeLast(count)
        update(&tail)
        blocks.append(contentsOf: tail)
    }

    /// Ends any open block and returns the canonical document.
    public mutating func finish() -> Document {
        endBlock()
        open.removeAll()
        let document = Document(blocks: blocks)
        blocks = []
        return document
    }
}
