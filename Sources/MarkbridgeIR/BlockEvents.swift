extension Document {
    /// The document's blocks as the tree they stand for, one ``BlockEvent`` at a time: enter
    /// and exit events, properly nested, for quotes, lists, list items, tables, rows, cells,
    /// definition lists and the blocks shown with their text. A renderer of its own is one loop
    /// over it with one `switch`, as cmark's renderers are over its iterator:
    ///
    /// ```swift
    /// for event in document.blockEvents {
    ///     switch event {
    ///     case .enter(.block(let index)): print(document.blocks[index].text)
    ///     case .enter, .exit: break
    ///     }
    /// }
    /// ```
    ///
    /// The nesting is the HTML writer's (`<blockquote>`, `<ul>`/`<ol>`, `<li>`, `<table>`,
    /// `<tr>`, `<td>`, `<dl>`), derived from ``Block/depth``, ``Block/quoteDepth``,
    /// ``Block/quoteListDepths`` and ``Block/containerStart`` by the one rule every reader and
    /// writer shares. Every block but a table row is entered as ``BlockNode/block(_:)`` once,
    /// in order, except an empty ``BlockKind/blockquote`` that stands for an empty quote: that
    /// is the quote's enter and exit alone. The walk holds no recursion and takes time linear
    /// in the blocks, their containers and their cells.
    public var blockEvents: BlockEvents { BlockEvents(blocks) }
}

/// A document's blocks as enter and exit events (see ``Document/blockEvents``).
public struct BlockEvents: Sequence, Sendable {
    private let blocks: [Block]

    init(_ blocks: [Block]) { self.blocks = blocks }

    public func makeIterator() -> Iterator { Iterator(blocks) }

    /// Yields the events of one block at a time: the containers that end before it, those that
    /// begin at it, then the block itself.
    public struct Iterator: IteratorProtocol, Sendable {
        private let blocks: [Block]
        private var index = 0
        /// Where each block's containers begin, as every writer places them.
        private var walk = ContainerWalk()
        /// The containers open, outermost first: their slots match the walk's (a list item
        /// takes two, its list and itself), but for the table a caption begins.
        private var open: [BlockNode] = []
        /// The events of the block placed last, the first `pendingCount` of `pending` (its
        /// storage reused from block to block), yielded from `cursor` on.
        private var pending: [BlockEvent] = []
        private var pendingCount = 0
        private var cursor = 0

        init(_ blocks: [Block]) { self.blocks = blocks }

        public mutating func next() -> BlockEvent? {
            while cursor == pendingCount {
                pendingCount = 0
                cursor = 0
                if index < blocks.count {
                    place(index)
                    index += 1
                } else if let last = open.popLast() {
                    emit(.exit(last))
                } else {
                    return nil
                }
            }
            defer { cursor += 1 }
            return pending[cursor]
        }

        @inline(__always)
        private mutating func emit(_ event: BlockEvent) {
            if pendingCount < pending.count { pending[pendingCount] = event } else { pending.append(event) }
            pendingCount += 1
        }

        /// Closes and opens containers so that the block at `index` sits where its containers
        /// say, as the HTML writer does, then adds the block.
        private mutating func place(_ index: Int) {
            // The block's fields are read where it lies: bound whole, it would be copied out of
            // the array, a retain of each of its references.
            let placement = walk.place(blocks.containerShape(at: index))
            let target = walk.open
            let isItem = blocks[index].kind.isListItem
            var isRow = false
            var isCaption = false
            switch blocks[index].kind {
            case .tableRow: isRow = true
            case .tableCaption: isCaption = true
            case .paragraph, .heading, .blockquote, .unorderedListItem, .orderedListItem, .codeBlock, .image, .embed, .definitionTerm, .definitionDescription, .horizontalRule: break
            }
            let chainSlots = target.count - (isItem ? 1 : 0) - (isRow ? 1 : 0)
            // Containers from the placement's start on begin here; those before go on.
            var keep = chainSlots
            if placement.start < placement.chainCount {
                keep = 0
                for link in blocks[index].containerChain.prefix(placement.start) {
                    if case .listItem = link { keep += 2 } else { keep += 1 }
                }
            } else if case .tableRow(let row) = blocks[index].kind, keep < open.count, open[keep] == .table,
                      !row.startsTable || (index > 0 && blocks[index - 1].captions(blocks[index])) {
                // A row goes on in the table open at its place, unless it starts one of its own.
                keep += 1
            }
            keep = Swift.min(keep, open.count)
            while open.count > keep { emit(.exit(open.removeLast())) }
            // A caption begins its table, which its first row goes on in: one slot after the walk's.
            for slot in keep..<Swift.max(keep, target.count + (isCaption ? 1 : 0)) {
                let node: BlockNode
                switch slot < target.count ? target[slot] : .table {
                case .quote: node = .quote
                case .list(ordered: false): node = .unorderedList
                case .list(ordered: true):
                    // As the HTML writer's `<ol start>`: the number of the item that begins it.
                    if case .orderedListItem(let number) = blocks[index].kind {
                        node = .orderedList(start: number)
                    } else {
                        node = .orderedList(start: 1)
                    }
                case .item: node = .listItem(block: isItem && slot == chainSlots ? index : nil)
                case .table: node = .table
                case .definitionList: node = .definitionList
                }
                open.append(node)
                emit(.enter(node))
            }
            // An empty quote that begins here is the quote alone.
            // (`standsForEmptyQuote` holds only for a block whose innermost container is a quote,
            // the chain's last slot.)
            if keep < chainSlots, blocks[index].kind == .blockquote, blocks[index].text.isEmpty,
               blocks[index].standsForEmptyQuote(before: index + 1 < blocks.count ? blocks[index + 1] : nil) { return }
            if case .tableRow(let row) = blocks[index].kind {
                emit(.enter(.tableRow(block: index)))
                for cell in row.cells.indices {
                    emit(.enter(.tableCell(block: index, cell: cell)))
                    emit(.exit(.tableCell(block: index, cell: cell)))
                }
                emit(.exit(.tableRow(block: index)))
            } else {
                emit(.enter(.block(index)))
                emit(.exit(.block(index)))
            }
        }
    }
}
