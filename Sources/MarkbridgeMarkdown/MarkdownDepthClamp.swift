@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Drops, before cmark reads the input, the `>` and list markers a line's leading run holds past
/// the first ``keptQuotes`` quotes and ``keptListMarkers`` list markers.
///
/// The IR keeps at most ``IRLimits/maxDepth`` quotes and lists around a block, so nesting past
/// that is flattened anyway; but cmark pays for it: linking each inline node walks up every
/// ancestor, so `">" * 100_000 + "a*" * 100_000` (emphasis in a deep quote) costs a minute.
/// Markers past the limit are removed with the gap before each, so the markers kept read as
/// they did and the IR comes out as it would have, flattened the same way: one more quote and
/// one more list than the IR keeps, so the walker still sees the nesting past the limit. Every
/// line changed is reported, in the input's own columns (``originalColumn(line:column:)``).
struct MarkdownDepthClamp {
    static let keptQuotes = IRLimits.maxDepth + 1
    static let keptListMarkers = IRLimits.maxDepth + 2

    /// Where bytes were removed: on `line`, bytes of the rewritten input from `column` on (1-based)
    /// and from `offset` on stand `removedOnLine` and `removedBefore` bytes later in the input.
    struct Shift: Equatable {
        var line: Int
        var column: Int
        var offset: Int
        var removedOnLine: Int
        var removedBefore: Int
    }

    private(set) var shifts: [Shift] = []
    /// The lines changed, and the first of them.
    private(set) var clampedLines = 0
    private(set) var firstClampedLine = 0
    private(set) var firstClampedLineOffset = 0

    var isEmpty: Bool { shifts.isEmpty }

    /// The input with the markers past the limit removed, or nil when no line has that many.
    static func clamp(_ bytes: [UInt8]) -> (bytes: [UInt8], clamp: MarkdownDepthClamp)? {
        let buffer = bytes.span
        var clamp = MarkdownDepthClamp()
        var output: [UInt8] = []
        var copiedUpTo = 0
        var line = 1
        var lineStart = 0
        while lineStart <= buffer.count {
            let removals = Self.removals(inRunAt: lineStart, in: buffer)
            if !removals.isEmpty {
                if output.isEmpty { output.reserveCapacity(buffer.count) }
                clamp.clampedLines += 1
                if clamp.firstClampedLine == 0 {
                    clamp.firstClampedLine = line
                    clamp.firstClampedLineOffset = lineStart
                }
                var removedOnLine = 0
                for removal in removals {
                    output.append(contentsOf: bytes[copiedUpTo..<removal.lowerBound])
                    copiedUpTo = removal.upperBound
                    removedOnLine += removal.count
                    let removedBefore = (clamp.shifts.last?.removedBefore ?? 0) + removal.count
                    clamp.shifts.append(Shift(
                        line: line, column: removal.upperBound - lineStart - removedOnLine + 1,
                        offset: removal.upperBound - removedBefore, removedOnLine: removedOnLine, removedBefore: removedBefore))
                }
            }
            guard let end = ByteScan.firstIndex(in: buffer, from: lineStart, whereBlock: Self.isLineEnd, whereByte: Self.isLineEnd) else { break }
            // CR LF is one line ending, as cmark counts lines.
            lineStart = buffer[end] == 0x0D && end + 1 < buffer.count && buffer[end + 1] == 0x0A ? end + 2 : end + 1
            line += 1
        }
        guard !clamp.isEmpty else { return nil }
        output.append(contentsOf: bytes[copiedUpTo...])
        return (output, clamp)
    }

    /// The column in the input of `column` on `line` of the rewritten input.
    func originalColumn(line: Int, column: Int) -> Int {
        guard let shift = lastShift(where: { ($0.line, $0.column) <= (line, column) }), shift.line == line else { return column }
        return column + shift.removedOnLine
    }

    /// The offset in the input of `offset` in the rewritten input.
    func originalOffset(_ offset: Int) -> Int {
        offset + (lastShift(where: { $0.offset <= offset })?.removedBefore ?? 0)
    }

