import Testing
import MarkbridgeIR

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
            let fast = bytes.withUnsafeBufferPointer { ByteScan.count(of: 0x3C, in: $0) }
            #expect(fast == bytes.filter { $0 == 0x3C }.count)
        }
    }

    @Test("firstIndex(of:from:) finds the first match at or after the start")
    func firstIndex() {
        var bytes = [UInt8](repeating: 0x61, count: 100)
        bytes[3] = 0x3C
        bytes[77] = 0x3C
        bytes.withUnsafeBufferPointer { buffer in
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer) == 3)
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer, from: 4) == 77)
            #expect(ByteScan.firstIndex(of: 0x3C, in: buffer, from: 78) == nil)
        }
    }
}
