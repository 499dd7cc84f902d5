@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("Byte buffer")
struct ByteBufferTests {
    @Test("What is appended comes out in order, through growth, drains and pieces larger than the storage", arguments: [0, 16, 100_000])
    func roundTrip(initialCapacity: Int) {
        var random = SystemRandomNumberGenerator()
        var buffer = ByteBuffer(capacity: initialCapacity)
        var expected: [UInt8] = []
        var drained: [UInt8] = []
        for step in 0..<3_000 {
            if step % 700 == 699 { buffer.drain(into: &drained) }
            switch random.next() % 4 {
            case 0:
                let byte = UInt8(truncatingIfNeeded: step)
                buffer.append(byte)
                expected.append(byte)
            case 1:
                buffer.append("{\"type\":\"STRONG\",\"start\":")
                expected += Array("{\"type\":\"STRONG\",\"start\":".utf8)
            case 2:
                let piece = (0..<Int(random.next() % 300)).map { UInt8(truncatingIfNeeded: $0 &+ step) }
                buffer.append(piece)
                expected += piece
            default:
                // Now and then a piece larger than a whole chunk.
                let size = random.next() % 50 == 0 ? 200_007 : Int(random.next() % 40)
                let piece = [UInt8](repeating: UInt8(truncatingIfNeeded: step), count: size)
                buffer.append(piece.span)
                expected += piece
            }
            #expect(drained.count + buffer.count == expected.count)
        }
        buffer.drain(into: &drained)
        let emptied = buffer.isEmpty
        #expect(emptied)
        #expect(drained == expected)
    }

    @Test("finish() gives everything appended, short pieces and long ones in order")
    func finish() {
        var buffer = ByteBuffer(capacity: 10_000)
        var expected: [UInt8] = []
        for step in 0..<500 {
            let piece = (0..<(step * 7 % 600)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ step) }
            buffer.append(piece)
            expected += piece
            buffer.append(UInt8(truncatingIfNeeded: step))
            expected.append(UInt8(truncatingIfNeeded: step))
        }
        #expect(buffer.finish() == expected)
    }
}
