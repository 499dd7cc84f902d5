import Testing
@_spi(InlineTraversal) @testable import MarkbridgeIR
import MarkbridgeTestSupport

/// `String(htmlReaderText:)` makes a string from bytes without checking them (the one
/// unchecked construction kept, for the HTML reader's text): over random valid UTF-8 of every
/// length and every kind of scalar, it must make the very string the standard library's
/// checked construction makes, in bytes, scalars, characters, UTF-16 length and hash.
@Suite("HTML reader text against the checked construction")
struct HTMLReaderTextTests {
    /// Scalars of every UTF-8 length, with the edges of each range and the ones that matter
    /// to text (U+FFFD, U+FEFF, U+FFFC, combining marks, emoji and their joiners) more often.
    static func randomScalar(using random: inout SeededRandom) -> Unicode.Scalar {
        let edges: [UInt32] = [0x00, 0x09, 0x0A, 0x20, 0x3C, 0x7F, 0x80, 0x301, 0x7FF, 0x800, 0xD7FF, 0xE000,
                               0xFEFF, 0xFFFC, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x200D, 0xFE0F, 0x10FFFF]
        let value: UInt32
        switch random.below(6) {
        case 0: value = random.pick(edges)
        case 1: value = UInt32(random.below(0x80))
        case 2: value = UInt32(0x80 + random.below(0x800 - 0x80))
        case 3:
            let scalar = UInt32(0x800 + random.below(0x10000 - 0x800))
            value = (0xD800...0xDFFF).contains(scalar) ? 0xFFFD : scalar
        case 4: value = UInt32(0x10000 + random.below(0x110000 - 0x10000))
        default: value = UInt32(0x400 + random.below(0x100)) // Cyrillic, as in the bench's prose
        }
        return Unicode.Scalar(value)!
    }

    static func randomUTF8(scalars count: Int, using random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            UTF8.encode(randomScalar(using: &random)) { bytes.append($0) }
        }
        return bytes
    }

    static func expectSame(_ made: String, _ bytes: [UInt8]) {
        let checked = String(decoding: bytes, as: UTF8.self)
        #expect(Array(made.utf8) == bytes)
        #expect(made == checked)
        #expect(made.unicodeScalars.elementsEqual(checked.unicodeScalars))
        #expect(made.count == checked.count)
        #expect(made.utf16.count == checked.utf16.count)
        #expect(made.hashValue == checked.hashValue)
        #expect(made.unicodeScalars.last == checked.unicodeScalars.last)
    }

    @Test("Random valid UTF-8 of every length makes the checked string")
    func randomText() {
        var random = SeededRandom(seed: 4_611)
        for round in 0..<6_000 {
            // Every length from 0 to 300 scalars, a few much longer.
            let count = round % 50 == 49 ? 1_000 + random.below(4_000) : round % 301
            let text = Self.randomUTF8(scalars: count, using: &random)
            Self.expectSame(String(htmlReaderText: text), text)
        }
    }

    @Test("Every length up to 63 bytes, where small strings are made")
    func shortText() {
        var random = SeededRandom(seed: 77)
        for length in 0..<64 {
            for _ in 0..<40 {
                var bytes = Self.randomUTF8(scalars: length, using: &random)
                while bytes.count > length, let last = bytes.indices.last {
                    // Trim back to a scalar boundary at or below `length` bytes.
                    var cut = last
                    while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                    bytes.removeSubrange(cut...)
                }
                Self.expectSame(String(htmlReaderText: bytes), bytes)
            }
        }
    }

    @Test("A block of the HTML reader's pieces, mixed with strings, is the checked string of its bytes")
    func throughTheBuilder() {
        var random = SeededRandom(seed: 9_001)
        for _ in 0..<1_500 {
            var builder = DocumentBuilder()
            builder.startBlock(.paragraph)
            var expected: [UInt8] = []
            for _ in 0..<(1 + random.below(8)) {
                let piece = Self.randomUTF8(scalars: random.below(60), using: &random).filter { $0 != 0x0A }
                if random.chance(25) {
                    let string = String(decoding: piece, as: UTF8.self)
                    builder.append(string)
                    expected += Array(string.utf8)
                } else {
                    builder.appendValidUTF8(piece.span)
                    expected += piece
                }
            }
            builder.endBlock()
            let text = builder.finishedBlocks.last?.text ?? ""
            Self.expectSame(text, expected)
        }
    }
}
