/// Blocks that writers write as one element: the rows of a table, the terms and definitions of
/// a definition list. One rule, here, for which blocks belong together: consecutive ones of the
/// group's kinds at the same place (the same list items and quotes around them), a table row
/// with ``TableRow/startsTable`` beginning a table of its own, and a block whose
/// ``Block/containerStart`` begins a container beginning its own list, definition list or table.
extension Block {
    /// Whether `other` sits inside the same containers: the same depth, quotes and order of the two.
    package func isAtSamePlace(as other: Block) -> Bool {
        depth == other.depth && quoteDepth == other.quoteDepth && quoteListDepths == other.quoteListDepths
    }

    /// Whether this block is a row of the table of `previous`, the block right before it
    /// (whatever its own ``TableRow/startsTable`` says, which only a continuing row may leave false).
    package func continuesTable(after previous: Block?) -> Bool {
        guard case .tableRow = kind, containerStart == nil, let previous, case .tableRow = previous.kind else { return false }
        return isAtSamePlace(as: previous)
    }

    /// Whether this block is a table caption and `next`, the block right after it, the first
    /// row of its table: a row that starts a table at the same place, with no container
    /// beginning at it.
    package func captions(_ next: Block?) -> Bool {
        guard kind == .tableCaption, let next, case .tableRow(let row) = next.kind, row.startsTable, next.containerStart == nil else { return false }
        return isAtSamePlace(as: next)
    }

    /// Whether this block is a term or definition of the definition list of `previous`.
    package func continuesDefinitionList(after previous: Block?) -> Bool {
        guard kind.isDefinition, containerStart == nil, let previous, previous.kind.isDefinition else { return false }
        return isAtSamePlace(as: previous)
    }

    /// Whether this block is a further paragraph of the term or definition `previous`, the
    /// block right before it: it says so, and continues a term or definition of its own kind.
    package func continuesDefinition(after previous: Block?) -> Bool {
        guard kind.continuesDefinition, let previous, continuesDefinitionList(after: previous) else { return false }
        return kind.tag == previous.kind.tag
    }
}

extension [Block] {
    /// The end of the definition list whose first term or definition is at `start`: the
    /// index after its last.
    package func endOfDefinitionList(startingAt start: Int) -> Int {
        var end = start + 1
        while end < count, self[end].continuesDefinitionList(after: self[end - 1]) { end += 1 }
        return end
    }

    /// The end of the table whose first row is at `start`: the index after its last row.
    package func endOfTable(startingAt start: Int) -> Int {
        var end = start + 1
        while end < count, case .tableRow(let row) = self[end].kind, !row.startsTable, self[end].continuesTable(after: self[end - 1]) {
            end += 1
        }
        return end
    }
}
