@_spi(InlineTraversal) import MarkbridgeIR

/// Which blocks follow the one before with a line break rather than a blank line: the items of
/// tight lists and what their items hold, so that Markdown renderers put no `<p>` in them.
///
/// The rule, CommonMark's: a list is loose when a blank line separates its items, or two blocks
/// directly inside one item. A further block of an item that can begin right after the line
/// before (a quote, a fenced code block, a heading, a rule: each interrupts a paragraph) is
/// written so, and keeps the list tight; a further paragraph needs its blank line, and makes
/// the list loose, as does a quote right after a quote (without one the two would be one).
/// A nested list does not count. Lists are found as the writer numbers them: an item goes on
/// the open list at its depth when it is in the same quotes and of the same kind (ordered
/// items with the next number) and no container begins at it (``Block/containerStart``), and
/// a new one begins otherwise. Between two lists at the top (of the document or a quote) and
/// around anything else, the writer keeps its blank line, which CommonMark needs to end a list,
/// and before a nested list that could not interrupt its item's paragraph; two lists side by
/// side inside an item need none (the second's other marker ends the first).
enum MarkdownListLayout {
    private struct OpenList {
        var depth: Int
        var id: Int
        var quoteDepth: Int
        var quoteListDepths: [Int]
        var ordered: Bool
        var number: Int
    }

    static func tightBreaks(_ blocks: [Block]) -> [Bool] {
        var listOf = [Int](repeating: -1, count: blocks.count)
        var loose = [Bool](repeating: false, count: blocks.count)
        // For a further block written right after the line before: the list it keeps tight.
        var followsTightly = [Int](repeating: -1, count: blocks.count)
        // For an item after what an item held (a nested list, a quote): the lists open before
        // it, from its depth on. Kept for those items alone: kept for every block, the lists
        // were copied at each.
        var openAround: [Int: [OpenList]] = [:]
        var open: [OpenList] = []
        var walk = ContainerWalk()
        // Each block's fields read where it lies: a block bound whole (as a `for` over the
        // blocks binds it) is copied out of the array, a retain of each of its references.
        for index in blocks.indices {
            let placement = walk.place(blocks.containerShape(at: index))
            let depth = blocks[index].depth
            guard blocks[index].kind.isListItem else {
                // A block at depth d is a further block of the item at depth d - 1.
                if depth > 0, let list = open.last(where: { $0.depth == depth - 1 }) {
                    switch blocks.furtherBlock(at: index, start: placement.start) {
                    case .insideChild: break
                    case .tight: followsTightly[index] = list.id
                    case .loose: loose[list.id] = true
                    }
                }
                open.removeAll { $0.depth >= depth }
                continue
            }
            if index > 0, !blocks[index - 1].kind.isListItem || blocks[index - 1].depth > depth {
                openAround[index] = open.filter { $0.depth >= depth }
            }
            open.removeAll { $0.depth > depth }
            var ordered = false
            var number = 0
            if case .orderedListItem(let given) = blocks[index].kind { (ordered, number) = (true, given) }
            let quoteDepth = blocks[index].quoteDepth
            if let last = open.last, last.depth == depth, last.quoteDepth == quoteDepth, last.quoteListDepths == blocks[index].quoteListDepths,
               last.ordered == ordered, !ordered || number == last.number + 1, blocks[index].containerStart == nil {
                listOf[index] = last.id
                open[open.count - 1].number = number
            } else {
                open.removeAll { $0.depth >= depth }
                listOf[index] = index
                open.append(OpenList(depth: depth, id: index, quoteDepth: quoteDepth, quoteListDepths: blocks[index].quoteListDepths,
                                     ordered: ordered, number: number))
            }
        }
        var tight = [Bool](repeating: false, count: blocks.count)
        for index in blocks.indices.dropFirst() {
            if followsTightly[index] >= 0 {
                tight[index] = !loose[followsTightly[index]]
                continue
            }
            // Bound only for an item: a block bound whole is copied out of the array.
            guard blocks[index].kind.isListItem else { continue }
            let block = blocks[index], previous = blocks[index - 1]
            // A list beside another inside an item follows it directly (its other marker ends
            // the one before): a blank line there would make the item's list loose.
            let beginsBeside = block.depth > 0 && listOf[index] == index
            if !previous.kind.isListItem || previous.depth > block.depth {
                // An item after what an item of its list held (a nested list, a quote), which
                // ended without a blank line: every list around that block from this item's
                // depth on is tight.
                let around = openAround[index] ?? []
                guard previous.depth > block.depth, let first = around.first, first.depth == block.depth,
                      first.id == listOf[index] || beginsBeside else { continue }
                tight[index] = around.allSatisfy { !loose[$0.id] } && !loose[listOf[index]]
                continue
            }
            // A nested list right after its item's text follows it directly whether or not it
            // is loose itself: a blank line there would make the item's own list loose.
            let opensNested = block.depth == previous.depth + 1
            guard block.quoteDepth == previous.quoteDepth, block.quoteListDepths == previous.quoteListDepths,
                  opensNested || !loose[listOf[index]], !loose[listOf[index - 1]], block.depth <= previous.depth + 1 else { continue }
            // Two lists side by side at one depth keep the blank line between them, but inside an item.
            if block.depth == previous.depth && listOf[index] != listOf[index - 1] && !beginsBeside { continue }
            // A nested list right after its item's text interrupts that paragraph, which
            // CommonMark allows only to a bullet or to 1, and not with an empty item: else the
            // line would continue the paragraph.
            if block.depth == previous.depth + 1 {
                if case .orderedListItem(let number) = block.kind, number != 1 { continue }
                if block.text.isEmpty || previous.text.isEmpty { continue }
            }
            tight[index] = true
        }
        return tight
    }
}
