@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// Recognises input that is almost certainly UTF-16 or UTF-32 rather than UTF-8, so that readers
/// refuse it with an error that says so instead of reading every other byte as a NUL.
///
/// Two kinds of evidence count. A byte-order mark (`FF FE`, `FE FF`, `FF FE 00 00`,
/// `00 00 FE FF`): none of them begins valid UTF-8. Or the NUL pattern of text with Latin in
/// it, in the first 4096 bytes: in UTF-16LE at least 20% of the odd bytes are NUL and at most
/// 5% of the even ones (big-endian the other way round); in UTF-32 the two high bytes of
/// nine units in ten. UTF-8 text has no NULs; junk with scattered NULs has them in no such
/// pattern, and still reaches the reader's own rules for NUL. UTF-16 text with no Latin at
/// all has no NULs to see, and is refused later as invalid UTF-8.
package enum EncodingSniffing {
    public enum Encoding: String, Sendable {
        case utf16LittleEndian = "UTF-16LE", utf16BigEndian = "UTF-16BE"
        case utf32LittleEndian = "UTF-32LE", utf32BigEndian = "UTF-32BE"
    }

    /// The wide encoding `bytes` are in, and what showed it; nil for anything else.
    public static func wideEncoding(of bytes: [UInt8]) -> (encoding: Encoding, evidence: String)? {
        let sample = bytes.prefix(4096)
        if sample.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, "it begins with a UTF-32LE byte-order mark") }
        if sample.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, "it begins with a UTF-32BE byte-order mark") }
        if sample.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, "it begins with a UTF-16LE byte-order mark") }
        if sample.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, "it begins with a UTF-16BE byte-order mark") }
        // Most inputs have no NUL at all: one scan, sixteen bytes at a time, says so (a batch
        // asks it of every record). A few NULs in a short text are too little to tell a pattern
        // from chance: eight Latin characters of UTF-16 have eight.
        guard sample.count >= 16, ByteScan.firstIndex(of: 0, in: bytes.span.extracting(0..<sample.count)) != nil else { return nil }
        var nulsByPosition = [0, 0, 0, 0]
        let units = sample.count / 4 * 4
        for (offset, byte) in sample.prefix(units).enumerated() where byte == 0 { nulsByPosition[offset % 4] += 1 }
        guard nulsByPosition.reduce(0, +) >= 8 else { return nil }
        let quarter = units / 4
        func share(_ positions: [Int]) -> Int { positions.reduce(0) { $0 + nulsByPosition[$1] } * 100 / (quarter * positions.count) }
        let shown = "\(nulsByPosition.reduce(0, +)) of its first \(units) bytes are NUL, in the pattern of"
        // UTF-32 of the Basic Multilingual Plane: the two high bytes of every unit are NUL.
        if share([2, 3]) >= 90 && share([0]) <= 10 { return (.utf32LittleEndian, "\(shown) UTF-32LE text") }
        if share([0, 1]) >= 90 && share([3]) <= 10 { return (.utf32BigEndian, "\(shown) UTF-32BE text") }
        // UTF-16 with Latin in it: the high byte of each Latin unit is NUL, and no low byte is.
        if share([1, 3]) >= 20 && share([0, 2]) <= 5 { return (.utf16LittleEndian, "\(shown) UTF-16LE text") }
        if share([0, 2]) >= 20 && share([1, 3]) <= 5 { return (.utf16BigEndian, "\(shown) UTF-16BE text") }
        return nil
    }

    /// Throws `not-utf8` when `bytes` are almost certainly UTF-16 or UTF-32.
    public static func refuseWideEncodings(_ bytes: [UInt8]) throws(ConversionError) {
        guard let (encoding, evidence) = wideEncoding(of: bytes) else { return }
        throw ConversionError(
            code: "not-utf8",
            message: "input is \(encoding.rawValue), not UTF-8: \(evidence); convert it first (for example `iconv -f \(encoding.rawValue) -t UTF-8`)",
            at: SourceLocation(line: 1, column: 1, byteOffset: 0))
    }
}
