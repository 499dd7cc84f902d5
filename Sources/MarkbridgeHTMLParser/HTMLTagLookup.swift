/// Finds the tag for a name straight from the tokenizer's bytes, with no `String` made: the
/// name (at most 16 bytes) packed into two words, looked up in an open-addressing table.
enum HTMLTagLookup {
    private struct Entry: Sendable {
        var first: UInt64
        var second: UInt64
        var tag: HTMLTag
    }

    private static let mask = 1023
    private static let table: [Entry?] = {
        var table = [Entry?](repeating: nil, count: mask + 1)
        for raw in 1...UInt8.max {
            guard let tag = HTMLTag(rawValue: raw) else { break }
            let bytes = Array(tag.lowercaseName.utf8)
            let (first, second) = pack(bytes.span)
            var slot = hash(first, second)
            while table[slot] != nil { slot = (slot + 1) & mask }
            table[slot] = Entry(first: first, second: second, tag: tag)
        }
        return table
    }()

    @inline(__always)
    private static func pack(_ bytes: Span<UInt8>) -> (UInt64, UInt64) {
        var first: UInt64 = 0
        var second: UInt64 = 0
        for offset in bytes.indices {
            let byte = bytes[offset]
            if offset < 8 { first |= UInt64(byte) << UInt64(offset * 8) } else { second |= UInt64(byte) << UInt64((offset - 8) * 8) }
        }
        return (first, second)
    }

    @inline(__always)
    private static func hash(_ first: UInt64, _ second: UInt64) -> Int {
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 40) & mask
    }

    /// The tag for a lower-case name, or ``HTMLTag/unknown``.
    static func tag(for name: ArraySlice<UInt8>) -> HTMLTag {
        tag(for: name.span)
    }

    static func tag(for name: Span<UInt8>) -> HTMLTag {
        guard !name.isEmpty, name.count <= 16 else { return .unknown }
        let (first, second) = pack(name)
        var slot = hash(first, second)
        while let entry = table[slot] {
            if entry.first == first && entry.second == second { return entry.tag }
            slot = (slot + 1) & mask
        }
        return .unknown
    }
}
