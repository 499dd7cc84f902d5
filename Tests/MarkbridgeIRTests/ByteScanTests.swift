@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
@_spi(InlineTraversal) import MarkbridgeIR

/// The word-at-a-time scans against a byte-at-a-time count, at the lengths where their tricks
/// could go wrong: tails shorter than a word, every byte matching (lane tallies at their
/// largest), and runs long enough to flush the tallies several times.
@Suite("Byte scans")
struct ByteScanTests {
    @Test("count(of:) equals a plain count", arguments: [0, 1, 7, 8, 9, 63, 2_039, 2_040, 2_041, 20_000])
    func count(length: Int) {
        var random = SystemRandomNumberGenerator()
        let cases: [[UInt8]] = [
            [UInt8](repeating: 0x3C, count: length),
            [UInt8](repeating: 0x3D, count: length),
            (0..<length).map { _ in [0x3C, 0x3D, 0xBC, 0x00][Int(random.next() % 4)] },
        ]
        for bytes in cases {
            let fast = ByteScan.count(of: 0x3C, in: bytes.span)
            #expect(fast == bytes.filter { $0 == 0x3C }.count)
        }
    }

    @Test("firstIndex(of:from:) finds the first match at or after the start")
    func firstIndex() {
        var bytes = [UInt8](repeating: 0x61, count: 100)
        bytes[3] = 0x3C
        bytes[77] = 0x3C
        do {
            let buffer = bytes.span
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer) == 3)
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer, from: 4) == 77)
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer, from: 78) == nil)
        }
    }

    @Test("utf16Count(ofUTF8:) equals the string's own UTF-16 count", arguments: [0, 1, 7, 8, 9, 1_015, 1_016, 1_017, 2_040, 9_000])
    func utf16Count(length: Int) {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", " ", "é", "П", "日", "👍", "\u{FEFF}", "𝔘"]
        var text = ""
        while text.utf8.count < length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        // Every piece alone, too: a word of one kind of byte is where lane tallies peak.
        for candidate in [text] + pieces.map({ String(repeating: $0, count: max(1, length / 4)) }) {
            let fast = ByteScan.utf16Count(ofUTF8: candidate.utf8.span)
            #expect(fast == candidate.utf16.count)
        }
    }

    @Test("zeroByteFlags marks exactly the zero bytes")
    func zeroByteFlags() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<8).map { _ in [0x00, 0x01, 0x80, 0xFF, 0x20, 0xE3, 0xEF, 0xF0, 0xDF][Int(random.next() % 9)] as UInt8 }
            let word = ByteScan.load(bytes.span, at: 0)
            let expected = bytes.enumerated().reduce(UInt64(0)) { $0 | ($1.element == 0 ? UInt64(0x80) << UInt64($1.offset * 8) : 0) }
            #expect(ByteScan.zeroByteFlags(word) == expected)
            let leads = bytes.enumerated().reduce(UInt64(0)) { $0 | ($1.element >= 0xE0 ? UInt64(0x80) << UInt64($1.offset * 8) : 0) }
            #expect(ByteScan.leadOfThreeOrMoreFlags(word) == leads)
            let fours = bytes.enumerated().reduce(UInt64(0)) { $0 | ($1.element >= 0xF0 ? UInt64(0x80) << UInt64($1.offset * 8) : 0) }
            #expect(ByteScan.leadOfFourFlags(word) == fours)
        }
    }
}


@Suite("UTF-16 walk")
struct UTF16WalkTests {
    @Test("Advancing by UTF-16 offsets lands where a walk one scalar at a time does, or on nil inside a pair")
    func agrees() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", " ", "é", "П", "日", "👍", "𝔘", "abcdefgh", "ПриветПривет"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 60) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            // The byte index of every UTF-16 offset, or nil inside a surrogate pair.
            var expected: [Int?] = []
            var byte = 0
            for scalar in text.unicodeScalars {
                expected.append(byte)
                if scalar.value > 0xFFFF { expected.append(nil) }
                byte += String(scalar).utf8.count
            }
            expected.append(byte)
            var targets = (0..<Int(random.next() % 8)).map { _ in Int(random.next() % UInt64(expected.count + 2)) }.sorted()
            targets.append(expected.count - 1)
            var walk = UTF16Walk()
            let utf8 = Array(text.utf8)
            do {
                let buffer = utf8.span
                for target in targets {
                    let landed = walk.advance(to: target, in: buffer)
                    #expect(landed == (target < expected.count ? expected[target] : nil), "\(text.unicodeScalars.map(\.value)) target \(target)")
                    // After a miss the walk may be past the target; start again for the next one.
                    if landed == nil { walk = UTF16Walk() }
                }
            }
        }
    }
}
