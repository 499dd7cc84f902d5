@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Lines of Markdown output as ranges of one byte buffer: the writer assembles every block from
/// bytes, never from `String`s (which cost it an allocation and a UTF-8 check per line, and
/// their concatenation a third of its time).
struct MarkdownLines {
    var bytes: [UInt8]
    /// The lines, split at every line feed (a trailing one gives a last empty line). A line
    /// feed is all CommonMark's read-back needs to see here: a CR stays inside its line, where
    /// the escaping writes it as a character reference.
    var ranges: [Range<Int>]

    /// No lines at all (an empty list item), unlike one empty line.
    static let none = MarkdownLines(bytes: [], ranges: [])

    init(bytes: [UInt8], ranges: [Range<Int>]) {
        self.bytes = bytes
        self.ranges = ranges
    }

    init(_ bytes: [UInt8], omittingEmpty: Bool = false) {
        self.bytes = bytes
        let buffer = bytes.span
        var ranges: [Range<Int>] = []
        var start = 0
        while start <= buffer.count {
            let end = ByteScan.firstIndex(of: 0x0A, in: buffer, from: start) ?? buffer.count
            if !(omittingEmpty && end == start) { ranges.append(start..<end) }
            start = end + 1
        }
        self.ranges = ranges
    }

    /// The longest run of `character` (ASCII) that begins a line of `text` after up to any
    /// number of spaces, with CR, LF and CR LF all ending lines, as CommonMark reads them.
    static func longestLeadingRun(of character: UInt8, in text: some Sequence<UInt8>) -> Int {
        var longest = 0
        var atLineStart = true
        var run = 0
        for byte in text {
            if byte == 0x0A || byte == 0x0D {
                atLineStart = true
                run = 0
            } else if atLineStart && byte == 0x20 && run == 0 {
                continue
            } else if atLineStart && byte == character {
                run += 1
                longest = max(longest, run)
            } else {
                atLineStart = false
            }
        }
        return longest
    }
}
