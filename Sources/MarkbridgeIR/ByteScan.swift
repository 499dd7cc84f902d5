/// Scanning bytes eight at a time (SWAR: SIMD within a register) for the few passes every
/// reader makes over its whole input: finding line ends, NULs, and the end of plain ASCII.
/// A loop that looks at one byte at a time spends most of its time on bytes that cannot match.
public enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is zero. Exact: the borrow can only make a false positive
    /// above a true zero byte, never without one.
    @inline(__always)
    static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    /// Whether any byte of `word` equals `byte`.
    @inline(__always)
    public static func word(_ word: UInt64, contains byte: UInt8) -> Bool {
        hasZeroByte(word ^ (ones &* UInt64(byte)))
    }

    /// Whether any byte of `word` is below `bound` (at most 128).
    @inline(__always)
    public static func word(_ word: UInt64, hasByteBelow bound: UInt8) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highBits != 0
    }

    /// The high bit of each byte of `word` that is zero, and no other bit: exact per byte (no
    /// borrow crosses bytes), for when it matters which bytes matched, not only whether any did.
    @inline(__always)
    public static func zeroByteFlags(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low7) &+ low7) | word) & highBits
    }

    /// The high bit of each byte of `word` that is at least 0xE0 (a lead byte of three or four
    /// bytes in UTF-8), exact per byte.
    @inline(__always)
    public static func leadOfThreeOrMoreFlags(_ word: UInt64) -> UInt64 {
        word & (word << 1) & (word << 2) & highBits
    }

    /// The high bit of each byte of `word` that is a UTF-8 continuation byte (10xxxxxx), exact
    /// per byte.
    @inline(__always)
    public static func continuationFlags(_ word: UInt64) -> UInt64 {
        word & ~(word << 1) & highBits
    }

    /// Per byte lane of `word`, the UTF-16 units its byte begins: 1 for a byte that is not a
    /// continuation byte, 2 for a lead of four bytes, 0 for a continuation byte.
    @inline(__always)
    static func utf16UnitLanes(_ word: UInt64) -> UInt64 {
        ((~continuationFlags(word) & highBits) >> 7) &+ (leadOfFourFlags(word) >> 7)
    }

    /// The high bit of each byte of `word` that is at least 0xF0 (a lead byte of four bytes in
    /// UTF-8, or a byte that is never valid), exact per byte.
    @inline(__always)
    public static func leadOfFourFlags(_ word: UInt64) -> UInt64 {
        word & (word << 1) & (word << 2) & (word << 3) & highBits
    }

    /// Whether every byte of `word` is ASCII.
    @inline(__always)
    public static func isASCII(_ word: UInt64) -> Bool {
        word & highBits == 0
    }

    /// The eight bytes at `index` (which must have eight bytes after it), in memory order.
    @inline(__always)
    public static func load(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self))
    }

    /// How many bytes of `buffer` equal `byte`.
    public static func count(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        let pattern = ones &* UInt64(byte)
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return tally(buffer, wordsPerFlush: 255, word: { word in
            let differing = word ^ pattern
            // A byte's high bit ends up set exactly when the byte is non-zero (no borrows).
            let nonZero = ((differing & low7) &+ low7) | differing
            return (~nonZero & highBits) >> 7
        }, byte: { $0 == byte ? 1 : 0 })
    }

    /// How many UTF-16 code units the (valid) UTF-8 in `buffer` encodes: one for every byte
    /// that is not a continuation byte, and one more for every lead of four bytes.
    public static func utf16Count(ofUTF8 buffer: UnsafeBufferPointer<UInt8>) -> Int {
        // A byte adds at most 2 to its lane, so 127 words fit before a flush.
        tally(buffer, wordsPerFlush: 127, word: utf16UnitLanes, byte: { byte in (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0) })
    }

    /// The UTF-16 units of the whole UTF-8 sequences in `word`: its bytes that are not
    /// continuation bytes, and one more for each lead of four bytes.
    @inline(__always)
    public static func utf16Units(inWord word: UInt64) -> Int {
        Int((utf16UnitLanes(word) &* ones) >> 56)
    }

    /// Sums a per-byte quantity over `buffer`: `word` gives it for eight bytes at once as eight
    /// byte lanes, which add up in one word and are summed every `wordsPerFlush` words, before a
    /// lane could overflow (cheaper than a population count per word: x86-64's baseline has no
    /// POPCNT); `byte` gives it for the bytes of the tail.
    @inline(__always)
    private static func tally(_ buffer: UnsafeBufferPointer<UInt8>, wordsPerFlush: Int,
                              word perWord: (UInt64) -> UInt64, byte perByte: (UInt8) -> Int) -> Int {
        var count = 0
        var index = 0
        while index + 8 <= buffer.count {
            var lanes: UInt64 = 0
            var words = 0
            while words < wordsPerFlush, index + 8 <= buffer.count {
                lanes &+= perWord(load(buffer, at: index))
                index += 8
                words += 1
            }
            // Eight byte lanes to four 16-bit ones, then their sum in the top 16 bits.
            let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
            count += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index < buffer.count {
            count += perByte(buffer[index])
            index += 1
        }
        return count
    }

    /// The first index at or after `start` holding `byte`, or nil.
    public static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        var index = start
        while index + 8 <= buffer.count, !word(load(buffer, at: index), contains: byte) { index += 8 }
        while index < buffer.count {
            if buffer[index] == byte { return index }
            index += 1
        }
        return nil
    }
}
