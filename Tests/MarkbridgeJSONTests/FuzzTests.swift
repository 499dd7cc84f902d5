import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

/// Random and mutated input: the reader must answer every one with a document or an error,
/// never a trap, and every document it returns must satisfy the invariants.
@Suite("Markup JSON reader: fuzz loop")
struct FuzzTests {
    @Test("Mutated valid documents never trap")
    func mutations() throws {
        var generator = DocumentGenerator(seed: 1234, profile: .hostile)
        var random = SeededRandom(seed: 99)
        let interesting: [[UInt8]] = ["{", "}", "[", "]", "\"", "\\", ",", ":", "-", "0", "1e9", "\\ud800", "99999999999999999999", "\u{FFFC}", "null", "\u{0}"].map { Array($0.utf8) }
        var accepted = 0
        for _ in 0..<400 {
            var bytes = try MarkupJSONWriter(options: .init(offsetUnit: random.pick(OffsetUnit.allCases))).write(generator.document(blockCount: 3)).value
            for _ in 0..<(1 + random.below(4)) {
                let position = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(contentsOf: random.pick(interesting), at: position)
                default: bytes.removeSubrange(position..<min(bytes.count, position + random.below(20)))
                }
            }
            if let document = try? MarkupJSONReader().read(bytes) {
                accepted += 1
                #expect(document.value.invariantViolations().isEmpty)
            }
        }
        // Most mutations break the JSON or the schema; these seeds leave 24 documents. Half of
        // that is the floor, so that a reader that rejects (nearly) everything fails here.
        #expect(accepted >= 12, "only \(accepted) of 400 mutated documents were read")
    }

    @Test("Random bytes never trap")
    func randomBytes() {
        var random = SeededRandom(seed: 5)
        let alphabet = Array(#"{}[]":,0123456789-.eE truefalsnul\"#.utf8) + [0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        for _ in 0..<2000 {
            let bytes = (0..<random.below(64)).map { _ in random.pick(alphabet) }
            // Random bytes are next to never a document (none of these 2,000 is), so no count is
            // expected here; the mutation loop above asserts that documents are read.
            if let document = try? MarkupJSONReader().read(bytes) {
                #expect(document.value.invariantViolations().isEmpty)
            }
        }
    }
}
