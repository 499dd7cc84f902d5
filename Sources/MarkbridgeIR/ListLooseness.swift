/// Which lists are loose: CommonMark's rule, in terms of the IR, shared by the writers so that
/// Markdown written by one and HTML written by the other show the same lists. A list is loose
/// when an item directly holds a further block that needs a blank line before it (a paragraph,
/// an image, a table: anything but a code block, a heading or a rule, which interrupt a
/// paragraph), or a quote right after a quote (without the blank line the two would be one).
/// A nested list does not count, nor what a quote inside the item holds. The IR keeps no
/// other looseness: blank lines between items alone are not kept.
package enum FurtherBlock: Hashable, Sendable {
    /// Inside a quote that began at an earlier block of the item: it says nothing of the list.
    case insideChild
    /// A new block of the item that can follow the line before directly.
    case tight
    /// A new block of the item that needs a blank line before it: its list is loose.
    case loose
}

extension [Block] {
    /// What the block at `index`, not a list item, at depth d > 0, is to the item at depth
    /// d - 1 that holds it; `start` is its ``ContainerWalk/Placement/start``.
    package func furtherBlock(at index: Int, start: Int) -> FurtherBlock {
        let containers = self[index].containers
        guard let item = containers.lastIndex(of: .listItem(depth: self[index].depth - 1)) else { return .loose }
        let child = item + 1
        if child < containers.count {
            // In a quote inside the item: a new quote begins at the block, or it goes on.
            guard start <= child else { return .insideChild }
            let previous = self[index - 1].containers
            let afterQuote = previous.count > child && previous[child] == .quote && previous.prefix(child).elementsEqual(containers.prefix(child))
            return afterQuote ? .loose : .tight
        }
        switch self[index].kind {
        case .codeBlock, .heading, .horizontalRule: return .tight
        case .paragraph, .blockquote, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .unorderedListItem, .orderedListItem: return .loose
        }
    }

    /// For each block, whether it is an item of a loose list, lists found as an HTML writer
    /// nests them (see ``ContainerWalk``): an item goes on with the list open at its depth
    /// unless a container begins at it.
    package func itemsOfLooseLists() -> [Bool] {
        // The first item of the list open at each depth (-1 where none is).
        var listAt: [Int] = []
        var listOf = [Int](repeating: -1, count: count)
        var loose = [Bool](repeating: false, count: count)
        var walk = ContainerWalk()
        // Fields read where each block lies: bound whole, a block is copied out of the array.
        for index in indices {
            let placement = walk.place(containerShape(at: index))
            let depth = self[index].depth
            guard self[index].kind.isListItem else {
                if depth > 0, depth - 1 < listAt.count, listAt[depth - 1] >= 0, furtherBlock(at: index, start: placement.start) == .loose {
                    loose[listAt[depth - 1]] = true
                }
                if listAt.count > depth { listAt.removeSubrange(depth...) }
                continue
            }
            if listAt.count > depth + 1 { listAt.removeSubrange((depth + 1)...) }
            // The item's own list is the last of its chain: it begins here when any container does.
            if placement.start < placement.chainCount || listAt.count <= depth || listAt[depth] < 0 {
                if listAt.count > depth { listAt.removeSubrange(depth...) }
                while listAt.count < depth { listAt.append(-1) }
                listAt.append(index)
            }
            listOf[index] = listAt[depth]
        }
        return indices.map { listOf[$0] >= 0 && loose[listOf[$0]] }
    }
}
