@_spi(Internals) import MarkbridgeBytes
@_spi(Internals) import MarkbridgeIR

/// Escaping for HTML output: text content and double-quoted attribute values. Everything the
/// parser would read as markup is escaped, so no input text becomes a tag (`<script>` in text
/// comes out as `&lt;script&gt;`), and no attribute value can break out of its quotes.
@_spi(Internals) public enum HTMLEscaping {
    /// Text content, given and written as UTF-8: `&`, `<`, `>`; controls the parser would drop
    /// or fold as references; a line feed as `<br>` unless `preformatted`. Every character that
    /// needs escaping is ASCII, so the bytes between them are copied in runs, found sixteen
    /// bytes at a time.
    static func appendText(_ text: ArraySlice<UInt8>, to out: inout [UInt8], preformatted: Bool) {
        text.withUnsafeBufferPointer { appendText($0, to: &out, preformatted: preformatted) }
    }

    static func appendText(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], preformatted: Bool) {
        typealias Block = SIMD16<UInt8>
        let space = Block(repeating: 0x20), ampersand = Block(repeating: 0x26), less = Block(repeating: 0x3C)
        let greater = Block(repeating: 0x3E), delete = Block(repeating: 0x7F)
        var run = 0
        var index = 0
        // Controls (tab and, when preformatted, line feed among them, which stay as they are),
        // `&`, `<`, `>` and DEL stop the scan.
        while let next = ByteScan.firstIndex(in: text, from: index, whereBlock: { block in
            (block .< space) .| (block .== ampersand) .| (block .== less) .| (block .== greater) .| (block .== delete)
        }, whereByte: { byte in
            byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x7F
        }) {
            index = next + 1
            let byte = text[next]
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
            default:
                // The other C0 controls and DEL, as numeric references.
                out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<next]))
                out.append(contentsOf: "&#\(byte);".utf8)
                run = next + 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<next]))
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            run = next + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
    }

    /// An attribute value, for double quotes: `&`, `"`, `<`, `>` and `'` escaped, and controls
    /// as references.
    public static func attribute(_ value: String) -> String {
        // Most values (URLs, class names) have nothing to escape: a byte scan says so.
        let needsEscaping = value.utf8.contains { byte in
            byte == 0x26 || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x27 || byte < 0x20 || byte == 0x7F
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
            // Other C0 controls and DEL as references, as in text: raw, they would reach
            // whoever prints the HTML.
            case "\u{1}"..."\u{1F}", "\u{7F}": out += "&#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
