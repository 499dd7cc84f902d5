import MarkbridgeIR

extension String {
    /// The text's lines, split at every line feed (a trailing one gives a last empty line).
    /// A byte scan: `split(separator: "\n")` walks grapheme clusters, which cost the Markdown
    /// writer a tenth of its time on large blocks, and it keeps "\r\n" together as one
    /// character where CommonMark sees a line ending.
    /// Each line is copied from a slice of this string, not decoded from bytes: the text is
    /// valid already, and decoding validated it again (a tenth of HTML -> Markdown on Cyrillic).
    func lines(omittingEmpty: Bool = false) -> [String] {
        var text = self
        let ends = text.withUTF8 { buffer in
            var ends: [(start: Int, end: Int)] = []
            var start = 0
            while start <= buffer.count {
                let end = ByteScan.firstIndex(of: 0x0A, in: buffer, from: start) ?? buffer.count
                if !(omittingEmpty && end == start) { ends.append((start, end)) }
                start = end + 1
            }
            return ends
        }
        if ends.count == 1 && ends[0].start == 0 && ends[0].end == text.utf8.count { return [text] }
        let utf8 = text.utf8
        return ends.map { line in
            // A line feed is ASCII, so every offset here is on a scalar boundary, but not always
            // on a character one (CR LF is one character): slicing the string itself would round
            // the end down and drop the CR, so the scalars are sliced.
            let start = utf8.index(utf8.startIndex, offsetBy: line.start)
            let end = utf8.index(utf8.startIndex, offsetBy: line.end)
            return String(text.unicodeScalars[start..<end])
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
