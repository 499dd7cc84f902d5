@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
@_spi(InlineTraversal) import MarkbridgeIR

/// The word-at-a-time validation against one sequence at a time, over random mixes of valid
/// sequences of every length, invalid bytes and CR, placed across word boundaries.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    static let pieces: [[UInt8]] = [
        [0x61], [0x20], [0x0D], [0xD0, 0x9F], [0xC3, 0xA9], [0xDF, 0xBF], [0xE6, 0x97, 0xA5], [0xE2, 0x80, 0xA8],
        [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x9F, 0x91, 0x8D], [0xC0, 0x80], [0xE0, 0x9F, 0xBF], [0xEE], [0xF4, 0x90, 0x80, 0x80], [0xC1, 0xBF], [0x80], [0xBF], [0xD0], [0xD0, 0x41], [0xE6, 0x97], [0xED, 0xA0, 0x80], [0xFF],
    ]

    /// Whether `bytes` is all valid sequences; and the offset of the first bad one.
    static func reference(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let length = UTF8Validation.sequenceLength(bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    static func random(length: Int, validPercent: Int, using random: inout SystemRandomNumberGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < length {
            // Mostly the valid one- to three-byte pieces, so that whole blocks of them occur.
            let piece = random.next() % 100 < UInt64(validPercent) ? pieces[Int(random.next() % 11)] : pieces[Int(random.next() % UInt64(pieces.count))]
            bytes += piece
        }
        return bytes
    }

    @Test("firstInvalidOffset agrees with a check one sequence at a time", arguments: [1, 7, 8, 9, 16, 17, 40, 200])
    func firstInvalid(length: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let bytes = Self.random(length: length, validPercent: 97, using: &random)
            #expect(UTF8Validation.firstInvalidOffset(bytes) == Self.reference(bytes), "\(bytes)")
        }
    }

    /// Two bytes before the start of a check, valid or not: the check must not read them as
    /// the lead of what follows (a caller resumes after replacing an invalid sequence).
    static let prefixes: [[UInt8]] = [[0x61, 0x61], [0xE6, 0xC0], [0xFF, 0xF0], [0xE0, 0xED], [0xC3, 0xE6]]

    @Test("Skipping whole blocks stops on a sequence boundary, having passed only valid one- to three-byte sequences", arguments: [16, 17, 31, 40, 200])
    func skipping(length: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let bytes = Self.random(length: length, validPercent: 97, using: &random)
            let input = Self.prefixes[Int(random.next() % UInt64(Self.prefixes.count))] + bytes
            let stop = UTF8Validation.skipBlocksOfShortSequences(input.span, from: 2, excluding: 0x0D) - 2
            #expect(stop >= 0 && stop <= bytes.count)
            let skipped = Array(bytes[..<stop])
            #expect(Self.reference(skipped) == nil, "\(input) stop \(stop)")
            #expect(!skipped.contains(0x0D) && !skipped.contains { $0 >= 0xF0 }, "\(input) stop \(stop)")
            // A boundary: what follows is not a continuation byte of what was skipped.
            if stop < bytes.count { #expect(bytes[stop] & 0xC0 != 0x80 || Self.reference(bytes) != nil && Self.reference(bytes)! <= stop, "\(input) stop \(stop)") }
            // And the whole check from there agrees with the reference.
            let firstInvalid = UTF8Validation.firstInvalidOffset(input.span, from: 2)
            #expect(firstInvalid == Self.reference(bytes).map { $0 + 2 }, "\(input)")
        }
        // Blocks of Cyrillic and CJK letters straddling block boundaries are skipped whole.
        for text in ["При вет ", "日本語のテキスト "] {
            let bytes = Array(("ab" + String(repeating: text, count: 20)).utf8)
            #expect(UTF8Validation.skipBlocksOfShortSequences(bytes.span, from: 2) >= bytes.count - 16)
        }
        // With no excluded byte, NUL and CR are text like any other: skipped whole. With CR
        // excluded, the skip stops at or before the block that holds it.
        let controls = Array(String(repeating: "ab\u{0}c\rd При", count: 20).utf8)
        #expect(UTF8Validation.skipBlocksOfShortSequences(controls.span, from: 2) >= controls.count - 16)
        let stop = UTF8Validation.skipBlocksOfShortSequences(controls.span, from: 2, excluding: 0x0D)
        #expect(stop <= controls.firstIndex(of: 0x0D)!)
    }

    @Test("A string made by checking and copying equals the standard library's, repairs included", arguments: [0, 5, 16, 33, 200])
    func checkedStrings(length: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let bytes = Self.random(length: length, validPercent: 90, using: &random)
            let made = String(checkingUTF8: bytes)
            let expected = String(decoding: bytes, as: UTF8.self)
            #expect(made == expected && Array(made.utf8) == Array(expected.utf8) && made.utf16.count == expected.utf16.count, "\(bytes)")
        }
    }

    /// Every two-byte pair, and three-byte sequences with every second byte, placed where a
    /// sixteen-byte block begins and where two blocks meet (the first sixteen bytes go byte by
    /// byte, the rest in blocks from offset 16): the vector check must agree with the
    /// reference on each (the random mixes above rarely hit the edges of table 3-7).
    @Test("Sequences at block edges: every two-byte pair, and three-byte leads with every second byte")
    func blockEdges() {
        var failures = 0
        func check(_ sequence: [UInt8], at position: Int) {
            var bytes = [UInt8](repeating: 0x61, count: 48)
            bytes.replaceSubrange(position..<(position + sequence.count), with: sequence)
            if UTF8Validation.firstInvalidOffset(bytes) != Self.reference(bytes) { failures += 1 }
        }
        for first in 0x80...0xFF {
            for second in 0...0xFF {
                for position in [16, 31] { check([UInt8(first), UInt8(second)], at: position) }
            }
        }
        for lead: UInt8 in [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF] {
            for second in 0...0xFF {
                for third: UInt8 in [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF] {
                    for position in [16, 30, 31] { check([lead, UInt8(second), third], at: position) }
                }
            }
        }
        #expect(failures == 0)
    }
}
