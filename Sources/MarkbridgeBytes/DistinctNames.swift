/// Names seen so far in one place (the keys of a JSON object, the attributes of an HTML tag), to
/// tell a repeated one, compared by their UTF-8 bytes: the JSON reader and the HTML tokenizer
/// both need it, and both must stay linear when hostile input repeats a name among 100,000.
///
/// Most places hold a handful of short names: up to eight names of up to fifteen bytes are kept
/// inline, packed into two words each (bytes and length), and compared as words, with nothing
/// allocated or reference-counted. Past that every name moves into a set, so each further name
/// costs constant time. Equal bytes are equal names, as JSON compares keys ("\u00e9" and
/// "e\u0301" are two) and as HTML compares attribute names the tokenizer has lower-cased.
@_spi(MarkbridgeBytes) public struct DistinctNames {
    private struct Packed: Equatable {
        var low: UInt64
        var high: UInt64
    }

    private static let inlineCapacity = 8
    private var packed = InlineArray<8, Packed>(repeating: Packed(low: 0, high: 0))
    private var packedCount = 0
    /// Every name so far, once they do not all fit inline.
    private var overflow: Set<[UInt8]>?

    public init() {}

    /// Forgets every name, for the next object or tag (cheaper than a new value: the inline
    /// slots are left as they are).
    public mutating func removeAll() {
        packedCount = 0
        if overflow != nil { overflow = nil }
    }

    /// Adds `name`, whose UTF-8 bytes are `bytes` when the caller has them at hand; false when
    /// it was there already.
    public mutating func insert(_ name: String, bytes: Span<UInt8>?) -> Bool {
        if let bytes { return insert(bytes) }
        return insert(name.utf8.span)
    }

    /// Adds the name spelled by `bytes`; false when it was there already.
    public mutating func insert(_ bytes: Span<UInt8>) -> Bool {
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
        return overflow!.insert(Self.array(bytes)).inserted
    }

    /// Up to fifteen bytes in two words, the length in the top byte.
    private static func pack(_ bytes: Span<UInt8>) -> Packed {
        var words = Packed(low: 0, high: UInt64(bytes.count) << 56)
        for index in 0..<min(bytes.count, 8) { words.low |= UInt64(bytes[index]) << UInt64(index * 8) }
        for index in min(bytes.count, 8)..<bytes.count { words.high |= UInt64(bytes[index]) << UInt64((index - 8) * 8) }
        return words
    }

    private static func array(_ bytes: Span<UInt8>) -> [UInt8] {
        var array: [UInt8] = []
        array.reserveCapacity(bytes.count)
        for index in bytes.indices { array.append(bytes[index]) }
        return array
    }

    private static func unpack(_ words: Packed) -> [UInt8] {
        let length = Int(words.high >> 56)
        return (0..<length).map { UInt8(truncatingIfNeeded: ($0 < 8 ? words.low : words.high) >> UInt64($0 % 8 * 8)) }
    }
}
