/// The keys of one JSON object read so far, to report a repeated one. Keys are equal when their
/// UTF-8 bytes are, as JSON has it ("\u00e9" and "e\u0301" are two keys).
///
/// Objects of the schema have a handful of short keys: up to eight keys of up to fifteen bytes
/// are kept inline, packed into two words each (bytes and length), and compared as words, with
/// nothing allocated or reference-counted. Past that (hostile input can hold 100,000 keys, or
/// long ones) every key moves into a set, so each further key costs constant time and reading
/// stays linear.
struct ObjectKeys {
    private struct Packed: Equatable {
        var low: UInt64
        var high: UInt64
    }

    private static let inlineCapacity = 8
    private var packed = InlineArray<8, Packed>(repeating: Packed(low: 0, high: 0))
    private var packedCount = 0
    /// Every key so far, once they do not all fit inline.
    private var overflow: Set<[UInt8]>?

    /// Adds `key`, whose UTF-8 bytes are `bytes` when the caller has them at hand; false when
    /// the object already had it.
    mutating func insert(_ key: String, bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        if let bytes { return insert(bytes) }
        var key = key
        return key.withUTF8 { insert($0) }
    }

    private mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if overflow == nil, bytes.count <= 15 {
            let words = Self.pack(bytes)
            for index in 0..<packedCount where packed[index] == words { return false }
            if packedCount < Self.inlineCapacity {
                packed[packedCount] = words
                packedCount += 1
                return true
            }
        }
        if overflow == nil {
            overflow = Set((0..<packedCount).map { Self.unpack(packed[$0]) })
        }
        return overflow!.insert(Array(bytes)).inserted
    }

    /// Up to fifteen bytes in two words, the length in the top byte.
    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Packed {
        var words = Packed(low: 0, high: UInt64(bytes.count) << 56)
        for index in 0..<min(bytes.count, 8) { words.low |= UInt64(bytes[index]) << UInt64(index * 8) }
        for index in min(bytes.count, 8)..<bytes.count { words.high |= UInt64(bytes[index]) << UInt64((index - 8) * 8) }
        return words
    }

    private static func unpack(_ words: Packed) -> [UInt8] {
        let length = Int(words.high >> 56)
        return (0..<length).map { UInt8(truncatingIfNeeded: ($0 < 8 ? words.low : words.high) >> UInt64($0 % 8 * 8)) }
    }
}
