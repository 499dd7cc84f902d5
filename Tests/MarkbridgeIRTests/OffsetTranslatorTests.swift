import Testing
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("Offsets between UTF-16, scalars and UTF-8")
struct OffsetTranslatorTests {
    // "a👍é́b": a (1 byte), 👍 (4 bytes, 2 UTF-16 units), e + U+0301 (1 + 2 bytes), b.
    let text = "a👍e\u{301}b"

    @Test("UTF-16 offsets map to scalars and bytes at every character boundary")
    func boundaries() {
        let utf16 = [0, 1, 3, 4, 5, 6]
        let scalar = [0, 1, 2, 3, 4, 5]
        let utf8 = [0, 1, 5, 6, 8, 9]
        let toScalar = OffsetTranslator(text: text, offsets: utf16, from: .utf16, to: .scalar)
        let toUTF8 = OffsetTranslator(text: text, offsets: utf16, from: .utf16, to: .utf8)
        #expect(utf16.map { toScalar[$0] } == scalar)
        #expect(utf16.map { toUTF8[$0] } == utf8)
        let back = OffsetTranslator(text: text, offsets: utf8, from: .utf8, to: .utf16)
        #expect(utf8.map { back[$0] } == utf16)
    }

    @Test("Offsets inside a character's encoding, or past the end, have no translation")
    func splits() {
        #expect(OffsetTranslator(text: text, offsets: [2], from: .utf16, to: .scalar)[2] == nil)
        #expect(OffsetTranslator(text: text, offsets: [2, 3, 4], from: .utf8, to: .utf16)[3] == nil)
        #expect(OffsetTranslator(text: text, offsets: [7], from: .utf16, to: .utf8)[7] == nil)
        #expect(OffsetTranslator(text: "", offsets: [0], from: .utf8, to: .utf16)[0] == 0)
    }

    @Test("Lengths in each unit")
    func lengths() {
        #expect(OffsetTranslator.length(of: text, in: .utf16) == 6)
        #expect(OffsetTranslator.length(of: text, in: .scalar) == 5)
        #expect(OffsetTranslator.length(of: text, in: .utf8) == 9)
    }
}
