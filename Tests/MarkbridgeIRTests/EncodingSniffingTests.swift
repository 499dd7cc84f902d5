import Testing
@_spi(InlineTraversal) import MarkbridgeIR

/// Input in UTF-16 or UTF-32 is refused with an error that names the encoding, instead of being
/// read as text with a NUL between every letter.
@Suite("Encoding sniffing")
struct EncodingSniffingTests {
    static func utf16(_ text: String, bigEndian: Bool = false, mark: Bool = false) -> [UInt8] {
        var out: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            out += bigEndian ? pair.reversed() : pair
        }
        return out
    }

    static func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
            let bytes = (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
            return bigEndian ? bytes.reversed() : bytes
        }
    }

    @Test("UTF-16 and UTF-32, either byte order, with or without a byte-order mark")
    func wide() {
        let text = "<p>Hello, world: a paragraph of ordinary text.</p>"
        #expect(EncodingSniffing.wideEncoding(of: Self.utf16(text))?.encoding == .utf16LittleEndian)
        #expect(EncodingSniffing.wideEncoding(of: Self.utf16(text, bigEndian: true))?.encoding == .utf16BigEndian)
        #expect(EncodingSniffing.wideEncoding(of: Self.utf16("Привет", mark: true))?.encoding == .utf16LittleEndian)
        #expect(EncodingSniffing.wideEncoding(of: Self.utf16("Привет", bigEndian: true, mark: true))?.encoding == .utf16BigEndian)
        #expect(EncodingSniffing.wideEncoding(of: Self.utf32(text, bigEndian: false))?.encoding == .utf32LittleEndian)
        #expect(EncodingSniffing.wideEncoding(of: Self.utf32(text, bigEndian: true))?.encoding == .utf32BigEndian)
        #expect(EncodingSniffing.wideEncoding(of: [0xFF, 0xFE, 0x00, 0x00, 0x61, 0, 0, 0])?.encoding == .utf32LittleEndian)
        // Mostly Latin with some other script still has the pattern.
        #expect(EncodingSniffing.wideEncoding(of: Self.utf16("Markbridge переносит тексты между форматами"))?.encoding == .utf16LittleEndian)
    }

    @Test("The error names the encoding, the evidence and the fix")
    func error() throws {
        #expect(throws: ConversionError(code: "not-utf8",
            message: "input is UTF-16LE, not UTF-8: 14 of its first 28 bytes are NUL, in the pattern of UTF-16LE text; convert it first (for example `iconv -f UTF-16LE -t UTF-8`)",
            at: SourceLocation(line: 1, column: 1, byteOffset: 0))) {
            try EncodingSniffing.refuseWideEncodings(Self.utf16("# Hello\n\nworld"))
        }
    }

    @Test("UTF-8 is never taken for UTF-16: text, a UTF-8 BOM, scattered NULs, binary junk, tiny inputs", arguments: [
        Array("<p>plain</p>".utf8), [0xEF, 0xBB, 0xBF] + Array("# title".utf8), Array("a\u{0}b c\u{0}\u{0}d e f g h".utf8),
        [0x00, 0x00, 0x00], [0x61, 0x00], Array("日本語のテキスト".utf8), (0..<256).map { UInt8($0) },
    ])
    func notWide(bytes: [UInt8]) {
        #expect(EncodingSniffing.wideEncoding(of: bytes) == nil)
    }
}
