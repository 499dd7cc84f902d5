/// An append-only byte buffer for writers, owned by one writer at a time.
///
/// A writer makes tens of thousands of appends of one to thirty bytes (a markup's fixed text,
/// an offset's digits, a run of text between two escapes), and `Array.append(contentsOf:)`
/// costs about 95 instructions a call whatever the length, with a uniqueness check on every
/// write. Short pieces go into a chunk stored inline instead: a value of its own, so a write
/// checks only its bounds, and a piece is copied sixteen bytes a checked store
/// (`ByteScan.copy`). A full chunk moves to `bytes`, the output, in one append; a piece of
/// `directLength` bytes or more goes there directly, so that long text is copied once, not
/// into the chunk and out again. (Raw memory written with `memcpy`, as this buffer was, saved
/// 1.6% of JSON -> JSON and 2% of HTML -> JSON: not worth unchecked writes. A plain array cost
/// 2% more than this.)
///
/// The output is built in place in `bytes`, reserved once for what the writer expects, and
/// never held twice, as copying one finished buffer into an array at the end would (that put
/// HTML -> JSON's peak memory from 3.9 to 6.1 times the input).
@_spi(MarkbridgeBytes) public struct ByteBuffer: ~Copyable {
    @usableFromInline static var chunkSize: Int { 2048 }
    /// Pieces this long or longer skip the chunk.
    @usableFromInline static var directLength: Int { 256 }

    /// The latest bytes: the first `chunkUsed` of `chunk`, after those in `bytes`.
    @usableFromInline var chunk = InlineArray<2048, UInt8>(repeating: 0)
    @usableFromInline var chunkUsed = 0
    @usableFromInline var bytes: [UInt8] = []

    /// `capacity` is the most the buffer is expected to hold.
    @inlinable
    public init(capacity: Int = 0) {
        // Reserved even when it fits the chunk: the output is moved out of the chunk into
        // `bytes` in the end, which then allocates once rather than growing piece by piece.
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    @inlinable public var count: Int { bytes.count + chunkUsed }

    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if chunkUsed == Self.chunkSize { moveChunkToBytes() }
        chunk[chunkUsed] = byte
        chunkUsed += 1
    }

    @inlinable
    public mutating func append(_ piece: Span<UInt8>) {
        if piece.count >= Self.directLength {
            moveChunkToBytes()
            bytes.append(copying: piece)
            return
        }
        if Self.chunkSize - chunkUsed < piece.count { moveChunkToBytes() }
        let offset = chunkUsed
        do {
            var target = chunk.mutableSpan
            // As raw bytes: every pattern is a valid `UInt8`, all the "unsafe" warns of.
            var raw = unsafe target.mutableBytes
            ByteScan.copy(piece, to: &raw, at: offset)
        }
        chunkUsed = offset + piece.count
    }

    /// Appends a literal's bytes: a `StaticString`'s are read through its buffer, the one way
    /// to them, which is its own and lives as long as the program.
    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(unsafe $0.span) }
    }

    public mutating func append(_ piece: [UInt8]) {
        append(piece.span)
    }

    /// Appends the bytes written to `array` and empties the buffer.
    public mutating func drain(into array: inout [UInt8]) {
        moveChunkToBytes()
        if array.isEmpty {
            swap(&array, &bytes)
        } else {
            array.append(contentsOf: bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// The bytes written.
    public consuming func finish() -> [UInt8] {
        moveChunkToBytes()
        return bytes
    }

    @usableFromInline
    mutating func moveChunkToBytes() {
        guard chunkUsed > 0 else { return }
        bytes.append(copying: chunk.span.extracting(0..<chunkUsed))
        chunkUsed = 0
    }
}
