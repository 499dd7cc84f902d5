@_spi(InlineTraversal) import MarkbridgeIR

/// cmark-gfm 0.29.0.gfm.6 reads a table in time quadratic in its columns (16,000 columns take
/// it 1.6 s, four times as many sixteen times that; later releases bound it). A delimiter row
/// (`| - | :-: |`, GFM tables: the line that makes the line above a header) with more columns
/// than ``maxColumns`` has a backslash put before its first `|`, which then no longer
/// separates cells: the table is read as the paragraph of text it then is, nothing of it
/// dropped, and reported (`table-too-wide`). Diagnostics later on such a line are a column off.
enum GFMTableGuard {
    /// More columns than any table a person reads: 1,000 cost cmark-gfm about 10 ms.
    static let maxColumns = 1_000

    /// The input with every too wide delimiter row defused, and the reports; nil when there is
    /// none (the usual case: one scan, no copy).
    static func defuse(_ bytes: [UInt8]) -> (bytes: [UInt8], diagnostics: [Diagnostic])? {
        var defused: [UInt8]?
        var diagnostics: [Diagnostic] = []
        var lineStart = 0, line = 1, copied = 0
        while lineStart < bytes.count {
            var end = lineStart
            var pipes = 0, dashes = 0, firstPipe: Int?
            var isDelimiterRow = true
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D {
                switch bytes[end] {
                case UInt8(ascii: "|"):
                    pipes += 1
                    if firstPipe == nil { firstPipe = end }
                case UInt8(ascii: "-"): dashes += 1
                // Quote markers and indentation may stand before a delimiter row in a container.
                case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"): break
                default: isDelimiterRow = false
                }
                end += 1
            }
            if isDelimiterRow, dashes > 0, pipes > maxColumns + 1, let firstPipe {
                if defused == nil { defused = []; defused?.reserveCapacity(bytes.count + 16) }
                defused? += bytes[copied..<firstPipe]
                defused?.append(UInt8(ascii: "\\"))
                copied = firstPipe
                diagnostics.append(.warning("table-too-wide", "a table's delimiter row with \(pipes) '|' (over \(maxColumns) columns) read as text: cmark-gfm takes quadratic time on tables that wide", at: SourceLocation(line: line, column: firstPipe - lineStart + 1, byteOffset: firstPipe)))
            }
            // CR LF, CR and LF each end a line.
            if end < bytes.count, bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { end += 1 }
            lineStart = end + 1
            line += 1
        }
        guard var defused else { return nil }
        defused += bytes[copied...]
        return (defused, diagnostics)
    }
}
