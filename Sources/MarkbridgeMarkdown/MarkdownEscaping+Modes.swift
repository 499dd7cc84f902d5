@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Escaping outside running text: destinations, titles and info strings by mode, and the
/// controls and references every mode shares.
extension MarkdownEscaping {
    /// What is escaped, and how, outside running text, after cmark's escaping modes
    /// (commonmark.c's `escaping`: `URL`, `TITLE`, `LITERAL`): each is read back exactly, and
    /// the rules they share (references, controls, `![`) are written once, in
    /// ``escape(_:as:into:)``. Running text has rules by position in the line instead (``line(_:atLineStart:gfm:insideLink:allowsHTML:into:)``),
    /// and a code span none but its fence (``codeSpan(_:into:)``).
    enum Mode {
        /// A link or image destination. CommonMark decodes character references and backslash
        /// escapes in destinations (so `&#106;avascript:` would read back as `javascript:`), and
        /// cmark decodes the references first: `\&` does not keep an `&` (it reads back as a
        /// backslash and the decoded reference), so an `&` that could begin a reference is
        /// written `&amp;`. Most URLs are written bare, as people write them, a backslash as
        /// `\\`; one with spaces, controls, unbalanced or deeply nested parentheses, or a
        /// leading `<` goes in pointy brackets, with references for line breaks and other
        /// controls (a real line break would end it).
        case destination
        /// A link or image title in double quotes: `"` and `\` as references, and line breaks
        /// as references, so that no title holds a line ending (a blank line would end the
        /// paragraph and let the rest be read as Markdown, raw HTML included; a single one
        /// would need the container prefixes).
        case title
        /// A fenced code block's info string (its language), after a fence of `fence`
        /// characters. The rest of the fence line is the info string, so escapes are
        /// unambiguous here: a backslash is `\\`, and a leading fence character is escaped
        /// (it would lengthen the fence).
        case infoString(fence: UInt8)
    }

