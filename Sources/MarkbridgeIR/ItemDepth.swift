/// Which depths the list items before a block allow it. A block at depth d is inside the item
/// at depth d - 1 before it (``Block``), so one must be open: no reader makes a block deeper
/// than that (an item whose first content is a nested list gets an empty item first), and no
/// writer could write one so that it reads back, since a depth with no item is no place in
/// HTML or Markdown (a heading there would read back as indented code).
package struct ItemDepthWalk: Sendable {
    /// How many list items are open after the blocks walked: items at depths 0 to this minus 1.
    public private(set) var openItems = 0

    public init() {}

    /// The deepest depth the items open before `block` allow it (its own depth when that is
    /// allowed), after which `block` is walked as if it were there.
    public mutating func allowedDepth(for block: Block) -> Int {
        let depth = min(max(block.depth, 0), openItems)
        // An item opens its own level; any other block closes the levels inside it.
        openItems = block.kind.isListItem ? depth + 1 : depth
        return depth
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
}
