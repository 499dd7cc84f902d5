/// Escaping for HTML output: text content and double-quoted attribute values. Everything the
/// parser would read as markup is escaped, so no input text becomes a tag (`<script>` in text
/// comes out as `&lt;script&gt;`), and no attribute value can break out of its quotes.
enum HTMLEscaping {
    /// Text content, given and written as UTF-8: `&`, `<`, `>`; controls the parser would drop
    /// or fold as references; a line feed as `<br>` unless `preformatted`. Every character that
    /// needs escaping is ASCII, so the bytes between them are copied in runs.
    static func appendText(_ text: ArraySlice<UInt8>, to out: inout [UInt8], preformatted: Bool) {
        var run = text.startIndex
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x3F || byte == 0x7F else { continue }
            let replacement: StaticString
            switch byte {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x0A:
                if preformatted { continue }
                replacement = "<br>"
            case 0x09: continue
            case 0x0D: replacement = "&#13;"
            case 0x00: replacement = "&#xFFFD;"
            case 0x01...0x1F, 0x7F:
                out.append(contentsOf: text[run..<index])
                out.append(contentsOf: "&#\(byte);".utf8)
                run = index + 1
                continue
            default: continue
            }
            out.append(contentsOf: text[run..<index])
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            run = index + 1
        }
        out.append(contentsOf: text[run..<text.endIndex])
    }

    /// An attribute value, for double quotes: `&`, `"`, `<`, `>` and `'` escaped.
    static func attribute(_ value: String) -> String {
        // Most values (URLs, class names) have nothing to escape: a byte scan says so.
        let needsEscaping = value.utf8.contains { byte in
            byte == 0x26 || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x27 || byte <= 0x0D
        }
        guard needsEscaping else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\r": out += "&#13;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\u{0}": out += "&#xFFFD;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