    /// `value` written where `mode` says, so that cmark reads back exactly `value`: an `&` that
    /// could begin a character reference as `&amp;`, a `!` before a `[` as `&#33;`, controls
    /// (a line ending above all) and C1 controls as references, a backslash as the mode writes
    /// it, and the construct's own delimiters as references inside it.
    static func escape(_ value: String, as mode: Mode, into out: inout [UInt8]) {
        let bytes = value.utf8.span
        // The delimiters around the value, written as references inside it, and a backslash.
        let delimiters: (open: UInt8, close: UInt8)?
        let backslash: StaticString
        switch mode {
        case .destination where writesBare(bytes):
            delimiters = nil
            backslash = #"\\"#
        // No backslash inside and no closing delimiter: cmark 0.30.2 scans pointy destinations
        // and titles with patterns that may read a backslash as a plain character, and takes
        // the longest match, so `<a\\\>` or `"a\\\""` could run on to a later `>` or `"` on the
        // line. References decode before escapes are undone, so a backslash is two
        // references, whose decoded pair reads as one.
        case .destination:
            delimiters = (UInt8(ascii: "<"), UInt8(ascii: ">"))
            backslash = "&#92;&#92;"
        case .title:
            delimiters = (UInt8(ascii: "\""), UInt8(ascii: "\""))
            backslash = "&#92;&#92;"
        case .infoString(let fence):
            if !bytes.isEmpty && bytes[0] == fence { out.append(UInt8(ascii: "\\")) }
            delimiters = nil
            backslash = #"\\"#
        }
        if let delimiters { out.append(delimiters.open) }
        // By index over the bytes: zipping the string's indices with its bytes was 1.7% of
        // writing a real article's Markdown.
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"): out.append(backslash)
            case UInt8(ascii: "<") where delimiters?.open == byte: out.append("&lt;")
            case UInt8(ascii: ">") where delimiters?.close == byte: out.append("&gt;")
            case UInt8(ascii: "\"") where delimiters?.close == byte: out.append("&quot;")
            case UInt8(ascii: "&") where startsCharacterReference(bytes, after: index): out.append("&amp;")
            // `![` opens nothing here, but the complexity guard (``MarkdownComplexityGuard``)
            // counts every one it scans as an image opener and refuses a paragraph of many.
            case UInt8(ascii: "!") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "["): out.append("&#33;")
            // A bare destination has none of these (``writesBare(_:)``), a tab is itself.
            case 0x00...0x08, 0x0A...0x1F, 0x7F: appendReference(to: byte, into: &out)
            // A C1 control's UTF-8 (C2 80 to C2 9F): its lead is skipped, its second byte written as a reference.
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] <= 0x9F: continue
            case 0x80...0x9F where index > 0 && bytes[index - 1] == 0xC2: appendC1Reference(byte, into: &out)
            default: out.append(byte)
            }
        }
        if let delimiters { out.append(delimiters.close) }
    }

    /// CommonMark's second form of destination: not empty, not starting with `<`, no space or
    /// ASCII control, and parentheses balanced. Nesting is kept shallow (cmark stops at 32).
    private static func writesBare(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes[0] != UInt8(ascii: "<") else { return false }
        // Backslashes are doubled when written, so no parenthesis here is escaped.
        var depth = 0
        for index in bytes.indices {
            switch bytes[index] {
            case 0x00...UInt8(ascii: " "), 0x7F: return false
            case UInt8(ascii: "("):
                depth += 1
                if depth > 8 { return false }
            case UInt8(ascii: ")"):
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0
    }

    /// A control character as a numeric reference, which CommonMark decodes in destinations,
    /// titles and info strings: a line ending written raw would end the construct, and the
    /// others would reach a terminal that prints the output. (NUL reads back as U+FFFD, as
    /// cmark reads every NUL.)
    private static func appendReference(to byte: UInt8, into out: inout [UInt8]) {
        out.append(contentsOf: "&#\(byte);".utf8)
    }

    /// A C1 control, given by the second byte of its UTF-8 (0x80 to 0x9F), as `&#x80;`, which
    /// cmark decodes back to it (CommonMark replaces only invalid code points and NUL).
    static func appendC1Reference(_ secondByte: UInt8, into out: inout [UInt8]) {
        C1Reference.append(secondByte: secondByte, to: &out)
    }

    /// Whether text has a character a fenced code block cannot hold as itself (references are
    /// not read there): CR, a C0 control other than tab and line feed, DEL, or a C1 control.
    static func hasRawControl(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0
        return bytes.contains { byte in
            defer { previous = byte }
            return (byte < UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n")) || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F)
        }
    }

    /// `bytes` (UTF-8) with those controls replaced by U+FFFD, and how many there were.
    static func replacingRawControls(_ bytes: [UInt8]) -> ([UInt8], Int) {
        let (replaced, count) = replacingRawControls(String(decoding: bytes, as: UTF8.self))
        return (Array(replaced.utf8), count)
    }

    /// `text` with those controls replaced by U+FFFD, and how many there were.
    static func replacingRawControls(_ text: String) -> (String, Int) {
        var count = 0
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) {
                scalars.append("\u{FFFD}")
                count += 1
            } else {
                scalars.append(scalar)
            }
        }
        return (String(scalars), count)
    }

    /// Whether the text after an `&` makes it a character reference CommonMark would decode:
    /// a name of letters and digits, `#` and decimal digits, or `#x` and hex digits, then `;`.
    /// Any name counts (cmark decodes only the HTML5 names, but escaping one more `&` is
    /// harmless, and missing one is not).
    static func startsCharacterReference(_ text: Span<UInt8>, after ampersand: Int) -> Bool {
        var position = ampersand + 1
        func next() -> UInt8? {
            guard position < text.count else { return nil }
            defer { position += 1 }
            return text[position]
        }
        guard let first = next() else { return false }
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | asciiCaseBit) }
        func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
        var accepts: (UInt8) -> Bool = isAlphanumeric
        var count = 0
        if first == UInt8(ascii: "#") {
            guard let second = next() else { return false }
            if second | asciiCaseBit == UInt8(ascii: "x") {
                accepts = isHex
            } else {
                guard isDigit(second) else { return false }
                accepts = isDigit
                count = 1
            }
        } else {
            guard isAlphanumeric(first) else { return false }
            count = 1
        }
        while let byte = next() {
            if byte == UInt8(ascii: ";") { return count > 0 }
            guard accepts(byte) else { return false }
            count += 1
        }
        return false
    }
}
