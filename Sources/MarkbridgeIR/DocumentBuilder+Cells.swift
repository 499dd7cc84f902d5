@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The cells of a table row being built, and the row made of them when its block ends.
extension DocumentBuilder {
    /// Starts a cell of the table row being built (see ``TableRow``): after the separator if it
    /// is not the first. Does nothing outside a row.
    public mutating func startCell(isHeader: Bool, columnSpan: Int = 1, rowSpan: Int = 1, alignment: TextAlignment? = nil) {
        guard isInBlock, case .tableRow = current.kind else { return }
        if isInCell { endCell() }
        dropPendingSpace()
        if !rowCells.isEmpty {
            text.append(TableRow.separator)
            utf16Length += TableRow.separator.utf16.count
        }
        cellStart = utf16Length
        rowCells.append(TableCell(TextRange(start: utf16Length, end: utf16Length), isHeader: isHeader,
                                  columnSpan: columnSpan, rowSpan: rowSpan, alignment: alignment))
        isInCell = true
    }

    /// Ends the open cell: whitespace pending at its end and a line break that ends it go, as
    /// they do at a block's end.
    public mutating func endCell() {
        guard isInCell else { return }
        dropPendingSpace()
        if utf16Length > cellStart { removeTrailingLineBreak() }
        rowCells[rowCells.count - 1].range.end = utf16Length
        isInCell = false
    }

    /// A line break between blocks inside a cell, where the IR has no blocks: none at the
    /// cell's start or after another.
    public mutating func breakLineInCell() {
        guard isInCell, utf16Length > cellStart, text.lastByte != 0x0A else { return }
        appendLineBreak()
    }

    /// Gives a row block its cells; returns whether it is a row with any. A row whose cells do
    /// not tile its text (text outside any cell, which a reader should never add) is a
    /// paragraph instead, so that no text is lost.
    mutating func finishRow(_ block: inout Block) -> Bool {
        if isInCell { endCell() }
        cellStart = 0
        guard case .tableRow(var row) = block.kind else { return false }
        let text = self.text.string()
        row.cells = rowCells
        rowCells.removeAll(keepingCapacity: true)
        if row.violation(in: text) == nil {
            // A row with nothing to continue begins a table, whatever the reader said (the
            // first row of its table may have had no cells, and been no row).
            if !row.startsTable, !block.continuesTable(after: blocks.last) { row.startsTable = true }
            block.kind = .tableRow(row)
            return true
        }
        block.kind = block.quoteDepth > 0 ? .blockquote : .paragraph
        return false
    }
}
