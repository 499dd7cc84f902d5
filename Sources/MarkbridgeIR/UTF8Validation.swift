/// UTF-8 well-formedness per Unicode 15, table 3-7 (no overlongs, no surrogates, nothing past
/// U+10FFFF), shared by every reader that must refuse bad input with the offset of the first bad
/// byte, or repair it one maximal subpart at a time, rather than repair it silently.
public enum UTF8Validation {
    /// The length of the valid sequence at `index`, or 0 if the bytes there are not one.
    @inlinable
    public static func sequenceLength<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: C.Index) -> Int where C.Index == Int {
        let lead = bytes[index]
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= bytes.endIndex else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    /// How many bytes at `index` form the maximal prefix of a valid sequence (at least 1): the
    /// unit one U+FFFD replaces, in Unicode's recommended practice.
    public static func maximalSubpartLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 1
        }
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
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if buffer[index] < 0x80 {
                    index += 1
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 { return index }
                index += length
            }
            return nil
        }
    }
}
