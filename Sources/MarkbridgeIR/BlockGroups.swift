/// Blocks that writers write as one element: the rows of a table, the terms and definitions of
/// a definition list.
extension [Block] {
    /// The end of the definition list whose first term or definition is at `start`: the
    /// index after its last, the blocks of one list being consecutive at one place.
    public func endOfDefinitionList(startingAt start: Int) -> Int {
        var end = start + 1
        while end < count, self[end].kind.isDefinition, self[end].depth == self[start].depth,
              self[end].quoteDepth == self[start].quoteDepth, self[end].quoteListDepths == self[start].quoteListDepths {
            end += 1
        }
        return end
    }

    /// The end of the table whose first row is at `start`: the index after its last row.
    public func endOfTable(startingAt start: Int) -> Int {
        var end = start + 1
        while end < count, case .tableRow(let row) = self[end].kind, !row.startsTable,
              self[end].depth == self[start].depth, self[end].quoteDepth == self[start].quoteDepth {
            end += 1
        }
        return end
    }
}
