/// Where GitHub Flavored Markdown's autolink extension finds a link in text, as cmark-gfm's
/// `autolink.c` does it, so that the writer can keep plain text plain. Each test looks only at
/// the bytes of the piece of text being written; at its start the byte before is unknown, and
/// the test assumes what would make a link (an escape too many reads back the same).
enum GFMAutolinks {
    /// Whether the `.` at `dot` ends a `www` that begins an extended www autolink: at the start
    /// of the text, or after whitespace or one of `*`, `_`, `~` and `(`.
    static func startsWWW(_ bytes: ArraySlice<UInt8>, dotAt dot: Int) -> Bool {
        let start = dot - 3
        guard start >= bytes.startIndex, bytes[start] == UInt8(ascii: "w"), bytes[start + 1] == UInt8(ascii: "w"),
              bytes[start + 2] == UInt8(ascii: "w") else { return false }
        guard start > bytes.startIndex else { return true }
        switch bytes[start - 1] {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "("): return true
        default: return false
        }
    }

    /// Whether the `:` at `colon` is followed by `//` and ends the scheme of an extended URL
    /// autolink: `http`, `https` or `ftp` in any case, not preceded by a letter.
    static func endsScheme(_ bytes: ArraySlice<UInt8>, colonAt colon: Int) -> Bool {
        guard colon + 2 < bytes.endIndex, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return false }
        var start = colon
        while start > bytes.startIndex, isLetter(bytes[start - 1]), colon - start < 6 { start -= 1 }
        if start > bytes.startIndex, isLetter(bytes[start - 1]) { return false }
        let scheme = bytes[start..<colon].map { $0 | asciiCaseBit }
        return scheme == Array("http".utf8) || scheme == Array("https".utf8) || scheme == Array("ftp".utf8)
    }

    /// Whether the `@` at `at` is that of an extended e-mail autolink: a local part of letters,
    /// digits and `.+-_` right before it, and after it a domain of letters, digits and `-_.`
    /// holding a `.`, that (its trailing dots aside) does not end in `-` or `_`.
    static func isEmailAt(_ bytes: ArraySlice<UInt8>, _ at: Int) -> Bool {
        guard at > bytes.startIndex, isLocalPart(bytes[at - 1]) else { return false }
        var end = at + 1
        while end < bytes.endIndex, isDomain(bytes[end]) { end += 1 }
        while end > at + 1, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > at + 1 else { return false }
        let domain = bytes[(at + 1)..<end]
        guard let last = domain.last, last != UInt8(ascii: "-"), last != UInt8(ascii: "_") else { return false }
        return domain.contains(UInt8(ascii: "."))
    }

    /// The first e-mail address in `bytes` the extension would link, for a diagnostic to name.
    static func firstEmail(in bytes: ArraySlice<UInt8>) -> String? {
        guard let at = bytes.indices.first(where: { bytes[$0] == UInt8(ascii: "@") && isEmailAt(bytes, $0) }) else { return nil }
        var start = at
        while start > bytes.startIndex, isLocalPart(bytes[start - 1]) { start -= 1 }
        var end = at + 1
        while end < bytes.endIndex, isDomain(bytes[end]) { end += 1 }
        while bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The bit that tells an ASCII letter's cases apart (`A` | it is `a`).
    private static let asciiCaseBit: UInt8 = 0x20

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | asciiCaseBit) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLocalPart(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func isDomain(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
