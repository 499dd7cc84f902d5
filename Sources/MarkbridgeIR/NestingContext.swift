/// The containers readers are inside of (quotes, lists, list items) and what they make of the
/// next block: its kind (a list item's first block is the item itself), `depth` and
/// `quoteDepth`. Shared so that every reader flattens nesting the same way (see ``Block``).
package struct NestingContext: Sendable {
    struct List: Sendable {
        var ordered: Bool
        /// The number the next item shows, at most one past ``ListNumber/range``.
        var next: Int
        /// Whether an item of it has begun.
        var hasItem = false
        /// Whether no block has begun in it yet: the next block's ``Block/containerStart`` says so.
        var isFresh = true
    }

    struct Item: Sendable {
        var ordered: Bool
        var number: Int
        var started = false
        /// The item's task state, for its own block when it begins.
        var taskState: TaskState?
    }

    public private(set) var quoteDepth = 0
    private var lists: [List] = []
    private var items: [Item] = []
    /// For each open quote, outermost first, the depth of blocks where it began: how many list
    /// items enclose it.
    private var quoteListDepthStack: [Int] = []
    /// How many open quotes are inside a list item: while none is, blocks need no
    /// ``quoteListDepths(forDepth:)``. A count, so that leaving a quote is constant time.
    private var quotesInItems = 0
    /// How many open quotes, outermost first, have had a block begin in them: the ones after
    /// are fresh (every block begins inside all open quotes, so the fresh ones are always the
    /// innermost).
    private var quotesWithBlocks = 0
    /// A definition list was entered and no term or definition has begun in it yet.
    private var definitionListIsFresh = false

    public init() {}

    public mutating func enterQuote() {
        quoteDepth += 1
        let enclosingItems = blockDepth
        quoteListDepthStack.append(enclosingItems)
        if enclosingItems > 0 { quotesInItems += 1 }
    }

    /// For each open quote, outermost first, how many list items enclose it.
    public var openQuoteListDepths: [Int] { quoteListDepthStack }

    /// The block's ``Block/quoteListDepths`` for a block at `depth` here: empty when every open
    /// quote encloses all the lists.
    public func quoteListDepths(forDepth depth: Int) -> [Int] {
        guard quotesInItems > 0 else { return [] }
        let quotes = quoteListDepthStack.prefix(IRLimits.maxDepth).map { min($0, depth) }
        return quotes.contains(where: { $0 != 0 }) ? Array(quotes) : []
    }

    /// Whether the containers open now are nested past ``IRLimits/maxDepth``: blocks here are
    /// kept at the deepest depth the IR has, which the reader reports.
    public var isBeyondDepthLimit: Bool { lists.count > IRLimits.maxDepth + 1 || quoteDepth > IRLimits.maxDepth }
    public mutating func leaveQuote() {
        quoteDepth = max(0, quoteDepth - 1)
        quotesWithBlocks = min(quotesWithBlocks, quoteDepth)
        if let last = quoteListDepthStack.popLast(), last > 0 { quotesInItems -= 1 }
    }

    /// Opens a list whose first item shows `start`. Returns `start` when it is outside
    /// ``ListNumber/range`` and was clamped, for the reader to report.
    @discardableResult
    public mutating func enterList(ordered: Bool, start: Int) -> Int? {
        let clamped = ListNumber.clamped(start)
        lists.append(List(ordered: ordered, next: clamped))
        return clamped == start ? nil : start
    }

    public mutating func leaveList() {
        if !lists.isEmpty { lists.removeLast() }
    }

    /// Whether no block has begun in the innermost quote: an empty quote, which a reader
    /// leaving it gives an empty ``BlockKind/blockquote`` block to stand for it.
    public var innermostQuoteIsEmpty: Bool { quoteDepth > quotesWithBlocks }

    /// A definition list begins (`<dl>`): its first term or definition begins it.
    public mutating func enterDefinitionList() { definitionListIsFresh = true }
    public mutating func leaveDefinitionList() { definitionListIsFresh = false }

    /// The ``Block/containerStart`` of a block beginning here: the outermost of its containers
    /// in which no block has begun yet. Every container of the block then has one.
    public mutating func takeContainerStart(for block: Block) -> Int? {
        // The usual block, in no container: nothing to look up.
        guard block.containerChainCount > 0 else {
            quotesWithBlocks = quoteDepth
            return nil
        }
        var start: Int?
        var quote = 0
        let chain = block.unusualContainerChain
        for index in 0..<block.containerChainCount {
            let isFresh: Bool
            switch chain?[index] ?? block.linkOfPlainChain(at: index) {
            case .quote:
                isFresh = quote >= quotesWithBlocks && quote < quoteDepth
                quote += 1
            case .listItem(let depth):
                isFresh = takeFreshList(at: depth)
            case .list:
                isFresh = takeFreshList(at: block.depth)
            case .definitionList:
                isFresh = definitionListIsFresh
                definitionListIsFresh = false
            }
            if isFresh, start == nil { start = index }
        }
        // Every open quote encloses the block, those past the depth limit too.
        quotesWithBlocks = quoteDepth
        return start
    }

    private mutating func takeFreshList(at depth: Int) -> Bool {
        guard depth >= 0, depth < lists.count, lists[depth].isFresh else { return false }
        lists[depth].isFresh = false
        return true
    }

    /// Opens an item of the innermost list (or a stray item outside any list), numbered `value`
    /// when given, else after the list's previous item. Returns the number it would have shown
    /// when that is outside ``ListNumber/range`` and was clamped (only an ordered item's number
    /// is shown, so only its clamping is returned).
    @discardableResult
    public mutating func enterItem(value: Int? = nil) -> Int? {
        let ordered = lists.last?.ordered ?? false
        let wanted = value ?? lists.last?.next ?? 1
        let number = ListNumber.clamped(wanted)
        // At most one past the range, so it cannot overflow, and the item after the largest
        // number is reported as clamped.
        if !lists.isEmpty {
            lists[lists.count - 1].next = number + 1
            lists[lists.count - 1].hasItem = true
        }
        items.append(Item(ordered: ordered, number: number))
        return ordered && number != wanted ? wanted : nil
    }

    /// Marks the innermost item, whose own block has not begun, as a task: its block carries
    /// the state. Returns false when there is no such item (the state has no block to go to).
    @discardableResult
    public mutating func markPendingItem(_ state: TaskState) -> Bool {
        guard let item = items.last, !item.started else { return false }
        items[items.count - 1].taskState = state
        return true
    }

    public mutating func leaveItem() {
        if !items.isEmpty { items.removeLast() }
    }

    /// Whether a list opened now would be directly in a list none of whose items has begun
    /// (`<ul><ul>`): it nests under an item, so an empty one comes first.
    public var nestedListNeedsItem: Bool { lists.last.map { !$0.hasItem } ?? false }

    /// Whether the innermost item has not yet produced its own block.
    public var hasPendingItem: Bool { items.last.map { !$0.started } ?? false }

    /// Depth of a block that is not a list item: how many list levels enclose it.
    public var blockDepth: Int { min(items.isEmpty ? 0 : max(lists.count, 1), IRLimits.maxDepth) }

    /// The kind and depth of the next block: the pending item itself when there is one and the
    /// block is paragraph-like, else `kind` at the enclosing depth.
    public mutating func nextBlock(_ kind: BlockKind) -> (kind: BlockKind, depth: Int, taskState: TaskState?) {
        if kind == .paragraph, let item = items.last, !item.started {
            items[items.count - 1].started = true
            return (item.ordered ? .orderedListItem(number: item.number) : .unorderedListItem, min(max(lists.count - 1, 0), IRLimits.maxDepth), item.taskState)
        }
        return (kind, blockDepth, nil)
    }
}

