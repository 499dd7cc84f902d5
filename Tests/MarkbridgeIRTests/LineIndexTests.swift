@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
@_spi(InlineTraversal) import MarkbridgeIR

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

    @Test("A lazy index, built by whichever of many tasks asks first, gives every task the eager index's answers")
    func lazyFromManyTasks() async {
        let text = (0..<2_000).map { "line \($0)" + ($0 % 3 == 0 ? "\r\n" : $0 % 3 == 1 ? "\n" : "\r") }.joined()
        let bytes = Array(text.utf8)
        let eager = LineIndex(bytes)
        let lazy = LazyLineIndex(bytes)
        let offsets = stride(from: 0, to: bytes.count, by: 97).map { $0 }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    offsets.dropFirst(task).reduce(0) { count, offset in
                        count + (lazy.location(ofByte: offset) == eager.location(ofByte: offset) ? 0 : 1)
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
