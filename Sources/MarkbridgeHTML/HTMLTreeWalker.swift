@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// Walks the parsed tree once, iteratively (enter and exit events from an explicit stack), and
/// feeds the shared ``DocumentBuilder``: block boundaries, text with whitespace collapsed, and
/// markups opened and closed around element content.
struct HTMLTreeWalker {
    let tree: HTMLTree
    let options: HTMLReader.Options
    var builder = DocumentBuilder()
    var report = LossReport()

    /// What leaving an element must undo. It holds no reference, so that the stack of them
    /// (one per open element, pushed and popped for every element) copies plain bytes: what
    /// only a few elements need is in ``ExitExtras``.
    struct Exit {
        var node: HTMLNodeID
        var rule: HTMLElementRule?
        /// How many of the walker's `openHandles` the element opened.
        var markupCount = 0
        var pushedAlignment = false
        var pushedWhitespace = false
        var lineBreaksAtEntry = 0
        /// For a `<pre>`: how many blocks were finished when it began, to tell an empty one.
        var blocksAtEntry = 0
        /// A Word list paragraph: its item stays open after it, for deeper levels to nest in.
        var isWordListItem = false
        /// A paragraph or `<div>` inside a heading or a table caption: a line of its text.
        var isLineOfBlock = false
        /// The element has extras: the last of the walker's `exitExtras` while it is open.
        var hasExtras = false
    }

    /// What leaving an element must undo that holds references: a link's, an `<abbr>`'s, and
    /// what a style or a heading set aside. Kept on a stack beside the elements', one entry for
    /// each open element that has any.
    struct ExitExtras {
        /// Ancestors' markups the element's style turned off (by their place in `openHandles`),
        /// reopened when it ends.
        var suspended: [(index: Int, kind: MarkupKind)] = []
        /// A link: where its text began and where it points, to tell one that shows nothing.
        var link: (mark: DocumentBuilder.TextMark, href: String)?
        /// An `<abbr>` with an expansion to write after its text: where that text began.
        var abbreviation: (mark: DocumentBuilder.TextMark, expansion: String)?
        /// A list, quote, table or other structure inside a heading: the heading levels open
        /// around it, set aside while it is read and taken up again after it.
        var setAsideHeadings: [Int]?
    }

    enum WhitespaceMode { case normal, preserve, preserveLines }

    /// Quotes, lists and list items around the current position, shared with the other readers.
    var context = NestingContext()
    var headingLevels: [Int] = []
    var preDepth = 0
    var preLanguage: String?
    var alignments: [TextAlignment] = []
    var whitespaceModes: [WhitespaceMode] = []
    var tableDepth = 0
    /// Inside a table's `<caption>`: its text is a caption block.
    var captionDepth = 0
    /// The first `<caption>`, where a caption that found no table to go with is reported.
    var firstCaption: HTMLNodeID?
    var cellDepth = 0
    /// Inside an embed's fallback content: its blocks are flattened into the embed's text.
    var embedDepth = 0
    /// For each table inside a table cell, how many cells of its current row have begun.
    var cellIndex: [Int] = []
    /// The next row begins a table (it is the first of its `<table>`).
    var rowStartsTable = false
    /// The lists Word list paragraphs opened, outermost first, each whether it is ordered
    /// (see `enterWordListItem`).
    var wordLists: [Bool] = []
    /// Inside `<dt>` and `<dd>`: the kind their blocks are, innermost last, and where the element
    /// began (a list or quote inside one holds blocks of its own).
    /// `blocksAtEntry`: blocks finished when it began, to tell its further paragraphs.
    var definitionKinds: [(kind: BlockKind, depth: Int, quoteDepth: Int, blocksAtEntry: Int)] = []
    var lineBreaks = 0
    /// The markups open elements opened, innermost last (each `Exit` knows how many are its own),
    /// and the kind of each.
    var openHandles: [DocumentBuilder.OpenMarkup] = []
    var openKinds: [MarkupKind] = []
    /// Parsed `style` attributes that lost nothing (see `style(of:)`).
    var styleCache: [String: CSSStyle] = [:]
    /// The element the walk entered last: where a diagnostic found only at a block's end points.
    var walkedNode: HTMLNodeID
    /// Stops the walk, at a node, once the conversion's deadline passes or its task is cancelled.
    var countdown = DeadlineCountdown(every: 1024)
    /// The extras of the open elements that have any, innermost last (see ``ExitExtras``).
    var exitExtras: [ExitExtras] = []
    /// Scratch space for collapsing a text node's whitespace, reused from node to node.
    private var collapsed: [UInt8] = []

