import MarkbridgeIR

extension String {
    /// The text's lines, split at every line feed (a trailing one gives a last empty line).
    /// A byte scan: `split(separator: "\n")` walks grapheme clusters, which cost the Markdown
    /// writer a tenth of its time on large blocks, and it keeps "\r\n" together as one
    /// character where CommonMark sees a line ending.
    func lines(omittingEmpty: Bool = false) -> [String] {
        var text = self
        return text.withUTF8 { buffer in
            var lines: [String] = []
            var start = 0
            while start <= buffer.count {
                let end = ByteScan.firstIndex(of: 0x0A, in: buffer, from: start) ?? buffer.count
                if !(omittingEmpty && end == start) {
                    lines.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self))
                }
                start = end + 1
            }
            return lines
        }
    }

    /// The longest run of `character` (ASCII) that begins a line after up to any number of
    /// spaces, with CR, LF and CR LF all ending lines, as CommonMark reads them.
    func longestLeadingRun(of character: UInt8) -> Int {
        var longest = 0
        var atLineStart = true
        var run = 0
        for byte in utf8 {
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
