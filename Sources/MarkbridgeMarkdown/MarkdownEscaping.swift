/// Escaping for CommonMark text, after cmark's context-sensitive rules (commonmark.c): escape
/// only what could start syntax where it stands, never every punctuation character.
enum MarkdownEscaping {
    /// Escapes one line of paragraph text (no line breaks in it). `atLineStart` says the line
    /// begins a line of output, where block syntax (`#`, `>`, `-`, `1.`, fences, indentation)
    /// could start.
    static func line(_ scalars: ArraySlice<Unicode.Scalar>, atLineStart: Bool, into out: inout String) {
        // A line start that could be read as a list marker: digits then `.` or `)`.
        let base = scalars.startIndex
        var digitRun = 0
        if atLineStart {
            while base + digitRun < scalars.endIndex, ("0"..."9").contains(scalars[base + digitRun]) { digitRun += 1 }
        }
        for index in scalars.indices {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.endIndex ? scalars[index + 1] : nil
            let lineStart = atLineStart && index == base
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "#":
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "!" where next == "[":
                out += "\\!"
            case "&" where next.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "#" } ?? false:
                out += "\\&"
            case "-" where lineStart, "+" where lineStart, "=" where lineStart, "~" where lineStart:
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "." where atLineStart && digitRun > 0 && index == base + digitRun, ")" where atLineStart && digitRun > 0 && index == base + digitRun:
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "\r":
                out += "&#13;"
            case "\u{0}":
                out += "&#xFFFD;"
            case "\u{1}"..."\u{8}", "\u{B}"..."\u{C}", "\u{E}"..."\u{1F}", "\u{7F}":
                out += "&#\(scalar.value);"
            case "\t":
                out += "&#9;"
            case "\u{FEFF}":
                // A byte-order mark would be dropped if it began the document.
                out += "&#xFEFF;"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
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
