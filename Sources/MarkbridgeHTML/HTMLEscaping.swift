@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTMLParser

/// Escaping for HTML output: text content and double-quoted attribute values. Everything the
/// parser would read as markup is escaped, so no input text becomes a tag (`<script>` in text
/// comes out as `&lt;script&gt;`), and no attribute value can break out of its quotes.
package enum HTMLEscaping {
    /// Text content, given and written as UTF-8: `&`, `<`, `>`; controls the parser would drop
    /// or fold as references; a line feed as `<br>` unless `preformatted`. Every character that
    /// needs escaping is ASCII, so the bytes between them are copied in runs, found sixteen
    /// bytes at a time.
    static func appendText(_ text: ArraySlice<UInt8>, to out: inout [UInt8], preformatted: Bool) {
        appendText(text.span, to: &out, preformatted: preformatted)
    }

    static func appendText(_ text: Span<UInt8>, to out: inout [UInt8], preformatted: Bool) {
        typealias Block = SIMD16<UInt8>
        let space = Block(repeating: 0x20), ampersand = Block(repeating: 0x26), less = Block(repeating: 0x3C)
        let greater = Block(repeating: 0x3E), delete = Block(repeating: 0x7F), xC2 = Block(repeating: 0xC2)
        var run = 0
        var index = 0
        // Controls (tab and, when preformatted, line feed among them, which stay as they are),
        // `&`, `<`, `>`, DEL and the lead byte of C1 controls stop the scan.
        while let next = ByteScan.firstIndex(in: text, from: index, whereBlock: { block in
            (block .< space) .| (block .== ampersand) .| (block .== less) .| (block .== greater) .| (block .== delete) .| (block .== xC2)
        }, whereByte: { byte in
            byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == 0x7F || byte == 0xC2
        }) {
            index = next + 1
            let byte = text[next]
            let replacement: StaticString
            switch byte {
            case 0xC2:
                // A C1 control (C2 80 to C2 9F), as a reference: raw, it would reach whoever
                // prints the HTML (HOSTILE-INPUTS E8). Most read back as Windows-1252
                // characters, which the writer reports (see HTMLBlockEmitter).
                guard next + 1 < text.count, text[next + 1] <= 0x9F else { continue }
                out.append(copying: text.extracting(run..<next))
                appendC1Reference(text[next + 1], to: &out)
                index = next + 2
                run = index
                continue
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
                out.append(copying: text.extracting(run..<next))
                out.append(contentsOf: "&#\(byte);".utf8)
                run = next + 1
                continue
            }
            out.append(copying: text.extracting(run..<next))
            out.append(replacement)
            run = next + 1
        }
        out.append(copying: text.extracting(run...))
    }

    /// A C1 control, given by the second byte of its UTF-8 (0x80 to 0x9F), as `&#x80;`.
    static func appendC1Reference(_ secondByte: UInt8, to out: inout [UInt8]) {
        C1Reference.append(secondByte: secondByte, to: &out)
    }

    /// The C1 controls in written HTML (as ``appendC1Reference(_:to:)`` writes them: an `&` of
    /// the text is always `&amp;`, so no other `&#x8` or `&#x9` is there) that a reader reads
    /// as another character, each with that character.
    static func c1ReferencesReadOtherwise(in html: ArraySlice<UInt8>) -> [(control: UInt32, readAs: UInt32)] {
        var found: [(UInt32, UInt32)] = []
        var index = html.startIndex
        while let ampersand = html[index...].firstIndex(of: UInt8(ascii: "&")) {
            index = ampersand + 1
            guard ampersand + 5 < html.endIndex, html[ampersand + 1] == UInt8(ascii: "#"), html[ampersand + 2] == UInt8(ascii: "x"),
                  html[ampersand + 5] == UInt8(ascii: ";"), let high = hexValue(html[ampersand + 3]), let low = hexValue(html[ampersand + 4]),
                  high == 8 || high == 9 else { continue }
            let control = UInt32(high << 4 | low)
            let readAs = HTMLNumericReference.readsAs(control)
            if readAs != control { found.append((control, readAs)) }
        }
        return found
    }

    /// How many times `pattern` occurs in `html`, not overlapping.
    static func occurrences(of pattern: String, in html: ArraySlice<UInt8>) -> Int {
        let needle = pattern.utf8
        guard let first = needle.first else { return 0 }
        var count = 0
        var index = html.startIndex
        while let candidate = html[index...].firstIndex(of: first) {
            if html[candidate...].starts(with: needle) {
                count += 1
                index = candidate + needle.count
            } else {
                index = candidate + 1
            }
        }
        return count
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// An attribute value, for double quotes: `&`, `"`, `<`, `>` and `'` escaped, and controls
    /// as references.
    public static func attribute(_ value: String) -> String {
        // Most values (URLs, class names) have nothing to escape: a byte scan says so.
        let needsEscaping = value.utf8.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "'") || byte < 0x20 || byte == 0x7F || byte == 0xC2
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
            case "\u{80}"..."\u{9F}":
                var reference: [UInt8] = []
                appendC1Reference(UInt8(scalar.value), to: &reference)
                out += String(decoding: reference, as: UTF8.self)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
