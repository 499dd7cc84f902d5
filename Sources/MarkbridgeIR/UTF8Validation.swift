/// UTF-8 well-formedness per Unicode 15, table 3-7 (no overlongs, no surrogates, nothing past
/// U+10FFFF), shared by every reader that must refuse bad input with the offset of the first bad
/// byte, or repair it one maximal subpart at a time, rather than repair it silently.
public enum UTF8Validation {
    /// For a lead byte of a multi-byte sequence: its length and the range its second byte must
    /// fall in (table 3-7 narrows it after E0, ED, F0 and F4); nil for a byte that leads nothing.
    @inlinable
    public static func lead(_ byte: UInt8) -> (length: Int, lower: UInt8, upper: UInt8)? {
        switch byte {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: nil
        }
    }

    /// The length of the valid sequence at `index`, or 0 if the bytes there are not one.
    @inlinable
    public static func sequenceLength<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> Int where C.Index == Int {
        let byte = bytes[index]
        if byte < 0x80 { return 1 }
        guard let (length, lower, upper) = lead(byte) else { return 0 }
        guard index + length <= bytes.endIndex else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// How many bytes at `index` form the maximal prefix of a valid sequence (at least 1): the
    /// unit one U+FFFD replaces, in Unicode's recommended practice.
    public static func maximalSubpartLength(_ bytes: [UInt8], at index: Int) -> Int {
        guard let (length, lower, upper) = lead(bytes[index]) else { return 1 }
        var consumed = 1
        while consumed < length, index + consumed < bytes.count {
            let byte = bytes[index + consumed]
            let (low, high) = consumed == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else { break }
            consumed += 1
        }
        return consumed
    }

    /// The offset of the first byte that does not begin a valid sequence, or nil.
    public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset($0) }
    }

    /// The offset of the first byte from `start` (a sequence boundary) that does not begin a
    /// valid sequence or is the ASCII byte `excluded` (the HTML reader stops at CR), or nil.
    public static func firstInvalidOffset(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0, orByte excluded: UInt8? = nil) -> Int? {
        var index = start
        while index < buffer.count {
            index = skipWordsOfOneAndTwoByteSequences(buffer, from: index, excluding: excluded)
            // Byte by byte for at least a word after the words stopped (CJK text, say).
            let resume = index + 8
            while index < buffer.count && index < resume {
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == excluded { return index }
                    index += 1
                    continue
                }
                // The commonest three-byte sequences inline: leads E1-EC (most of CJK), whose
                // second byte has no narrower range than any continuation byte.
                if byte >= 0xE1 && byte <= 0xEC && index + 2 < buffer.count
                    && buffer[index + 1] & 0xC0 == 0x80 && buffer[index + 2] & 0xC0 == 0x80 {
                    index += 3
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 { return index }
                index += length
            }
        }
        return nil
    }

    /// From `start` (a sequence boundary), skips whole words of eight bytes that are valid UTF-8
    /// of one- and two-byte sequences only: ASCII except `excluded`, and leads C2-DF each with
    /// its continuation byte (a pair may straddle two words). Returns the sequence boundary
    /// where it stopped: at the first word that has anything else, or near the end.
    /// Text in Latin, Cyrillic, Greek, Hebrew or Arabic script is almost all such words, so
    /// checking it costs a few instructions per word instead of a branch per byte.
    public static func skipWordsOfOneAndTwoByteSequences(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, excluding excluded: UInt8? = nil) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = start
        // Whether the previous word ended with a lead whose continuation starts this word.
        var carry: UInt64 = 0
        while index + 8 <= buffer.count {
            let word = ByteScan.load(buffer, at: index)
            let hasExcluded = excluded.map { ByteScan.word(word, contains: $0) } ?? false
            // Plain ASCII, the commonest word, needs no more.
            if word & high == 0 && carry == 0 && !hasExcluded {
                index += 8
                continue
            }
            let continuation = ByteScan.continuationFlags(word)
            let lead = word & (word << 1) & ~(word << 2) & high
            // C0 and C1 lead only overlong forms: a 110 lead with nothing in bits 4 to 1.
            let overlong = lead & ByteScan.zeroByteFlags(word & 0x1E1E_1E1E_1E1E_1E1E)
            let isSimple = ByteScan.leadOfThreeOrMoreFlags(word) == 0 && overlong == 0
                && continuation == ((lead << 8) | carry) && !hasExcluded
            guard isSimple else { break }
            carry = lead >> 56 & 0x80
            index += 8
        }
        // A lead at the end of the last word taken is where the sequence begins.
        return carry != 0 ? index - 1 : index
    }
}
