import Testing
import MarkbridgeIR

@Suite("Source locations")
struct LineIndexTests {
    @Test("Lines end at LF, CR LF and lone CR; columns count bytes from 1")
    func lines() {
        let bytes = Array("ab\ncd\r\nef\rgh".utf8)
        let index = LineIndex(bytes)
        let expected = [(0, 1, 1), (2, 1, 3), (3, 2, 1), (7, 3, 1), (8, 3, 2), (10, 4, 1), (11, 4, 2)]
        for (offset, line, column) in expected {
            let location = index.location(ofByte: offset)
            #expect((location.line, location.column) == (line, column), "offset \(offset)")
            #expect(SourceLocation(byteOffset: offset, in: bytes) == location)
        }
    }
}
