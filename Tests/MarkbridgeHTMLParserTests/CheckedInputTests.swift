import Testing
@_spi(InlineTraversal) import MarkbridgeIR
@testable import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// Input a caller checked to be valid UTF-8 (a JSON Lines field) skips the parser's own check,
/// and must come out as the checked path makes it: the same bytes, the same offsets back into
/// the caller's bytes, the same tree and diagnostics.
@Suite("HTML parser: input the caller checked")
struct CheckedInputTests {
    /// Valid UTF-8 of every length, with CR, CR LF, LF, NUL and a byte-order mark mixed in.
    private static func randomValidInput(_ random: inout SeededRandom) -> [UInt8] {
        let pieces: [String] = ["a", "<p>", "</p>", "<b>", "\r", "\r\n", "\n", "é", "Я", "語", "😀", "\u{0}", " ", "&amp;", "<img alt=\"x\r\ny\">", "\u{FEFF}"]
        var bytes: [UInt8] = Bool.random(using: &random) ? [0xEF, 0xBB, 0xBF] : []
        for _ in 0..<Int.random(in: 0...60, using: &random) {
            bytes += Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8)
        }
        return bytes
    }

    @Test("the normalised bytes and the offset map are those of the checking path, over 3,000 random inputs")
    func sameInput() throws {
        var random = SeededRandom(seed: 0xC4EC_4ED)
        for _ in 0..<3_000 {
            let raw = Self.randomValidInput(&random)
            let checked = try HTMLInput(raw, repairingInvalidUTF8: false)
            let trusted = try HTMLInput(raw, repairingInvalidUTF8: false, inputIsCheckedUTF8: true)
            #expect(trusted.bytes == checked.bytes, "\(raw)")
            #expect(trusted.replacementCount == 0)
            for offset in 0...checked.bytes.count {
                #expect(trusted.originalOffset(of: offset) == checked.originalOffset(of: offset), "\(raw) at \(offset)")
            }
        }
    }

    @Test("the tree and the diagnostics, locations included, are those of the checking path")
    func sameTree() throws {
        var random = SeededRandom(seed: 0x7EE)
        for _ in 0..<500 {
            let raw = Self.randomValidInput(&random)
            var options = HTMLParser.Options()
            let checked = try HTMLParser(options: options).parseFragment(raw)
            options.inputIsCheckedUTF8 = true
            let trusted = try HTMLParser(options: options).parseFragment(raw)
            #expect(trusted.value.html5libDump() == checked.value.html5libDump(), "\(raw)")
            #expect(trusted.diagnostics.map(\.description) == checked.diagnostics.map(\.description), "\(raw)")
        }
    }
}
