import Testing
import MarkbridgeIR

/// The word-at-a-time validation against one sequence at a time, over random mixes of valid
/// sequences of every length, invalid bytes and CR, placed across word boundaries.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    static let pieces: [[UInt8]] = [
        [0x61], [0x20], [0x0D], [0xD0, 0x9F], [0xC3, 0xA9], [0xDF, 0xBF], [0xE6, 0x97, 0xA5], [0xE2, 0x80, 0xA8],
        [0xF0, 0x9F, 0x91, 0x8D], [0xC0, 0x80], [0xC1, 0xBF], [0x80], [0xBF], [0xD0], [0xD0, 0x41], [0xE6, 0x97], [0xED, 0xA0, 0x80], [0xFF],
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
            // Mostly the valid one- and two-byte pieces, so that whole words of them occur.
            let piece = random.next() % 100 < UInt64(validPercent) ? pieces[Int(random.next() % 5)] : pieces[Int(random.next() % UInt64(pieces.count))]
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

    @Test("Skipping whole words stops on a sequence boundary, having passed only valid one- and two-byte sequences", arguments: [8, 9, 16, 17, 40, 200])
    func skipping(length: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let bytes = Self.random(length: length, validPercent: 97, using: &random)
            let stop = bytes.withUnsafeBufferPointer { UTF8Validation.skipWordsOfOneAndTwoByteSequences($0, from: 0, excluding: 0x0D) }
            #expect(stop <= bytes.count)
            let skipped = Array(bytes[..<stop])
            #expect(Self.reference(skipped) == nil, "\(bytes) stop \(stop)")
            #expect(!skipped.contains(0x0D) && !skipped.contains { $0 >= 0xE0 }, "\(bytes) stop \(stop)")
            // A boundary: what follows is not a continuation byte of what was skipped.
            if stop < bytes.count { #expect(bytes[stop] & 0xC0 != 0x80 || Self.reference(bytes) != nil && Self.reference(bytes)! <= stop, "\(bytes) stop \(stop)") }
        }
        // Words of Cyrillic letters straddling word boundaries are skipped whole.
        let cyrillic = Array(String(repeating: "При вет ", count: 20).utf8)
        #expect(cyrillic.withUnsafeBufferPointer { UTF8Validation.skipWordsOfOneAndTwoByteSequences($0, from: 0) } >= cyrillic.count - 8)
    }
}