    init(tree: HTMLTree, options: HTMLReader.Options) {
        self.tree = tree
        self.options = options
        walkedNode = tree.contentRoot
        builder.carryBudget = DocumentBuilder.carryBudget(forInputBytes: tree.inputByteCount)
        // Article-like HTML makes about a block for every four nodes (a block element, its
        // text, an inline element or two, the whitespace between); inline-heavy HTML makes
        // fewer, and leaves the rest of the reserve untouched.
        builder.reserveBlocks(tree.nodeCount / 4)
        // No block's text is longer than the input (references aside); most are under 4 KiB.
        builder.reserveBlockStorage(textBytes: min(tree.inputByteCount, 4096), markups: min(tree.nodeCount, 16))
    }

    var diagnostics: [Diagnostic] { report.diagnostics }

    /// Where in `exitExtras` the extras of the element being entered are, begun if it has none yet.
    mutating func extrasIndex(of exit: inout Exit) -> Int {
        if !exit.hasExtras {
            exitExtras.append(ExitExtras())
            exit.hasExtras = true
        }
        return exitExtras.count - 1
    }

    mutating func walk() -> Document {
        // Depth first through the sibling links: the stack holds only the elements around the
        // current node, never their children, so it is as deep as the tree and no wider.
        var exits: [Exit] = []
        exits.reserveCapacity(16)
        // A copy to read text through while `self` changes (the same buffers, not copied).
        let tree = self.tree
        var next = tree.firstChild(of: tree.contentRoot)
        while let node = next, !countdown.shouldStop() {
            switch tree.kind(of: node) {
            case .text:
                tree.withTextBytes(of: node) { text($0) }
            case .comment:
                report.note("dropped-comment", "comment", at: tree.sourceLocation(of: node)) { "\($0) HTML comment\($0 == 1 ? "" : "s") dropped" }
            case .element:
                walkedNode = node
                let extrasAtEntry = exitExtras.count
                if let exit = enter(node) {
                    if let first = tree.firstChild(of: node) {
                        exits.append(exit)
                        next = first
                        continue
                    }
                    leave(exit)
                } else if exitExtras.count > extrasAtEntry {
                    // An element skipped after its extras began has nothing to undo.
                    exitExtras.removeLast(exitExtras.count - extrasAtEntry)
                }
            case .templateContents, .document, .fragment, .doctype:
                break
            }
            // The node is done: on to its next sibling, leaving each element whose last child it was.
            next = tree.nextSibling(of: node)
            while next == nil, let exit = exits.popLast() {
                leave(exit)
                next = tree.nextSibling(of: exit.node)
            }
        }
        closeWordLists()
        builder.endBlock(keepingIfEmpty: false)
        if builder.hasPendingAnchor {
            report.note("anchor-dropped", "id", at: tree.sourceLocation(of: walkedNode)) {
                "id (an in-page link's target) dropped where no block begins: inside text, a table cell or embedded content, or a second one for the same block (\($0)×)"
            }
        }
        let document = builder.finishPromotingLoneImages()
        if builder.depthsLowered > 0, let first = builder.firstLoweredBlock {
            let count = builder.depthsLowered
            report.add(.warning("depth-lowered", "\(count) block\(count == 1 ? "" : "s"), the first block \(first), nested deeper than the list items before \(count == 1 ? "it" : "them") (a list or text directly in a list, after an empty item): kept at the depth those items allow", at: nil))
        }
        if builder.captionsWithoutTable > 0, let caption = firstCaption {
            let count = builder.captionsWithoutTable
            report.add(.warning("table-caption-flattened", "\(count) table caption\(count == 1 ? "" : "s") with no row of \(count == 1 ? "its" : "their") table right after (a table of no rows, or a caption after the rows) read as \(count == 1 ? "a paragraph" : "paragraphs")",
                                at: tree.sourceLocation(of: caption)))
        }
        return document
    }

