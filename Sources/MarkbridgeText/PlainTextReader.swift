@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Reads plain text (user posts, comments, notes stored as text) into paragraphs, interpreting
/// nothing but line ends: `<b>`, `*x*` and `&amp;` stay the characters they are.
///
/// - A line ends at LF, CR LF or a lone CR.
/// - A blank line, one holding nothing or only whitespace (Unicode White_Space: spaces, tabs,
///   no-break and ideographic spaces), ends a paragraph; several in a row are one break, and
///   blank lines before the first paragraph and after the last are none.
/// - Inside a paragraph, a line end is a hard line break (`\n` in the IR).
/// - Everything else is kept as it is, whitespace at a line's edges included. A UTF-8 byte-order
///   mark at the start is dropped; a NUL becomes U+FFFD, reported (`nul-character`), as
///   cmark replaces it: a NUL ends a C string in many clients.
///
/// Input that is not UTF-8 is refused (`invalid-utf8`, naming the byte, line and column;
/// `not-utf8` for UTF-16 and UTF-32). One pass over the bytes: linear in the input.
public struct PlainTextReader: DocumentReader {
    public struct Options: Hashable, Sendable {
        public var maxInputBytes: Int
        /// The caller checked the input is valid UTF-8 (a JSON string's bytes, which the JSON
        /// scanner checked as it unescaped them), so it is not checked again. Set only where
        /// that check ran.
        package var inputIsCheckedUTF8 = false

        public init(maxInputBytes: Int = IRLimits.defaultMaxInputBytes) {
            self.maxInputBytes = maxInputBytes
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    public func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        guard bytes.count <= options.maxInputBytes else {
            throw ConversionError(code: "input-too-large", message: "input is \(bytes.count) bytes, over the limit of \(options.maxInputBytes)")
        }
        try EncodingSniffing.refuseWideEncodings(bytes)
        if !options.inputIsCheckedUTF8, let bad = UTF8Validation.firstInvalidOffset(bytes) {
            throw ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte \(bad)", at: SourceLocation(byteOffset: bad, in: bytes))
        }
        var builder = DocumentBuilder()
        var countdown = DeadlineCountdown(every: 1024)
        var nulCount = 0
        var firstNUL: Int?
        let span = bytes.span
        // A byte-order mark says only that the text is UTF-8.
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Whether the paragraph being built has a line yet (its next line follows a hard break).
        var inParagraph = false
        while lineStart <= bytes.count {
            if countdown.shouldStop() { break }
            // The line runs to the next LF or CR (valid UTF-8 has neither inside a character).
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            let next = lineEnd < bytes.count && bytes[lineEnd] == 0x0D && lineEnd + 1 < bytes.count && bytes[lineEnd + 1] == 0x0A
                ? lineEnd + 2 : lineEnd + 1
            if Self.isBlank(span.extracting(lineStart..<lineEnd)) {
                if inParagraph { builder.endBlock() }
                inParagraph = false
            } else {
                if inParagraph {
                    builder.appendLineBreak()
                } else {
                    builder.startBlock(.paragraph)
                    inParagraph = true
                }
                // NULs become U+FFFD; the runs between them go in as they are.
                var run = lineStart
                while let nul = ByteScan.firstIndex(of: 0, in: span, from: run), nul < lineEnd {
                    if nul > run { builder.appendValidUTF8(span.extracting(run..<nul)) }
                    builder.append("\u{FFFD}")
                    nulCount += 1
                    if firstNUL == nil { firstNUL = nul }
                    run = nul + 1
                }
                if lineEnd > run { builder.appendValidUTF8(span.extracting(run..<lineEnd)) }
            }
            lineStart = next
        }
        try countdown.rethrow()
        let document = builder.finish()
        guard let firstNUL else { return Diagnosed(document).fromReader() }
        return Diagnosed(document, diagnostics: [.warning("nul-character",
            "\(nulCount) U+0000 character\(nulCount == 1 ? "" : "s") replaced with U+FFFD", at: SourceLocation(byteOffset: firstNUL, in: bytes))]).fromReader()
    }

    /// Whether `line`, valid UTF-8, holds only whitespace (Unicode White_Space). Bytes other
    /// than space and tab are decoded only on lines that have them and nothing else ASCII.
    static func isBlank(_ line: Span<UInt8>) -> Bool {
        var index = 0
        while index < line.count {
            let byte = line[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C {
                index += 1
                continue
            }
            if byte < 0x80 { return false }
            let length = UTF8Validation.sequenceLength(line, at: index)
            guard length > 0 else { return false }
            var value = UInt32(byte) & (0xFF >> UInt32(length + 1))
            for offset in 1..<length { value = value << 6 | UInt32(line[index + offset] & 0x3F) }
            guard let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace else { return false }
            index += length
        }
        return true
    }
}
