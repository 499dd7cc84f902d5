/// An append-only byte buffer for writers, owned by one writer at a time.
///
/// Why not a plain `[UInt8]`: `append(contentsOf:)` from a buffer pointer goes through a
/// generic path that costs about 95 instructions a call whatever the length, and a writer makes
/// tens of thousands of calls with one to thirty bytes (a markup's fixed text, an offset's
/// digits, a run of text between two escapes). An array element store also checks uniqueness
/// and bounds. This buffer is noncopyable, so it needs neither: a piece costs a capacity check
/// and a copy, and the storage is freed when the buffer goes away.
///
/// A writer uses it as scratch space and drains it into its output array now and then (see
/// `drain(into:)`): the output is then built in place, and never held twice, as copying one
/// finished buffer into an array at the end would (that put HTML -> JSON's peak memory from
/// 3.9 to 6.1 times the input).
@_spi(Internals) public struct ByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    @inlinable
    public init(capacity: Int = 0) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inlinable public var count: Int { used }

    @inlinable public var isEmpty: Bool { used == 0 }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        if capacity - used < length { grow(toHold: used + length) }
        UnsafeMutableRawPointer(base + used).copyMemory(from: source, byteCount: length)
        used += length
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    @inlinable
    public mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the bytes written to `array` and empties the buffer, keeping its storage.
    public mutating func drain(into array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: used))
        used = 0
    }

    @usableFromInline
    mutating func grow(toHold minimum: Int) {
        let newCapacity = Swift.max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