    /// The location in the input of a location in the rewritten input.
    func original(_ location: SourceLocation) -> SourceLocation {
        SourceLocation(line: location.line, column: originalColumn(line: location.line, column: location.column),
                       byteOffset: originalOffset(location.byteOffset), jsonPointer: location.jsonPointer)
    }

    /// The last shift that `isAtOrBefore` holds for; shifts are in input order, so a binary search.
    private func lastShift(where isAtOrBefore: (Shift) -> Bool) -> Shift? {
        var low = 0
        var high = shifts.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrBefore(shifts[middle]) { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? shifts[low - 1] : nil
    }

    var diagnostic: Diagnostic {
        let lines = clampedLines == 1 ? "this line begins" : "\(clampedLines) lines, the first here, begin"
        return .warning(
            "depth-clamped",
            "\(lines) with more than \(Self.keptQuotes) quote markers ('>') or \(Self.keptListMarkers) list markers: the ones past those are not read, and what follows is kept at depth \(IRLimits.maxDepth)",
            at: SourceLocation(line: firstClampedLine, column: 1, byteOffset: firstClampedLineOffset))
    }

    /// Whether the line beginning at `start` would be cut: its run of markers, after
    /// `quotesBefore` quote markers written before it (a writer's container prefix), holds more
    /// than the limits. A writer asks this of text it writes as a line of its own (a fenced
    /// block's, an HTML block's), where no escape keeps the run from being read as markers.
    static func cuts(lineAt start: Int, in bytes: Span<UInt8>, quotesBefore: Int = 0) -> Bool {
        !removals(inRunAt: start, in: bytes, quotesBefore: quotesBefore).isEmpty
    }

    /// The byte ranges to remove from the run of indentation, `>` and list markers beginning at
    /// `start`: each marker past the limit of its kind, with the gap before it. The run ends where
    /// a gap is wider than four columns (what follows is indented code) or at anything else.
    private static func removals(inRunAt start: Int, in bytes: Span<UInt8>, quotesBefore: Int = 0) -> [Range<Int>] {
        var index = start
        var column = 0
        var quotes = quotesBefore
        var lists = 0
        var removals: [Range<Int>] = []
        while index < bytes.count {
            let gapStart = index
            let gapColumn = column
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
                column = bytes[index] == 0x09 ? (column / 4 + 1) * 4 : column + 1
                index += 1
            }
            guard column - gapColumn <= 4, let markerEnd = markerEnd(at: index, in: bytes) else { break }
            let isQuote = bytes[index] == UInt8(ascii: ">")
            if isQuote { quotes += 1 } else { lists += 1 }
            if isQuote ? quotes > keptQuotes : lists > keptListMarkers {
                if let last = removals.last, last.upperBound == gapStart {
                    removals[removals.count - 1] = last.lowerBound..<markerEnd
                } else {
                    removals.append(gapStart..<markerEnd)
                }
            }
            column += markerEnd - index
            index = markerEnd
        }
        return removals
    }

    /// The end of the `>` or list marker (`-`, `+`, `*`, or up to nine digits and `.` or `)`,
    /// followed by a space, a tab or the line's end) at `index`, if one is there.
    private static func markerEnd(at index: Int, in bytes: Span<UInt8>) -> Int? {
        guard index < bytes.count else { return nil }
        func endsMarker(_ at: Int) -> Bool {
            at >= bytes.count || bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D
        }
        switch bytes[index] {
        case UInt8(ascii: ">"):
            return index + 1
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            return endsMarker(index + 1) ? index + 1 : nil
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var end = index
            while end < bytes.count, end - index < 9, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"), endsMarker(end + 1) else { return nil }
            return end + 1
        default:
            return nil
        }
    }

    @inline(__always)
    private static func isLineEnd(_ block: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        (block .== SIMD16(repeating: 0x0A)) .| (block .== SIMD16(repeating: 0x0D))
    }

    @inline(__always)
    private static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
}
