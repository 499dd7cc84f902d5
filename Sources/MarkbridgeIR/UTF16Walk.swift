/// A forward walk over UTF-8 text by UTF-16 offsets. Markup ranges count UTF-16 code units and
/// text is stored as UTF-8, so code that visits markup edges in order finds the byte for each
/// in one pass, instead of asking the string to index UTF-16 (which builds an index of its own
/// for every large non-ASCII string).
public struct UTF16Walk {
    public private(set) var byteIndex = 0
    public private(set) var unitOffset = 0

    public init() {}

    /// Moves forward to the UTF-16 `offset` (never back); the byte index there, or nil when the
    /// offset is past the end of `bytes` or falls inside a surrogate pair.
    @inline(__always)
    public mutating func advance(to offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // Sixteen bytes at a time while the offset is at least sixteen units ahead, then eight:
        // a block that ends on a sequence boundary (the next byte is no continuation byte)
        // holds whole sequences, so at most as many units as bytes, and its units are counted
        // without a branch per character.
        while offset - unitOffset >= 16 && byteIndex + 17 <= bytes.count && bytes[byteIndex + 16] & 0xC0 != 0x80 {
            unitOffset += ByteScan.laneSum(ByteScan.utf16UnitLanes(ByteScan.loadBlock(bytes, at: byteIndex)))
            byteIndex += 16
        }
        while offset - unitOffset >= 8 && byteIndex + 9 <= bytes.count && bytes[byteIndex + 8] & 0xC0 != 0x80 {
            unitOffset += ByteScan.utf16Units(inWord: ByteScan.load(bytes, at: byteIndex))
            byteIndex += 8
        }
        while unitOffset < offset && byteIndex < bytes.count {
            let lead = bytes[byteIndex]
            byteIndex += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            unitOffset += lead < 0xF0 ? 1 : 2
        }
        return unitOffset == offset ? byteIndex : nil
    }
}
