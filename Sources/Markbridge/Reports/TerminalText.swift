/// Text the command prints for people, made safe to print: no control character from the
/// input reaches the terminal, where escape sequences would recolour, retitle or rewrite the
/// screen, and a line break inside a message would fake a line of its own.
package enum TerminalText {
    /// `text` on one line: every C0 control (line breaks and tabs included), DEL, C1 control and
    /// bidirectional override shown as a `\u{XX}` escape, in the spelling Swift's own string
    /// literals use.
    package static func line(_ text: String) -> String {
        escaping(text) { _ in true }
    }

    /// `text` with its line breaks and tabs kept, and every other control escaped as in
    /// ``line(_:)``: for whole blocks of output (a message list, a tree dump).
    package static func lines(_ text: String) -> String {
        escaping(text) { $0 != "\n" && $0 != "\t" }
    }

    private static func escaping(_ text: String, _ escapes: (Unicode.Scalar) -> Bool) -> String {
        // C0, DEL and C1; and the bidirectional overrides and isolates, which reorder what a
        // terminal shows (a filename that reads backwards, code that is not what it seems).
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: { isControl($0) && escapes($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && escapes(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
