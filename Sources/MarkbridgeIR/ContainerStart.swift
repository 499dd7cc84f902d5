/// Where containers begin. Flattened nesting says which containers enclose a block, not whether
/// they are the ones around the block before: `<ul><li>a</li></ul><ul><li>b</li></ul>` and
/// `<ul><li>a</li><li>b</li></ul>` have the same depths. ``Block/containerStart`` says it, as
/// ``TableRow/startsTable`` does for tables, over the block's ``Block/containerChain``.

/// One container in a block's ``Block/containerChain``.
package enum ContainerLink: Hashable, Sendable {
    case quote
    /// An enclosing list item (and the list it is in), at the given depth.
    case listItem(depth: Int)
    /// The list a list item block is in: the block is that list's item, so the item itself
    /// always begins at the block and only its list may go on.
    case list(ordered: Bool)
    /// The definition list a term or definition is in.
    case definitionList
}

extension Block {
    /// The containers ``containerStart`` counts, outermost first: ``containers`` (quotes and
    /// enclosing list items), then the block's own list (a list item) or definition list (a
    /// term or definition). A table row's table is not among them: ``TableRow/startsTable``
    /// says where it begins.
    package var containerChain: [ContainerLink] {
        var chain: [ContainerLink] = []
        if quoteListDepths.isEmpty {
            chain.append(contentsOf: repeatElement(.quote, count: max(quoteDepth, 0)))
            for level in 0..<max(depth, 0) { chain.append(.listItem(depth: level)) }
        } else {
            for container in containers {
                switch container {
                case .quote: chain.append(.quote)
                case .listItem(let depth): chain.append(.listItem(depth: depth))
                }
            }
        }
        if let own = ownContainer { chain.append(own) }
        return chain
    }

    /// The list a list item is in, or the definition list of a term or definition.
    package var ownContainer: ContainerLink? {
        switch kind {
        case .unorderedListItem: .list(ordered: false)
        case .orderedListItem: .list(ordered: true)
        case .definitionTerm, .definitionDescription: .definitionList
        case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .tableRow, .tableCaption, .horizontalRule: nil
        }
    }

    /// The link at `index` of ``containerChain`` for a block without ``quoteListDepths`` (its
    /// quotes, then its enclosing items, then its own container), without building the chain.
    package func linkOfPlainChain(at index: Int) -> ContainerLink {
        ContainerLink.ofPlainChain(at: index, quoteDepth: quoteDepth, depth: depth, own: ownContainer)
    }

    /// ``containerChain`` built, for a block whose quotes do not all enclose its lists (it has
    /// ``quoteListDepths``); nil for the usual block, whose chain ``linkOfPlainChain(at:)`` reads
    /// link by link without an array.
    package var unusualContainerChain: [ContainerLink]? {
        quoteListDepths.isEmpty ? nil : containerChain
    }

    /// How many containers ``containerChain`` holds, without building it.
    package var containerChainCount: Int { ContainerLink.plainChainCount(quoteDepth: quoteDepth, depth: depth, own: ownContainer) }
}

extension ContainerLink {
    /// The link at `index` of a plain chain: `quoteDepth` quotes, then the items enclosing a
    /// block at `depth`, then the block's own container.
    static func ofPlainChain(at index: Int, quoteDepth: Int, depth: Int, own: ContainerLink?) -> ContainerLink {
        let quotes = max(quoteDepth, 0)
        if index < quotes { return .quote }
        if index < quotes + max(depth, 0) { return .listItem(depth: index - quotes) }
        // `index` is below the chain's count, so a block without a container of its own never gets here.
        return own ?? .quote
    }

    /// How many links a plain chain holds.
    static func plainChainCount(quoteDepth: Int, depth: Int, own: ContainerLink?) -> Int {
        max(depth, 0) + max(quoteDepth, 0) + (own == nil ? 0 : 1)
    }
}

