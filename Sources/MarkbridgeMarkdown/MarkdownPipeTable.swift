@_spi(InlineTraversal) import MarkbridgeIR

/// When a table can be a GitHub Flavored Markdown pipe table, and its delimiter row.
///
/// A pipe table has one header row, then rows of inline cells, each column with one alignment:
/// so the first row's cells must all be headers and no other's, every row the same number of
/// cells, no cell spanning rows or columns, no cell with a line break (a pipe table row is one
/// line) or whitespace at its edges (the table trims it), and every column left, center, right
/// or unaligned in all its cells. Any other table is written as HTML, or without HTML as a
/// paragraph a row.
enum MarkdownPipeTable {
    static func fits(_ rows: ArraySlice<Block>, dialect: MarkdownWriter.Dialect) -> Bool {
        guard dialect == .gfm, let first = rows.first else { return false }
        let columns = first.tableCells.count
        guard columns > 0 else { return false }
        let alignments = first.tableCells.map(\.alignment)
        for (offset, row) in rows.enumerated() {
            let cells = row.tableCells
            guard cells.count == columns, row.alignment == nil else { return false }
            for (column, cell) in cells.enumerated() {
                guard cell.isHeader == (offset == 0), cell.columnSpan == 1, cell.rowSpan == 1,
                      cell.alignment == alignments[column], cell.alignment != .justify else { return false }
            }
            for paragraph in row.cellParagraphs {
                let text = paragraph.text
                if text.utf8.contains(0x0A) || text.utf8.contains(0x0D) { return false }
                if let first = text.unicodeScalars.first, first.properties.isWhitespace { return false }
                if let last = text.unicodeScalars.last, last.properties.isWhitespace { return false }
            }
        }
        return true
    }

    /// `| --- | :---: | ---: |` for the header row's cells.
    static func delimiterRow(_ cells: [TableCell]) -> [UInt8] {
        var line: [UInt8] = Array("|".utf8)
        for cell in cells {
            let marker = switch cell.alignment {
            case .left: " :--- |"
            case .center: " :---: |"
            case .right: " ---: |"
            case .justify, nil: " --- |"
            }
            line.append(contentsOf: marker.utf8)
        }
        return line
    }
}
