/// A forward walk over UTF-8 text by UTF-16 offsets. Markup ranges count UTF-16 code units and
/// text is stored as UTF-8, so code that visits markup edges in order finds the byte for each
/// in one pass, instead of asking the string to index UTF-16 (which builds an index of its own
/// for every large non-ASCII string).
@_spi(MarkbridgeBytes) public struct UTF16Walk {
    public var byteIndex = 0
    public var unitOffset = 0

    @inlinable public init() {}

    /// Moves forward to the UTF-16 `offset` (never back); the byte index there, or nil when the
    /// offset is past the end of `bytes` or falls inside a surrogate pair. `bytes` are UTF-8 (a
    /// string's); on other bytes the answer means nothing, but no read leaves them.
    @inlinable @inline(__always)
    public mutating func advance(to offset: Int, in bytes: Span<UInt8>) -> Int? {
        // Sixteen bytes at a time while the offset is at least sixteen units ahead, then eight,
        // with no branch per character: a block counts the units of the sequences that start in
        // it (a lead for its whole sequence, a continuation byte for nothing). The whole
        // sequences of a block have at most one unit per byte, so the walk cannot pass the
        // offset once a sequence the last block split is taken back.
        while offset - unitOffset >= 16 && byteIndex + 16 <= bytes.count {
            unitOffset += ByteScan.laneSum(ByteScan.utf16UnitLanes(ByteScan.loadBlock(bytes, at: byteIndex)))
            byteIndex += 16
        }
        while offset - unitOffset >= 8 && byteIndex + 8 <= bytes.count {
            unitOffset += ByteScan.utf16Units(inWord: ByteScan.load(bytes, at: byteIndex))
            byteIndex += 8
        }
        // Back to the start of a sequence the last block split: its units came with its lead.
        if byteIndex < bytes.count && bytes[byteIndex] & 0xC0 == 0x80 {
            repeat { byteIndex -= 1 } while byteIndex > 0 && bytes[byteIndex] & 0xC0 == 0x80
            unitOffset -= bytes[byteIndex] >= 0xF0 ? 2 : 1
        }
        while unitOffset < offset && byteIndex < bytes.count {
            let lead = bytes[byteIndex]
            byteIndex += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            unitOffset += lead < 0xF0 ? 1 : 2
        }
        return unitOffset == offset ? byteIndex : nil
    }
}
