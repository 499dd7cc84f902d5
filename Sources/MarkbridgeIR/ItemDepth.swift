/// Which depths the list items before a block allow it. A block at depth d is inside the item
/// at depth d - 1 before it (``Block``), so one must be open: no reader makes a block deeper
/// than that (an item whose first content is a nested list gets an empty item first), and no
/// writer could write one so that it reads back, since a depth with no item is no place in
/// HTML or Markdown (a heading there would read back as indented code).
///
/// Open where the block stands: an item goes on only where the containers around it do, as
/// ``ContainerWalk`` places them. A quote that begins at the block (or a quote the item before
/// was not in) holds no item yet, so after `1. three` a quote's paragraph at depth 1 (the
/// quote outermost, as empty ``Block/quoteListDepths`` says) has no item to be in.
package struct ItemDepthWalk: Sendable {
    @usableFromInline var containers = ContainerWalk()
    /// Whether ``containers`` holds what is open after the block before; blocks whose quotes
    /// all enclose their items are not placed in it, and it is rebuilt from the facts below
    /// when a block with a quote inside an item comes.
    @usableFromInline var containersCurrent = true
    /// The block before, as placed: its depth, whether it is an item, its quotes (nil when one
    /// is inside an item).
    @usableFromInline var previousDepth = 0
    @usableFromInline var previousIsItem = false
    @usableFromInline var previousQuotes: Int? = 0

    public init() {}

    /// The deepest depth the items open before `block` allow it (its own depth when that is
    /// allowed), after which `block` is walked as if it were there.
    ///
    /// Quotes outermost and items inside them, as most blocks are: the items go on only inside
    /// the same quotes, each the one before's or one deeper (after an item). That is what
    /// ``ContainerWalk`` finds, counted here without walking it (walked, it was 2% of reading
    /// HTML); `ItemDepthTests` holds the two equal. Inlinable, so that the caller's block is read
    /// in place rather than copied (a copy per block cost 1% of reading HTML).
    @inlinable
    public mutating func allowedDepth(for block: Block) -> Int {
        guard block.quoteListDepths.isEmpty, let previousQuotes else { return walkedAllowedDepth(for: block) }
        let quotes = max(block.quoteDepth, 0)
        let allowed = quotes == previousQuotes ? min(max(block.depth, 0), previousIsItem ? previousDepth + 1 : previousDepth) : 0
        containersCurrent = false
        previousDepth = allowed
        previousIsItem = block.kind.isListItem
        self.previousQuotes = quotes
        return allowed
    }

    /// ``allowedDepth(for:)`` where a quote is inside an item, here or in the block before.
    @inline(never) @usableFromInline
    mutating func walkedAllowedDepth(for block: Block) -> Int {
        if !containersCurrent {
            // Which list kind is open does not change which items go on, so an unordered
            // item (or a paragraph) where the block before was placed stands for it.
            containers = ContainerWalk()
            let previous = Block(previousIsItem ? .unorderedListItem : .paragraph, depth: previousDepth, quoteDepth: previousQuotes ?? 0)
            _ = containers.place(previous)
            containersCurrent = true
        }
        let allowed = containers.enclosingItemsGoingOn(block)
        // Two calls, not one of a conditional value: that copied every block (4% more
        // retains and releases reading HTML).
        if allowed < block.depth {
            _ = containers.place(block.moved(toDepth: allowed))
        } else {
            _ = containers.place(block)
        }
        previousDepth = allowed
        previousIsItem = block.kind.isListItem
        // A block moved up keeps only the quotes its new depth leaves inside items.
        previousQuotes = block.quoteListDepths.contains { min($0, allowed) != 0 } ? nil : max(block.quoteDepth, 0)
        return allowed
    }
}

extension ContainerWalk {
    /// How many of `block`'s enclosing list items go on from the blocks placed before it: its
    /// depth when all do, else the depth of the first that does not (the items before it do).
    /// A link goes on where the same container is open at its place, as ``place(_:)`` decides.
    package func enclosingItemsGoingOn(_ block: Block) -> Int {
        let depth = max(block.depth, 0)
        guard depth > 0 else { return 0 }
        let chain = block.unusualContainerChain
        var place = 0
        for index in 0..<block.containerChainCount {
            switch chain?[index] ?? block.linkOfPlainChain(at: index) {
            case .quote:
                guard place < open.count, open[place] == .quote else { return itemsBefore(index, in: block, chain) }
                place += 1
            case .listItem(let itemDepth):
                guard place + 1 < open.count, case .list = open[place], open[place + 1] == .item else { return itemDepth }
                place += 2
            case .list, .definitionList:
                // The block's own container comes after all its enclosing items.
                return depth
            }
        }
        return depth
    }

    /// The depth of the first enclosing item at or after link `index`: how many items stand before it.
    private func itemsBefore(_ index: Int, in block: Block, _ chain: [ContainerLink]?) -> Int {
        for later in index..<block.containerChainCount {
            if case .listItem(let itemDepth) = chain?[later] ?? block.linkOfPlainChain(at: later) { return itemDepth }
        }
        return max(block.depth, 0)
    }
}

extension Block {
    /// The block at `depth`, its quotes' places among the items kept within it.
    package func moved(toDepth newDepth: Int) -> Block {
        var copy = self
        copy.depth = newDepth
        if !quoteListDepths.isEmpty {
            copy.quoteListDepths = quoteListDepths.map { min($0, newDepth) }
            if !copy.quoteListDepths.contains(where: { $0 != 0 }) { copy.quoteListDepths = [] }
        }
        return copy
    }

    /// Whether this block is the first that `item`, an empty list item just before it, holds
    /// in its own container: one depth deeper, in the item's quote (a quote the item opens is
    /// deeper and written apart). A paragraph there (inside a quote, a BQ) has no way in HTML
    /// (`<li><p>`) or Markdown to be written apart from the item: read back, it is the item's
    /// text. Each writer says so where it writes one.
    package func isFirstInEmptyItem(_ item: Block) -> Bool {
        item.kind.isListItem && item.text.isEmpty && depth == item.depth + 1
            && quoteDepth == item.quoteDepth && quoteListDepths == item.quoteListDepths
    }
}
