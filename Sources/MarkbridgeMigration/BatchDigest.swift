/// A digest of the bytes of an input read so far (64-bit FNV-1a), saved in a checkpoint so that
/// `--resume` goes on only from the same bytes: the output up to the checkpoint depends on those
/// bytes alone, so they, not a size or a modification time (which an edit may keep), are what
/// must be unchanged. Computed as the input is read, at memory speed; checked once on resume by
/// reading the consumed bytes again. Not cryptographic: it catches edits, not an adversary.
package struct BatchDigest: Codable, Hashable, Sendable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    /// The digest of the first `count` bytes of `path` (all of it when nil); nil when it has fewer.
    static func of(_ path: String, firstBytes count: Int?) throws(FileMigrationError) -> BatchDigest? {
        var digest = BatchDigest()
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
