@_spi(Internals) import MarkbridgeIR

/// Which blocks follow the one before with a line break rather than a blank line: the items of
/// tight lists, so that Markdown renderers put no `<p>` in them.
///
/// The rule, in every format: a list is tight unless one of its items holds a further block of
/// its own (a second paragraph, a code block: a non-item block at the depth below the item's;
/// a nested list does not count). Lists are found as the writer numbers them: an item goes on
/// the open list at its depth when it is in the same quotes and of the same kind (ordered items
/// with the next number), and a new one begins otherwise. Between two lists at one depth, and
/// around anything else, the writer keeps its blank line, which CommonMark needs to end a list,
/// and before a nested list that could not interrupt its item's paragraph.
enum MarkdownListLayout {
    static func tightBreaks(_ blocks: [Block]) -> [Bool] {
        var listOf = [Int](repeating: -1, count: blocks.count)
        var loose = [Bool](repeating: false, count: blocks.count)
        var open: [(depth: Int, id: Int, quoteDepth: Int, quoteListDepths: [Int], ordered: Bool, number: Int)] = []
        for (index, block) in blocks.enumerated() {
            guard block.kind.isListItem else {
                // A block at depth d is a further block of the item at depth d - 1.
                if block.depth > 0, let list = open.last(where: { $0.depth == block.depth - 1 }) { loose[list.id] = true }
                open.removeAll { $0.depth >= block.depth }
                continue
            }
            open.removeAll { $0.depth > block.depth }
            var ordered = false
            var number = 0
            if case .orderedListItem(let given) = block.kind { (ordered, number) = (true, given) }
            if let last = open.last, last.depth == block.depth, last.quoteDepth == block.quoteDepth, last.quoteListDepths == block.quoteListDepths, last.ordered == ordered,
               !ordered || number == last.number + 1 {
                listOf[index] = last.id
                open[open.count - 1].number = number
            } else {
                open.removeAll { $0.depth >= block.depth }
                listOf[index] = index
                open.append((block.depth, index, block.quoteDepth, block.quoteListDepths, ordered, number))
            }
        }
        var tight = [Bool](repeating: false, count: blocks.count)
        for index in blocks.indices.dropFirst() {
            let block = blocks[index], previous = blocks[index - 1]
            guard block.kind.isListItem, previous.kind.isListItem, block.quoteDepth == previous.quoteDepth, block.quoteListDepths == previous.quoteListDepths,
                  !loose[listOf[index]], !loose[listOf[index - 1]], block.depth <= previous.depth + 1 else { continue }
            // Two lists side by side at one depth need the blank line between them.
            if block.depth == previous.depth && listOf[index] != listOf[index - 1] { continue }
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
