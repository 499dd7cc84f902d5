/// One row of a table, the payload of ``BlockKind/tableRow(_:)``.
///
/// A table is a run of row blocks: each row's text is its cells' text joined by
/// ``separator``, so that a client that knows nothing of tables still shows readable rows, and
/// ``cells`` says where each cell lies in that text. Markups are over the row's text like any
/// block's, and stay inside one cell. A row with ``startsTable`` begins a new table; any other
/// continues the table of the row before it.
///
/// Cells hold inline content only. Block content in a cell (several paragraphs, a list, a
/// quote) is written as lines of the cell's text, each block on a line of its own; a readers
/// reports what that flattened. Cells spanning rows are not repeated in the rows they span:
/// a row has the cells its HTML `<tr>` has.
public struct TableRow: Hashable, Sendable {
    public var cells: [TableCell]
    public var startsTable: Bool

    public init(cells: [TableCell], startsTable: Bool = false) {
        self.cells = cells
        self.startsTable = startsTable
    }

    /// The text between two cells of a row.
    package static let separator = " | "

    /// A row's text and cells from the text of each cell: the cells joined by ``separator``.
    package static func joining(_ cellTexts: [String], header: Bool = false) -> (text: String, cells: [TableCell]) {
        var text = ""
        var cells: [TableCell] = []
        var offset = 0
        for (index, cellText) in cellTexts.enumerated() {
            if index > 0 {
                text += separator
                offset += separator.utf16.count
            }
            let length = cellText.utf16.count
            cells.append(TableCell(TextRange(start: offset, end: offset + length), isHeader: header))
            text += cellText
            offset += length
        }
        return (text, cells)
    }
}

/// One cell of a table row: where its text lies in the row's text, and how it is shown.
public struct TableCell: Hashable, Sendable {
    /// The cell's text within the row's text, in UTF-16 code units.
    public var range: TextRange
    /// A header cell (`<th>`).
    public var isHeader: Bool
    /// How many columns and rows the cell spans, within ``spanLimits``.
    public var columnSpan: Int
    public var rowSpan: Int
    public var alignment: TextAlignment?

    public init(_ range: TextRange, isHeader: Bool = false, columnSpan: Int = 1, rowSpan: Int = 1, alignment: TextAlignment? = nil) {
        self.range = range
        self.isHeader = isHeader
        self.columnSpan = columnSpan
        self.rowSpan = rowSpan
        self.alignment = alignment
    }

    /// The spans HTML parses (`colspan` 1 to 1000, `rowspan` up to 65534; a `rowspan` of 0,
    /// to the end of the table's section, is read as 1).
    package static let columnSpanLimits = 1...1000
    package static let rowSpanLimits = 1...65534
}

extension TableRow {
    /// Why the cells do not describe `text`, if they do not: there must be at least one, and
    /// they must tile the text in order, each separated from the next by exactly ``separator``,
    /// with spans in their limits. Offsets are in UTF-16 code units.
    package func violation(in text: String) -> String? {
        guard !cells.isEmpty else { return "a table row has no cells" }
        let units = Array(text.utf16)
        let separatorUnits = Array(Self.separator.utf16)
        var expectedStart = 0
        for (index, cell) in cells.enumerated() {
            if index > 0 {
                let end = expectedStart + separatorUnits.count
                guard end <= units.count, Array(units[expectedStart..<end]) == separatorUnits else {
                    return "the text between cells \(index - 1) and \(index), at offset \(expectedStart), is not \"\(Self.separator)\""
                }
                expectedStart = end
            }
            guard cell.range.start == expectedStart, cell.range.end >= cell.range.start, cell.range.end <= units.count else {
                return "cell \(index) range \(cell.range) does not begin at \(expectedStart) inside the text (\(units.count) UTF-16 units)"
            }
            if cell.range.end > 0 && cell.range.end < units.count
                && UTF16.isLeadSurrogate(units[cell.range.end - 1]) && UTF16.isTrailSurrogate(units[cell.range.end]) {
                return "cell \(index) ends inside a surrogate pair"
            }
            guard TableCell.columnSpanLimits.contains(cell.columnSpan) else {
                return "cell \(index) spans \(cell.columnSpan) columns, outside \(TableCell.columnSpanLimits)"
            }
            guard TableCell.rowSpanLimits.contains(cell.rowSpan) else {
                return "cell \(index) spans \(cell.rowSpan) rows, outside \(TableCell.rowSpanLimits)"
            }
            expectedStart = cell.range.end
        }
        guard expectedStart == units.count else { return "the last cell ends at \(expectedStart), before the text's end (\(units.count) UTF-16 units)" }
        return nil
    }

    /// `markups` cut at the cells' edges: a part over a separator is no cell's, and is dropped.
    /// Returns nil when every markup lies inside one cell already (what readers make).
    package func markupsWithinCells(_ markups: [Markup]) -> [Markup]? {
        func cell(containing range: TextRange) -> Bool {
            cells.contains { $0.range.start <= range.start && range.end <= $0.range.end }
        }
        guard markups.contains(where: { !cell(containing: $0.range) }) else { return nil }
        var result: [Markup] = []
        for markup in markups {
            if cell(containing: markup.range) {
                result.append(markup)
                continue
            }
            for cell in cells {
                let start = max(cell.range.start, markup.range.start), end = min(cell.range.end, markup.range.end)
                if start < end { result.append(Markup(markup.kind, start: start, end: end)) }
            }
        }
        return Block.canonicalMarkups(result)
    }
}

extension Block {
    /// A table row's cells; empty for any other block.
    package var tableCells: [TableCell] {
        if case .tableRow(let row) = kind { row.cells } else { [] }
    }

    /// Each cell of a table row as a paragraph of its own: its text and the markups over it,
    /// shifted to start at 0. Empty for any other block.
    package var cellParagraphs: [Block] {
        guard case .tableRow(let row) = kind else { return [] }
        let units = Array(text.utf16)
        return row.cells.map { cell in
            let start = min(max(cell.range.start, 0), units.count), end = min(max(cell.range.end, start), units.count)
            let cellText = String(decoding: units[start..<end], as: UTF16.self)
            var markups: [Markup] = []
            for markup in self.markups {
                let from = max(markup.range.start, start), to = min(markup.range.end, end)
                if from < to { markups.append(Markup(markup.kind, start: from - start, end: to - start)) }
            }
            return Block(.paragraph, text: cellText, markups: markups, alignment: cell.alignment)
        }
    }
}