/// Walks a document's blocks in order, keeping the containers open after each (as a writer
/// that nests elements does), and says where each block's containers begin: every reader
/// and writer agrees on it through this one rule.
///
/// A container of a block's chain goes on from the block before when the containers before
/// it do and the same container is open at that place: a quote, an item's list and the item,
/// a list of the same kind (an ordered list never goes on as an unordered one), a definition
/// list. The first one that does not is where the block's containers begin "naturally";
/// ``Block/containerStart`` can only make them begin sooner.
package struct ContainerWalk: Sendable {
    /// What is open after a block, as an HTML writer nests it.
    public enum Open: Hashable, Sendable {
        case quote
        case list(ordered: Bool)
        case item
        case table
        case definitionList
    }

    /// Where a block's containers begin, in indices of its ``Block/containerChain``.
    public struct Placement: Hashable, Sendable {
        /// The first container that does not go on from the block before; the chain's count
        /// when all do.
        public var natural: Int
        /// The first container that begins here, ``Block/containerStart`` considered: at most `natural`.
        public var start: Int
        public var chainCount: Int

        /// ``Block/containerStart`` as canonical form writes it: only a start before `natural`.
        public var canonicalContainerStart: Int? { start < natural ? start : nil }
    }

    public private(set) var open: [Open] = []
    /// The containers of the block placed before the last, kept for their storage: each block's
    /// are built here and swapped with ``open``, so that placing allocates nothing once the
    /// deepest nesting has been seen.
    private var spare: [Open] = []

    public init() {}

    /// What of a block ``place(_:)`` reads. A document's pass builds it from the block where it
    /// lies (``Swift/Array/containerShape(at:)``): passing the block itself copies it out of its
    /// array, retaining each of its references, and after the build those are cold in the cache.
    package struct Shape {
        var depth: Int
        var quoteDepth: Int
        var ownContainer: ContainerLink?
        var isTableRow: Bool
        var containerStart: Int?
        /// The block's ``Block/containerChain`` when its quotes do not all enclose its lists
        /// (it has ``Block/quoteListDepths``); nil for the usual block, whose chain is plain.
        var unusualChain: [ContainerLink]?

        package init(_ block: Block) {
            depth = block.depth
            quoteDepth = block.quoteDepth
            ownContainer = block.ownContainer
            isTableRow = block.kind.isTableRow
            containerStart = block.containerStart
            unusualChain = block.unusualContainerChain
        }

        init(depth: Int, quoteDepth: Int, ownContainer: ContainerLink?, isTableRow: Bool, containerStart: Int?,
             unusualChain: [ContainerLink]?) {
            self.depth = depth
            self.quoteDepth = quoteDepth
            self.ownContainer = ownContainer
            self.isTableRow = isTableRow
            self.containerStart = containerStart
            self.unusualChain = unusualChain
        }

        var chainCount: Int { ContainerLink.plainChainCount(quoteDepth: quoteDepth, depth: depth, own: ownContainer) }

        func link(at index: Int) -> ContainerLink {
            unusualChain?[index] ?? ContainerLink.ofPlainChain(at: index, quoteDepth: quoteDepth, depth: depth, own: ownContainer)
        }
    }

    /// Places `block` after the blocks placed before it.
    public mutating func place(_ block: Block) -> Placement {
        place(Shape(block))
    }

    /// Places the block `shape` describes after the blocks placed before it.
    package mutating func place(_ block: Shape) -> Placement {
        let count = block.chainCount
        if count == 0 {
            // The usual block, in no container: nothing goes on, only its table may be open after it.
            if !open.isEmpty { open.removeAll(keepingCapacity: true) }
            if block.isTableRow { open.append(.table) }
            return Placement(natural: 0, start: 0, chainCount: 0)
        }
        var target: [Open] = []
        swap(&target, &spare)
        target.removeAll(keepingCapacity: true)
        target.reserveCapacity(count + block.depth + 2)
        var natural: Int?
        var lastItemLink = -1
        for index in 0..<count {
            let link = block.link(at: index)
            let from = target.count
            switch link {
            case .quote:
                target.append(.quote)
            case .listItem:
                lastItemLink = index
                // An enclosing item's list is of the kind open there: its own item said so.
                if from < open.count, case .list(let ordered) = open[from] {
                    target.append(.list(ordered: ordered))
                } else {
                    target.append(.list(ordered: false))
                }
                target.append(.item)
            case .list(let ordered):
                target.append(.list(ordered: ordered))
            case .definitionList:
                target.append(.definitionList)
            }
            if natural == nil, (from..<target.count).contains(where: { $0 >= open.count || open[$0] != target[$0] }) {
                natural = index
            }
        }
        let naturalStart = natural ?? count
        var start = naturalStart
        if var given = block.containerStart {
            // An enclosing item cannot begin at a block that is not its own first: a start
            // outside one moves in past it.
            given = max(given, lastItemLink + 1, 0)
            start = min(start, given)
        }
        // Only a list item has a list of its own.
        if case .list = block.ownContainer { target.append(.item) }
        if block.isTableRow { target.append(.table) }
        spare = open
        open = target
        return Placement(natural: naturalStart, start: start, chainCount: count)
    }
}