    // MARK: Text

    var whitespaceMode: WhitespaceMode {
        preDepth > 0 ? .preserve : whitespaceModes.last ?? .normal
    }

    mutating func text(_ bytes: Span<UInt8>) {
        // A line feed between blocks under `pre-wrap` or `pre-line` (as the HTML writer puts one
        // after each tag) would begin a block only to end it empty: it begins none, so that it
        // takes no container's first block (an empty quote stays empty, a quote beside another
        // keeps its start).
        if preDepth == 0, !builder.isInBlock, bytes.count == 1, bytes[0] == 0x0A, whitespaceMode != .normal { return }
        switch whitespaceMode {
        case .preserve:
            appendPreserved(bytes, keepingSpaces: true)
        case .preserveLines:
            appendPreserved(bytes, keepingSpaces: false)
        case .normal:
            appendCollapsed(bytes)
        }
    }

    /// CSS `white-space: normal`: runs of ASCII whitespace become one collapsible space. The
    /// text node goes to the builder in one piece, with inner runs already collapsed.
    private mutating func appendCollapsed(_ bytes: Span<UInt8>) {
        var first = 0
        while first < bytes.count, Self.isCollapsible(bytes[first]) { first += 1 }
        guard first < bytes.count else {
            if !bytes.isEmpty { builder.appendCollapsibleSpace() }
            return
        }
        if first > 0 { builder.appendCollapsibleSpace() }
        var last = bytes.count
        while last > first, Self.isCollapsible(bytes[last - 1]) { last -= 1 }
        ensureBlock()
        let inner = bytes.extracting(first..<last)
        if let utf16Count = Self.utf16CountIfCollapsed(inner) {
            builder.appendValidUTF8(inner, utf16Count: utf16Count)
        } else {
            collapsed.removeAll(keepingCapacity: true)
            var inSpace = false
            for index in inner.indices {
                let byte = inner[index]
                if Self.isCollapsible(byte) {
                    if !inSpace { collapsed.append(0x20) }
                    inSpace = true
                } else {
                    collapsed.append(byte)
                    inSpace = false
                }
            }
            // Read through a second reference: a span of `self.collapsed` would hold all of
            // `self` while the builder changes.
            let scratch = collapsed
            builder.appendValidUTF8(scratch.span)
        }
        if last < bytes.count { builder.appendCollapsibleSpace() }
    }

    /// `pre` (every character kept) and `pre-line` (newlines kept, spaces collapsed).
    private mutating func appendPreserved(_ bytes: Span<UInt8>, keepingSpaces: Bool) {
        guard !bytes.isEmpty else { return }
        if keepingSpaces {
            ensureBlock()
            builder.appendValidUTF8(bytes)
            return
        }
        var lineStart = 0
        while true {
            let lineEnd = ByteScan.firstIndex(of: 0x0A, in: bytes, from: lineStart) ?? bytes.count
            appendCollapsed(bytes.extracting(lineStart..<lineEnd))
            guard lineEnd < bytes.count else { return }
            ensureBlock()
            builder.appendLineBreak()
            lineStart = lineEnd + 1
        }
    }

