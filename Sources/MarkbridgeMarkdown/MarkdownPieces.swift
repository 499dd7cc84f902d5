@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// Where CommonMark input may be cut, so that cmark parses it a piece at a time and the tree
/// of only one piece is ever held: cmark's tree of a whole document takes about seven times
/// the document's size, more than everything else a conversion holds.
///
/// A cut goes before a line that follows a blank line and starts with an ASCII letter or a
/// non-ASCII character (not U+FEFF, which cmark drops at the start of a document). CommonMark,
/// block structure: such a line starts no block but a paragraph, and continues no container
/// (a list item needs indentation, a quote `>`), and no paragraph can take it lazily, since the
/// blank line before it closed every paragraph. So every block before it is closed there, but
/// a fenced code block or an HTML block of kinds 1 to 5 (`<pre>`, `<script>`, comments, ...)
/// at the top level, which blank lines do not end. Whether one is open at a cut is what cmark's
/// own parse of the piece before it says: its last block, still open at the end of the piece.
/// ``CmarkLibrary/walk(_:pieceBytes:_:)`` checks that and parses a longer piece when it is.
///
/// The one thing a piece cannot see is a link reference definition in another piece
/// (`[label]: /url`, which defines the label for the whole document): input that may hold one
/// (an unescaped `]` followed by `:`) is not cut at all.
enum MarkdownPieces {
    /// Whether `bytes` may define a link reference: a `]` that no backslash escapes, then `:`.
    static func mayDefineLinkReference(_ bytes: Span<UInt8>) -> Bool {
        var index = 0
        while let bracket = ByteScan.firstIndex(of: UInt8(ascii: "]"), in: bytes, from: index) {
            index = bracket + 1
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { continue }
            var backslashes = 0
            while bracket - backslashes > 0, bytes[bracket - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return true }
        }
        return false
    }

    /// The first cut whose blank line starts after `offset` (the start of the line the cut
    /// goes before), or nil.
    static func cut(in bytes: Span<UInt8>, after offset: Int) -> Int? {
        // From line ending to line ending: each may be the one before a blank line.
        var index = offset
        // Against whole vectors: a lane against a scalar (`block .== 0x0A`) compiles to a loop
        // that builds the mask a lane at a time through memory, which perf put at 7% of
        // Markdown -> JSON in this scan alone.
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A), carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        while let ending = ByteScan.firstIndex(in: bytes, from: index, whereBlock: { ($0 .== lineFeed) .| ($0 .== carriageReturn) },
                                               whereByte: { $0 == 0x0A || $0 == 0x0D }) {
            let lineStart = afterLineEnding(at: ending, in: bytes)
            var blankEnd = lineStart
            while blankEnd < bytes.count, bytes[blankEnd] == 0x20 || bytes[blankEnd] == 0x09 { blankEnd += 1 }
            guard blankEnd < bytes.count, bytes[blankEnd] == 0x0A || bytes[blankEnd] == 0x0D else {
                index = blankEnd
                continue
            }
            let cut = afterLineEnding(at: blankEnd, in: bytes)
            if cut < bytes.count, startsParagraphOnly(bytes[cut]) { return cut }
            index = blankEnd
        }
        return nil
    }

    /// How many lines `bytes[range]` holds when it ends with a line ending, as cmark counts
    /// them: LF, CR and CR LF each end one.
    static func lineCount(_ bytes: Span<UInt8>, in range: Range<Int>) -> Int {
        let piece = bytes.extracting(range)
        guard ByteScan.firstIndex(of: 0x0D, in: piece) != nil else { return ByteScan.count(of: 0x0A, in: piece) }
        var count = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == 0x0A {
                count += 1
            } else if bytes[index] == 0x0D {
                count += 1
                if index + 1 < range.upperBound, bytes[index + 1] == 0x0A { index += 1 }
            }
            index += 1
        }
        return count
    }

    private static func afterLineEnding(at index: Int, in bytes: Span<UInt8>) -> Int {
        bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? index + 2 : index + 1
    }

    /// Whether a line starting with `byte` can only start a paragraph: a letter, or a
    /// character of more than one byte but U+FEFF (lead byte 0xEF, kept out whole).
    private static func startsParagraphOnly(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= 0xC2 && byte != 0xEF)
    }
}
