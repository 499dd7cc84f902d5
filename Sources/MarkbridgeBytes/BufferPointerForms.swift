/// The `UnsafeBufferPointer` forms of this module's routines, for the callers that still hand
/// over buffer pointers: the HTML, Markdown and plain-text writers, canonicalization and the
/// cmark bridge (each being rewritten on its own), the JSON scanner (see its note), and the
/// tests of the routines themselves. Each form forwards to the `Span` form and adds nothing;
/// the unsafety is the caller's, in vouching that the pointer and count describe live,
/// initialised memory. Delete a form when its last caller moves to `Span` or arrays.

extension String {
    /// See `init(checkingUTF8:)` for arrays: the standard library checks, and repairs.
    @_spi(MarkbridgeBytes) public init(checkingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension ByteScan {
    @inline(__always)
    @inlinable public static func load(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        load(unsafe buffer.span, at: index)
    }

    @inlinable @inline(__always)
    public static func loadBlock(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> SIMD16<UInt8> {
        loadBlock(unsafe buffer.span, at: index)
    }

    @inlinable public static func count(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        count(of: byte, in: unsafe buffer.span)
    }

    @inlinable public static func utf16Count(ofUTF8 buffer: UnsafeBufferPointer<UInt8>) -> Int {
        utf16Count(ofUTF8: unsafe buffer.span)
    }

    @inlinable public static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        firstIndex(of: byte, in: unsafe buffer.span, from: start)
    }

    @inlinable @inline(__always)
    public static func firstIndex(in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0,
                                  whereBlock block: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>,
                                  whereByte byte: (UInt8) -> Bool) -> Int? {
        firstIndex(in: unsafe buffer.span, from: start, whereBlock: block, whereByte: byte)
    }
}

extension UTF16Walk {
    @inlinable @inline(__always)
    public mutating func advance(to offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        advance(to: offset, in: unsafe bytes.span)
    }
}

extension UTF8Validation {
    @inlinable public static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        sequenceLength(unsafe bytes.span, at: index)
    }

    @inlinable public static func firstInvalidOffset(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0, orByte excluded: UInt8? = nil) -> Int? {
        firstInvalidOffset(unsafe buffer.span, from: start, orByte: excluded)
    }

    @inlinable public static func skipBlocksOfShortSequences(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, excluding excluded: UInt8? = nil) -> Int {
        skipBlocksOfShortSequences(unsafe buffer.span, from: start, excluding: excluded)
    }
}

extension DistinctNames {
    public mutating func insert(_ name: String, bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let bytes else { return insert(name, bytes: Span<UInt8>?.none) }
        return insert(unsafe bytes.span)
    }

    public mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        insert(unsafe bytes.span)
    }
}

extension ByteBuffer {
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(unsafe bytes.span)
    }
}
