import Testing
@testable import MarkbridgeHTML

/// The HTML writer's sixteen-bytes-at-a-time scans, against the rules written one byte at a
/// time: text escaping, and whether a block's whitespace needs `white-space:pre-wrap`.
@Suite("HTML writer: text scans")
struct HTMLWriterScanTests {
    /// Escaping as the writer did it a byte at a time.
    static func escapedNaively(_ bytes: [UInt8], preformatted: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            switch byte {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x0A: out += preformatted ? [0x0A] : Array("<br>".utf8)
            case 0x09: out.append(0x09)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x00: out += Array("&#xFFFD;".utf8)
            case 0x01...0x1F, 0x7F: out += Array("&#\(byte);".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    /// The pre-wrap rule a byte at a time: a tab, form feed or carriage return; a space at the
    /// start or end, after a space or after a line feed; a line feed after a space.
    static func needsPreWrapNaively(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() {
            let previous: UInt8? = index > 0 ? bytes[index - 1] : nil
            if byte == 0x09 || byte == 0x0C || byte == 0x0D { return true }
            if byte == 0x20 && (previous == nil || previous == 0x20 || previous == 0x0A) { return true }
            if byte == 0x0A && previous == 0x20 { return true }
        }
        return bytes.last == 0x20
    }

    static let alphabet: [[UInt8]] = ["a", "Z", " ", "\n", "\t", "\r", "\u{0C}", "\u{0}", "\u{1}", "\u{7F}", "&", "<", ">", "\"",
                                      "Я", "中", "😀"].map { Array($0.utf8) }

    static func randomText(_ pieces: Int, _ random: inout SystemRandomNumberGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<pieces {
            // Mostly letters, so that each special byte can land anywhere in a block of sixteen.
            bytes += random.next() % 4 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : [0x61]
        }
        return bytes
    }

    @Test("Escaping agrees with the byte-at-a-time rule", arguments: [1, 15, 16, 17, 33, 100])
    func escaping(pieces: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let bytes = Self.randomText(pieces, &random)
            for preformatted in [false, true] {
                var out: [UInt8] = []
                HTMLEscaping.appendText(bytes[...], to: &out, preformatted: preformatted)
                #expect(out == Self.escapedNaively(bytes, preformatted: preformatted), "\(bytes)")
            }
        }
    }

    @Test("The pre-wrap check agrees with the byte-at-a-time rule", arguments: [1, 2, 16, 17, 18, 40, 100])
    func preWrap(pieces: Int) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            // Without controls other than line feeds most of the time, so that both answers come up.
            var bytes = Self.randomText(pieces, &random)
            if random.next() % 2 == 0 { bytes = bytes.map { $0 == 0x09 || $0 == 0x0C || $0 == 0x0D ? 0x61 : $0 } }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(HTMLWriter.needsPreservedWhitespace(text) == Self.needsPreWrapNaively(Array(text.utf8)), "\(bytes)")
        }
    }
}
