@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
import MarkbridgeIR
import MarkbridgeTestSupport

/// The routines that read eight or sixteen bytes at once (`ByteScan`'s loads, and what is built
/// on them), each against a plain loop that reads one byte at a time through a `Span`'s checked
/// subscript, over random bytes. Every span is cut at a random place out of a larger array, so
/// a wide read past its end would find other bytes there (and the checked reads would trap).
@Suite("Wide reads against byte-at-a-time loops")
struct WideReadTests {
    /// Bytes that matter to the scans (ASCII, controls, UTF-8 leads and continuations) mixed
    /// with anything at all.
    static func randomBytes(_ count: Int, using random: inout SeededRandom) -> [UInt8] {
        let interesting: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x26, 0x3C, 0x5C, 0x61, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xE6, 0xEF, 0xF0, 0xFF]
        return (0..<count).map { _ in random.chance(60) ? random.pick(interesting) : UInt8(truncatingIfNeeded: random.next()) }
    }

    /// Random spans of random lengths (0 to 300 bytes, so every tail length occurs), each
    /// with a random start in it, from one array with bytes on either side.
    static func forEachSpan(_ body: (Span<UInt8>, Int, [UInt8]) -> Void) {
        var random = SeededRandom(seed: 2_026)
        for _ in 0..<4_000 {
            let length = random.below(301)
            let before = random.below(20), after = random.below(20)
            let whole = randomBytes(before + length + after, using: &random)
            let span = whole.span.extracting(before..<(before + length))
            body(span, random.below(length + 1), Array(whole[before..<(before + length)]))
        }
    }

    @Test("load and loadBlock read the bytes in memory order")
    func loads() {
        Self.forEachSpan { span, start, bytes in
            if start + 8 <= bytes.count {
                let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << UInt64($1 * 8) }
                #expect(ByteScan.load(span, at: start) == word)
            }
            if start + 16 <= bytes.count {
                let block = ByteScan.loadBlock(span, at: start)
                #expect((0..<16).allSatisfy { block[$0] == bytes[start + $0] })
            }
        }
    }

    @Test("count(of:) and utf16Count(ofUTF8:) equal plain counts")
    func counts() {
        Self.forEachSpan { span, _, bytes in
            #expect(ByteScan.count(of: 0x3C, in: span) == bytes.filter { $0 == 0x3C }.count)
            // Defined on any bytes: one unit for each that is not a continuation, one more for each lead of four.
            let units = bytes.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) + ($1 >= 0xF0 ? 1 : 0) }
            #expect(ByteScan.utf16Count(ofUTF8: span) == units)
        }
    }

    @Test("firstIndex finds the first byte at or after the start that the predicate accepts")
    func firstIndex() {
        let quote = SIMD16<UInt8>(repeating: 0x22), space = SIMD16<UInt8>(repeating: 0x20), leads = SIMD16<UInt8>(repeating: 0xF0)
        Self.forEachSpan { span, start, bytes in
            #expect(ByteScan.firstIndex(of: 0x3C, in: span, from: start) == bytes[start...].firstIndex(of: 0x3C))
            let found = ByteScan.firstIndex(in: span, from: start,
                                            whereBlock: { ($0 .== quote) .| ($0 .< space) .| ($0 .>= leads) },
                                            whereByte: { $0 == 0x22 || $0 < 0x20 || $0 >= 0xF0 })
            #expect(found == bytes[start...].firstIndex { $0 == 0x22 || $0 < 0x20 || $0 >= 0xF0 })
        }
    }

    @Test("The lane helpers equal a loop over the lanes")
    func lanes() {
        var random = SeededRandom(seed: 17)
        for _ in 0..<4_000 {
            let block = SIMD16<UInt8>(Self.randomBytes(16, using: &random))
            let pattern = SIMD16<UInt8>(repeating: random.pick([0x00, 0x20, 0x80, 0xC3, 0xFF]))
            let mask = block .== pattern
            let matches = (0..<16).filter { block[$0] == pattern[$0] }
            #expect(ByteScan.anyLane(mask) == !matches.isEmpty)
            #expect(ByteScan.firstLane(mask) == matches.first)
            #expect((0..<16).allSatisfy { ByteScan.laneOnes(mask)[$0] == (matches.contains($0) ? 1 : 0) })
            let units = ByteScan.utf16UnitLanes(block)
            #expect((0..<16).allSatisfy { units[$0] == (block[$0] & 0xC0 != 0x80 ? 1 : 0) + (block[$0] >= 0xF0 ? 1 : 0) })
            #expect(ByteScan.laneSum(units) == (0..<16).reduce(0) { $0 + Int(units[$1]) })
            #expect(ByteScan.wideLaneSum(block) == (0..<16).reduce(0) { $0 + Int(block[$1]) })
        }
    }

    @Test("copy and append(copying:) reproduce the bytes, whatever their length")
    func copies() {
        Self.forEachSpan { span, start, bytes in
            var appended: [UInt8] = [1, 2, 3]
            appended.append(copying: span)
            #expect(appended == [1, 2, 3] + bytes)
            var buffer = ByteBuffer()
            buffer.append(span.extracting(start...))
            buffer.append(span.extracting(..<start))
            var drained: [UInt8] = []
            buffer.drain(into: &drained)
            #expect(drained == Array(bytes[start...] + bytes[..<start]))
        }
    }

    @Test("Validation agrees with one sequence at a time on spans cut out of larger input")
    func validation() {
        Self.forEachSpan { span, _, bytes in
            var index = 0
            var expected: Int?
            while index < bytes.count {
                let length = UTF8Validation.sequenceLength(bytes, at: index)
                if length == 0 {
                    expected = index
                    break
                }
                index += length
            }
            #expect(UTF8Validation.firstInvalidOffset(span) == expected)
        }
    }

    @Test("The UTF-16 walk lands where counting one scalar at a time does, on text cut out of larger text")
    func walk() {
        var random = SeededRandom(seed: 3)
        let pieces = ["a", " ", "é", "П", "日", "👍", "abcdefghijklmnopq", "ПриветПривет"]
        for _ in 0..<2_000 {
            let scalars = (0..<random.below(80)).map { _ in random.pick(pieces) }.joined().unicodeScalars.map { $0 }
            let cut = random.below(scalars.count + 1)
            let text = String(String.UnicodeScalarView(scalars[cut...]))
            let whole = Array((String(String.UnicodeScalarView(scalars[..<cut])) + text + "tail").utf8)
            let start = whole.count - 4 - text.utf8.count
            let span = whole.span.extracting(start..<(whole.count - 4))
            let target = random.below(text.utf16.count + 1)
            var walk = UTF16Walk()
            let landed = walk.advance(to: target, in: span)
            let index = text.utf16.index(text.utf16.startIndex, offsetBy: target)
            if let scalarIndex = index.samePosition(in: text.unicodeScalars) {
                #expect(landed == text.utf8.distance(from: text.utf8.startIndex, to: scalarIndex), "\(text) \(target)")
            } else {
                #expect(landed == nil, "\(text) \(target)")
            }
        }
    }
}
