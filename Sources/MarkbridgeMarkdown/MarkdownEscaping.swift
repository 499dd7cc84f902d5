/// Escaping for CommonMark text, after cmark's context-sensitive rules (commonmark.c): escape
/// only what could start syntax where it stands, never every punctuation character.
enum MarkdownEscaping {
    /// Escapes one line of paragraph text (no line breaks in it), given and written as UTF-8.
    /// `atLineStart` says the line begins a line of output, where block syntax (`#`, `>`, `-`,
    /// `1.`, fences, indentation) could start. Every character that needs escaping is ASCII (or
    /// U+FEFF), so the bytes between them are copied in runs.
    static func line(_ bytes: ArraySlice<UInt8>, atLineStart: Bool, into out: inout [UInt8]) {
        let base = bytes.startIndex
        let end = bytes.endIndex
        // A line start that could be read as a list marker: digits then `.` or `)`.
        var digitRun = 0
        if atLineStart {
            while base + digitRun < end, isDigit(bytes[base + digitRun]) { digitRun += 1 }
        }
        var runStart = base
        var index = base
        // Past the line start, only the bytes in `mayNeedEscape` can need anything: the others
        // are skipped in a tight loop (most text has none of them for many bytes).
        let lineStartRules = atLineStart ? base + digitRun : base - 1
        let mayNeedEscape = Self.mayNeedEscape
        while index < end {
            if index > lineStartRules {
                index = bytes.withUnsafeBufferPointer { buffer in
                    var offset = index - base
                    while offset < buffer.count, !mayNeedEscape[Int(buffer[offset])] { offset += 1 }
                    return base + offset
                }
                if index == end { break }
            }
            let byte = bytes[index]
            var replacement: StaticString?
            var keepsByte = false
            var length = 1
            switch byte {
            case 0x5C, 0x60, 0x2A, 0x5F, 0x5B, 0x5D, 0x3C, 0x3E, 0x23: // \ ` * _ [ ] < > #
                replacement = "\\"
                keepsByte = true
            case 0x21 where index + 1 < end && bytes[index + 1] == 0x5B: // ! before [
                replacement = "\\!"
            case 0x26 where startsReference(bytes, at: index + 1): // & before what could name an entity
                replacement = "\\&"
            case 0x2D, 0x2B, 0x3D, 0x7E: // - + = ~
                guard atLineStart && index == base else { index += 1; continue }
                replacement = "\\"
                keepsByte = true
            case 0x2E, 0x29: // . ) after a leading digit run
                guard atLineStart && digitRun > 0 && index == base + digitRun else { index += 1; continue }
                replacement = "\\"
                keepsByte = true
            case 0x0D:
                replacement = "&#13;"
            case 0x00:
                replacement = "&#xFFFD;"
            case 0x09:
                replacement = "&#9;"
            case 0x01...0x08, 0x0B...0x0C, 0x0E...0x1F, 0x7F:
                replacement = nil
            case 0xEF where index + 2 < end && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
                // A byte-order mark would be dropped if it began the document.
                replacement = "&#xFEFF;"
                length = 3
            default:
                index += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<index])
            if let replacement {
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                if keepsByte { out.append(byte) }
            } else {
                out.append(contentsOf: "&#\(byte);".utf8)
            }
            index += length
            runStart = index
        }
        out.append(contentsOf: bytes[runStart..<end])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The bytes the switch in `line` acts on anywhere in a line (the line-start rules for
    /// `-`, `+`, `=`, `~`, `.` and `)` are applied before the skipping starts).
    private static let mayNeedEscape: [Bool] = (0..<256).map { value in
        switch UInt8(value) {
        case 0x5C, 0x60, 0x2A, 0x5F, 0x5B, 0x5D, 0x3C, 0x3E, 0x23, 0x21, 0x26, 0xEF: true
        case 0x00...0x1F, 0x7F: true
        default: false
        }
    }

    /// Whether the character at `index` could continue `&` into a character reference: a
    /// letter (any script), a digit or `#`.
    private static func startsReference(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        guard index < bytes.endIndex else { return false }
        let byte = bytes[index]
        if byte < 0x80 {
            return isDigit(byte) || byte == 0x23 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
        var end = index + 1
        while end < bytes.endIndex && bytes[end] & 0xC0 == 0x80 { end += 1 }
        let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first
        return scalar?.properties.isAlphabetic ?? false
    }

    /// Spaces at the start or end of a line of paragraph text would be stripped (or, two at the
    /// end, make a hard break): written as character references there.
    static func protectingLineEdges(_ line: Substring) -> String {
        let scalars = Array(line.unicodeScalars)
        var first = 0
        var last = scalars.count
        while first < last, scalars[first] == " " { first += 1 }
        while last > first, scalars[last - 1] == " " { last -= 1 }
        if first == 0 && last == scalars.count { return String(line) }
        var out = String(repeating: "&#32;", count: first)
        out.unicodeScalars.append(contentsOf: scalars[first..<last])
        out += String(repeating: "&#32;", count: scalars.count - last)
        return out
    }

    /// A link destination in pointy brackets, where only `<`, `>` and `\` need escaping.
    static func destination(_ url: String) -> String {
        if !url.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x5C || $0 == 0x0A }) { return "<" + url + ">" }
        var out = "<"
        for scalar in url.unicodeScalars {
            switch scalar {
            case "<", ">", "\\": out += "\\"; out.unicodeScalars.append(scalar)
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + ">"
    }

    /// A link title in double quotes.
    static func title(_ title: String) -> String {
        if !title.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 == 0x26 }) { return "\"" + title + "\"" }
        var out = "\""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\"; out.unicodeScalars.append(scalar)
            case "&": out += "\\&"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A code span: a backtick fence longer than any run inside, padded with a space where the
    /// content begins or ends with a backtick, or with a space at both ends (CommonMark strips
    /// one space from each end in that case).
    static func codeSpan(_ content: String) -> String {
        var longest = 0
        var run = 0
        for scalar in content.unicodeScalars {
            if scalar == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let allSpaces = content.unicodeScalars.allSatisfy { $0 == " " }
        let needsPadding = !allSpaces && (content.hasPrefix("`") || content.hasSuffix("`") || (content.hasPrefix(" ") && content.hasSuffix(" ")))
        let pad = needsPadding ? " " : ""
        return fence + pad + content + pad + fence
    }
}
