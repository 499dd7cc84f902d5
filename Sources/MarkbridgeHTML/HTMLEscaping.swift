/// Escaping for HTML output: text content and double-quoted attribute values. Everything the
/// parser would read as markup is escaped, so no input text becomes a tag (`<script>` in text
/// comes out as `&lt;script&gt;`), and no attribute value can break out of its quotes.
enum HTMLEscaping {
    /// Text content: `&`, `<`, `>`; controls the parser would drop or fold as references;
    /// a line feed as `<br>` unless `preformatted`.
    static func appendText(_ text: Substring, to out: inout String, preformatted: Bool) {
        let scalars = text.unicodeScalars
        var run = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let replacement: String?
            switch scalar {
            case "&": replacement = "&amp;"
            case "<": replacement = "&lt;"
            case ">": replacement = "&gt;"
            case "\n": replacement = preformatted ? nil : "<br>"
            case "\t": replacement = nil
            case "\r": replacement = "&#13;"
            case "\u{0}": replacement = "&#xFFFD;"
            case "\u{1}"..."\u{1F}", "\u{7F}": replacement = "&#\(scalar.value);"
            default: replacement = nil
            }
            let next = scalars.index(after: index)
            if let replacement {
                out.append(contentsOf: text[run..<index])
                out.append(replacement)
                run = next
            }
            index = next
        }
        out.append(contentsOf: text[run..<scalars.endIndex])
    }

    /// An attribute value, for double quotes: `&`, `"`, `<`, `>` and `'` escaped.
    static func attribute(_ value: String) -> String {
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
