import Testing
@testable import MarkbridgeHTML

/// The walker's sixteen-bytes-at-a-time check of whether text needs collapsing, against the rule
/// itself: a tab, line feed, form feed or carriage return, or two spaces in a row.
@Suite("Whitespace collapsing check")
struct WhitespaceCollapsingTests {
    static func naive(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() {
            if byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D { return true }
            if byte == 0x20 && index > 0 && bytes[index - 1] == 0x20 { return true }
        }
        return false
    }

    @Test("Agrees with the rule over random text, across word boundaries", arguments: [1, 7, 8, 9, 15, 16, 17, 18, 33, 64])
    func agrees(length: Int) {
        var random = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x61, 0x61, 0x61, 0x20, 0x20, 0xD0, 0x9F, 0x0B, 0x09, 0x0A, 0x0C, 0x0D, 0x00]
        for _ in 0..<3_000 {
            // Mostly letters and single spaces, so that the rare hit can land anywhere.
            let bytes = (0..<length).map { _ in random.next() % 6 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : 0x61 }
            #expect((HTMLTreeWalker.utf16CountIfCollapsed(bytes.span) == nil) == Self.naive(bytes), "\(bytes)")
        }
        // Two spaces that straddle the boundary of two blocks of sixteen.
        for split in [7, 15, 31] {
            var straddling = [UInt8](repeating: 0x61, count: 40)
            straddling[split] = 0x20
            straddling[split + 1] = 0x20
            #expect(HTMLTreeWalker.utf16CountIfCollapsed(straddling.span) == nil)
        }
    }

    @Test("Text that needs no collapsing gets its UTF-16 length from the same pass, over every sequence length", arguments: [5, 16, 17, 40, 300, 5_000])
    func countsUTF16(characters: Int) {
        var random = SystemRandomNumberGenerator()
        // One-, two-, three- and four-byte sequences, and single spaces between them.
        let pieces = ["a", "Z", " ", "Я", "é", "中", "\u{2028}", "😀", "\u{10FFFF}"]
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<characters {
                var piece = pieces[Int(random.next() % UInt64(pieces.count))]
                if piece == " " && text.hasSuffix(" ") { piece = "a" }
                text += piece
            }
            let bytes = Array(text.utf8)
            let counted = HTMLTreeWalker.utf16CountIfCollapsed(bytes.span)
            #expect(counted == text.utf16.count, "\(text)")
        }
        // A double space anywhere, or a line feed, gives no count.
        #expect(HTMLTreeWalker.utf16CountIfCollapsed(Array("中文  text".utf8).span) == nil)
        #expect(HTMLTreeWalker.utf16CountIfCollapsed(Array((String(repeating: "Я", count: 40) + "\n").utf8).span) == nil)
    }
}