    /// The UTF-16 length of `buffer` when collapsing would not change it (only a whitespace
    /// character other than a space, or two spaces in a row, would), else nil: one pass
    /// that both checks and counts, for the builder, which would otherwise count again (the
    /// text's first read after the parse is from memory, not cache, and costs the most).
    static func utf16CountIfCollapsed(_ buffer: Span<UInt8>) -> Int? {
        var index = 0
        var count = 0
        // Sixteen bytes at a time while none is below 0x0E (tab, line feed, form feed and
        // carriage return are; the rare block with one goes to the byte loop): a space
        // followed by a space is found by comparing the block with itself one byte on.
        let space = SIMD16<UInt8>(repeating: 0x20), controls = SIMD16<UInt8>(repeating: 0x0E)
        var lanes = SIMD16<UInt8>()
        var blocksInLanes = 0
        while index + 17 <= buffer.count {
            let block = ByteScan.loadBlock(buffer, at: index)
            // One test for both, the rare block that fails it told apart after.
            let doubleSpace = (block .== space) .& (ByteScan.loadBlock(buffer, at: index + 1) .== space)
            if ByteScan.anyLane((block .< controls) .| doubleSpace) {
                if ByteScan.anyLane(block .< controls) { break }
                return nil
            }
            // A lane gains at most 2 per block: summed before it could pass 255.
            lanes &+= ByteScan.utf16UnitLanes(block)
            blocksInLanes += 1
            if blocksInLanes == 127 {
                count += ByteScan.wideLaneSum(lanes)
                lanes = SIMD16()
                blocksInLanes = 0
            }
            index += 16
        }
        count += ByteScan.wideLaneSum(lanes)
        var previousWasSpace = index > 0 && buffer[index - 1] == 0x20
        while index < buffer.count {
            let byte = buffer[index]
            if byte == 0x20 {
                if previousWasSpace { return nil }
                previousWasSpace = true
            } else {
                if byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D { return nil }
                previousWasSpace = false
            }
            count += (byte & 0xC0 != 0x80 ? 1 : 0) + (byte >= 0xF0 ? 1 : 0)
            index += 1
        }
        return count
    }

    static func isCollapsible(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    // MARK: Blocks

    /// Starts the block the current context calls for, if none is open.
    mutating func ensureBlock() {
        guard !builder.isInBlock else { return }
        if preDepth > 0 {
            builder.startBlock(.codeBlock(language: preLanguage), in: &context, alignment: alignments.last)
        } else if let level = headingLevels.last {
            builder.startBlock(.heading(level: level), in: &context, alignment: alignments.last)
        } else if captionDepth > 0 && cellDepth == 0 {
            builder.startBlock(.tableCaption, enclosedBy: &context, alignment: alignments.last)
        } else if let definition = definitionKinds.last, definition.depth == context.blockDepth, definition.quoteDepth == context.quoteDepth,
                  !context.hasPendingItem {
            // A further paragraph of the element (`<dd><p>one</p><p>two</p></dd>`) goes on from
            // its first; the builder makes one that has nothing to go on from begin one.
            let continues = builder.finishedBlockCount > definition.blocksAtEntry
            builder.startBlock(definition.kind.definition(continuing: continues), enclosedBy: &context, alignment: alignments.last)
        } else if cellDepth > 0 {
            // Text in a cell whose row block ended (a reader's slip): a row of its own, made a
            // paragraph as it has no cells.
            builder.startBlock(.tableRow(TableRow(cells: [])), enclosedBy: &context)
        } else {
            builder.startBlock(.paragraph, in: &context, alignment: alignments.last)
        }
    }

    /// Ends the current block. An empty block is kept only when asked (an intentional blank
    /// line, a list item); a `<br>` that ends a block is not rendered by browsers, so it goes.
    mutating func breakBlock(keepingIfEmpty: Bool = false) {
        guard builder.isInBlock else { return }
        builder.removeTrailingLineBreak()
        let letGo = builder.markupsLetGo
        builder.endBlock(keepingIfEmpty: keepingIfEmpty)
        if builder.markupsLetGo != letGo { reportFormattingLetGo(count: builder.markupsLetGo - letGo) }
    }

    /// Formatting open over more blocks than the carry budget allows ends where the budget ran out.
    private mutating func reportFormattingLetGo(count: Int) {
        let location = tree.sourceLocation(of: walkedNode)
        for _ in 0..<count {
            report.note("formatting-limit", "carried", at: location) {
                "formatting left open over more blocks than the input has room for (one markup carried per \(DocumentBuilder.inputBytesPerCarriedMarkup) input bytes): \($0) markup\($0 == 1 ? "" : "s") ended early, the text kept without them"
            }
        }
    }

    /// A list item whose first content is not a paragraph (a nested list, a code block) still
    /// gets its own, empty, item block first, so depths stay meaningful.
    mutating func startPendingListItem() {
        guard cellDepth == 0 else { return }
        breakBlock()
        builder.flushPendingItem(in: &context)
    }
}