extension [Block] {
    /// The ``ContainerWalk/Shape`` of the block at `index`, read where it lies: each field is
    /// read in place, and the block is not copied (which would retain its text, markups and
    /// the rest).
    package func containerShape(at index: Int) -> ContainerWalk.Shape {
        ContainerWalk.Shape(depth: self[index].depth, quoteDepth: self[index].quoteDepth,
                            ownContainer: self[index].ownContainer, isTableRow: self[index].kind.isTableRow,
                            containerStart: self[index].containerStart,
                            unusualChain: self[index].unusualContainerChain)
    }

    /// Where each block's containers begin (see ``ContainerWalk``).
    package func containerPlacements() -> [ContainerWalk.Placement] {
        var walk = ContainerWalk()
        return map { walk.place($0) }
    }
}

extension Document {
    /// Gives every block the ``Block/containerStart`` canonical form has: kept only where it
    /// says something the blocks before do not (a start on a document's first block, or on the
    /// first item after a paragraph, follows anyway), and moved in past enclosing list items.
    package mutating func canonicalizeContainerStarts() {
        guard blocks.indices.contains(where: { blocks[$0].containerStart != nil }) else { return }
        var walk = ContainerWalk()
        for index in blocks.indices {
            let canonical = walk.place(blocks.containerShape(at: index)).canonicalContainerStart
            if blocks[index].containerStart != canonical { blocks[index].containerStart = canonical }
            // A table inside a container that begins here begins here too.
            if canonical != nil, case .tableRow(var row) = blocks[index].kind, !row.startsTable {
                row.startsTable = true
                blocks[index].kind = .tableRow(row)
            }
        }
    }
}

extension Block {
    /// Whether the block stands for an empty quote, which writers write as the quote alone
    /// (`<blockquote></blockquote>`, `>`): an empty ``BlockKind/blockquote`` block whose
    /// innermost container is a quote that `next` does not go on in, with no anchor or
    /// alignment to write on it. Whether the quote begins at the block the writer checks.
    package func standsForEmptyQuote(before next: Block?) -> Bool {
        guard kind == .blockquote, text.isEmpty, anchor == nil, alignment == nil else { return false }
        let chain = containerChain
        guard chain.last == .quote else { return false }
        guard let next else { return true }
        let quote = chain.count - 1
        return !(next.containerChain.prefix(quote + 1) == chain[...] && (next.containerStart ?? Int.max) > quote)
    }

    /// Whether the innermost container of the block begins at it rather than going on from `previous`.
    package func beginsInnermostContainer(after previous: Block?) -> Bool {
        let chain = containerChain
        guard let previous, !chain.isEmpty else { return true }
        let last = chain.count - 1
        return (containerStart ?? Int.max) <= last || previous.containerChain.prefix(last + 1) != chain[...]
    }

    /// The anchor an `id` gives, or nil when none is left: ASCII whitespace (which HTML ids
    /// may not hold), controls, quotes, `<`, `>`, `` ` `` and `\` are dropped, so that the id
    /// is safe in any attribute and in Markdown's inline HTML; at most ``maxAnchorLength``
    /// UTF-8 bytes are kept, cut at a character.
    public static func sanitizedAnchor(_ raw: String) -> String? {
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in raw.unicodeScalars where !isDroppedFromAnchor(scalar) {
            let length = UTF8.width(scalar)
            if bytes + length > maxAnchorLength { break }
            bytes += length
            kept.append(scalar)
        }
        return kept.isEmpty ? nil : String(kept)
    }

    private static func isDroppedFromAnchor(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0...0x20, 0x7F...0x9F, 0x22, 0x27, 0x3C, 0x3E, 0x5C, 0x60, 0x2028, 0x2029, 0xFEFF: true
        default: false
        }
    }

    /// The longest anchor kept, in UTF-8 bytes.
    package static let maxAnchorLength = 256
}