extension DocumentBuilder {
    /// Starts the next block as `context` says, with its quote depth. A block other than a
    /// paragraph cannot be an item's own, so an item that has none yet gets its empty one first
    /// (`<pre><li>a</li></pre>`: the item, then the code in it), as readers of every format
    /// need an item before a block at its depth.
    package mutating func startBlock(_ kind: BlockKind, in context: inout NestingContext, alignment: TextAlignment? = nil) {
        if kind != .paragraph { flushPendingItem(in: &context) }
        let next = context.nextBlock(kind)
        startBlock(next.kind, depth: next.depth, quoteDepth: min(context.quoteDepth, IRLimits.maxDepth),
                   quoteListDepths: context.quoteListDepths(forDepth: next.depth), alignment: alignment)
        if let task = next.taskState { updateCurrentBlock { $0.taskState = task } }
        takeContainerStart(from: &context)
    }

    /// Marks where the block just begun sits among containers that begin with it.
    private mutating func takeContainerStart(from context: inout NestingContext) {
        guard isInBlock, let start = context.takeContainerStart(for: current) else { return }
        current.containerStart = start
    }

    /// Starts a block that is never a list item's own (a rule, an embed, a table row) at the
    /// depth the context's containers give.
    package mutating func startBlock(_ kind: BlockKind, enclosedBy context: inout NestingContext, alignment: TextAlignment? = nil) {
        let depth = context.blockDepth
        startBlock(kind, depth: depth, quoteDepth: min(context.quoteDepth, IRLimits.maxDepth),
                   quoteListDepths: context.quoteListDepths(forDepth: depth), alignment: alignment)
        takeContainerStart(from: &context)
    }

    /// The empty ``BlockKind/blockquote`` block that stands for a quote with nothing in it, for
    /// a reader to add just before it leaves the quote, if nothing began in it.
    package mutating func addBlockForEmptyQuote(in context: inout NestingContext) {
        guard context.innermostQuoteIsEmpty else { return }
        endBlock(keepingIfEmpty: false)
        startBlock(.blockquote, enclosedBy: &context)
        endBlock(keepingIfEmpty: true)
    }

    /// The empty item a list needs before a list nested directly in it (see
    /// ``NestingContext/nestedListNeedsItem``), so that every format reads the nesting alike.
    package mutating func addItemForNestedList(in context: inout NestingContext) {
        guard context.nestedListNeedsItem else { return }
        endBlock(keepingIfEmpty: false)
        _ = context.enterItem()
        startBlock(.paragraph, in: &context)
        endBlock(keepingIfEmpty: true)
        context.leaveItem()
    }

    /// A list item whose first content is not a paragraph (a nested list, a code block) gets its
    /// own, empty, item block first, so depths stay meaningful.
    package mutating func flushPendingItem(in context: inout NestingContext) {
        guard context.hasPendingItem else { return }
        endBlock(keepingIfEmpty: false)
        startBlock(.paragraph, in: &context)
        endBlock(keepingIfEmpty: true)
    }
}
