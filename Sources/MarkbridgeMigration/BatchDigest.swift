@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// A digest of the bytes of an input read so far, saved in a checkpoint so that `--resume` goes
/// on only from the same bytes: the output up to the checkpoint depends on those bytes alone, so
/// they, not a size or a modification time (which an edit may keep), are what must be unchanged.
/// Computed as the input is read, on the one thread that reads it, and checked once on resume by
/// reading the consumed bytes again. Not cryptographic: it catches edits, not an adversary.
///
/// The function takes eight bytes at a time: each whole word is mixed in by a step that is a
/// bijection of the state for that word (xor, multiply by an odd constant, rotate), so two inputs
/// of the same length that differ in one word, or one byte, always end in different states; the
/// bytes past the last whole word and the count are part of the digest, so a truncation or an
/// extension always differs too. Pieces may end anywhere: the digest of the whole is the same
/// however it was split.
///
/// Checkpoints saved by earlier builds hold a 64-bit FNV-1a digest, a byte at a time. Such a
/// checkpoint still resumes: its digest decodes as FNV-1a, and the input it was reading goes on
/// under that function to its end (the inputs after it under this one).
package struct BatchDigest: Hashable, Sendable {
    private var function: Function
    private var state: UInt64
    /// Bytes after the last whole word, the first in the low byte (always 0 for FNV-1a).
    private var tail: UInt64 = 0
    /// Bytes added (not kept for FNV-1a, whose saved form has no count).
    private var count = 0

    private enum Function: Hashable, Sendable {
        case words
        case fnv1a
    }

    private static let wordsSeed: UInt64 = 0x9e37_79b9_7f4a_7c15
    private static let wordsMultiplier: UInt64 = 0xff51_afd7_ed55_8ccd
    private static let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    package init() {
        function = .words
        state = Self.wordsSeed
    }

    /// A digest of nothing by the function earlier builds used (64-bit FNV-1a from its offset
    /// basis): what a checkpoint they saved goes on with.
    package static func legacyFNV1a() -> BatchDigest {
        var digest = BatchDigest()
        digest.function = .fnv1a
        digest.state = fnvOffsetBasis
        return digest
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* wordsMultiplier
        return product << 29 | product >> 35
    }

    mutating func add(_ bytes: Span<UInt8>) {
        switch function {
        case .fnv1a:
            var hash = state
            for index in bytes.indices {
                hash ^= UInt64(bytes[index])
                hash &*= Self.fnvPrime
            }
            state = hash
        case .words:
            var index = 0
            while count & 7 != 0, index < bytes.count {
                addToTail(bytes[index])
                index += 1
            }
            var hash = state
            let wordsStart = index, wordsEnd = index + ((bytes.count - index) & ~7)
            while index < wordsEnd {
                hash = Self.mix(hash, ByteScan.load(bytes, at: index))
                index += 8
            }
            count += wordsEnd - wordsStart
            state = hash
            while index < bytes.count {
                addToTail(bytes[index])
                index += 1
            }
        }
    }

    mutating func add(_ byte: UInt8) {
        switch function {
        case .fnv1a: state = (state ^ UInt64(byte)) &* Self.fnvPrime
        case .words: addToTail(byte)
        }
    }

    mutating func add(_ bytes: [UInt8]) {
        add(bytes.span)
    }

    mutating func add(_ bytes: ArraySlice<UInt8>) {
        add(bytes.span)
    }

    @inline(__always)
    private mutating func addToTail(_ byte: UInt8) {
        tail |= UInt64(byte) << (8 * UInt64(count & 7))
        count += 1
        if count & 7 == 0 {
            state = Self.mix(state, tail)
            tail = 0
        }
    }

    /// A digest of nothing by this one's function: a checkpoint's input is read again by the
    /// function its saved digest was made with.
    func restarted() -> BatchDigest {
        function == .fnv1a ? .legacyFNV1a() : BatchDigest()
    }

    /// The digest of the first `count` bytes of `path` (all of it when nil), by the function
    /// `expected` was made with; nil when it has fewer.
    static func of(_ path: String, firstBytes count: Int?, like expected: BatchDigest = BatchDigest()) throws(FileMigrationError) -> BatchDigest? {
        var digest = expected.restarted()
        var remaining = count ?? Int.max
        let reader = try POSIXFiles.Reader(path)
        while remaining > 0 {
            let chunk = try reader.read(min(remaining, 1 << 20))
            if chunk.isEmpty { return count == nil ? digest : nil }
            digest.add(chunk)
            remaining -= chunk.count
        }
        return digest
    }
}

/// Saved as `{"function": "words-1", "state": …, "tail": …, "count": …}`; a checkpoint an earlier
/// build saved holds `{"value": …}`, FNV-1a's state alone.
extension BatchDigest: Codable {
    private enum CodingKeys: String, CodingKey {
        case function, state, tail, count, value
    }

    private static let wordsName = "words-1"

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let name = try container.decodeIfPresent(String.self, forKey: .function) else {
            self = .legacyFNV1a()
            state = try container.decode(UInt64.self, forKey: .value)
            return
        }
        guard name == Self.wordsName else {
            throw DecodingError.dataCorruptedError(forKey: .function, in: container, debugDescription: "unknown digest function '\(name)'")
        }
        self.init()
        state = try container.decode(UInt64.self, forKey: .state)
        tail = try container.decode(UInt64.self, forKey: .tail)
        count = try container.decode(Int.self, forKey: .count)
        guard count >= 0, tail >> (8 * UInt64(count & 7)) == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .tail, in: container, debugDescription: "a tail longer than its count")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch function {
        case .fnv1a:
            try container.encode(state, forKey: .value)
        case .words:
            try container.encode(Self.wordsName, forKey: .function)
            try container.encode(state, forKey: .state)
            try container.encode(tail, forKey: .tail)
            try container.encode(count, forKey: .count)
        }
    }
}
