import MarkbridgeHTML
import MarkbridgeIR

/// Writes a block's text and markups as CommonMark inline content. Crossing markups are split
/// into nested runs as the HTML writer splits them. Emphasis delimiters follow a strategy the
/// block writer picks and verifies by reading the result back (see ``MarkdownWriter``).
struct MarkdownInlineRenderer {
    enum EmphasisStyle {
        /// `*` and `**`, switching to `_` where a run would touch another `*` run (CommonMark
        /// merges adjacent delimiter runs of one character: `**a****b**` is not two strongs).
        case asteriskFirst
        /// `_` first, for text where `*` runs do not flank (`_` is not subject to the same
        /// punctuation cases, and the other way round).
        case underscoreFirst
        /// `<em>` and `<strong>`: always read back, needs inline HTML.
        case html
    }

    let emphasis: EmphasisStyle
    let allowsHTML: Bool
    var diagnostics: [Diagnostic] = []
    /// Whether every emphasis delimiter written sits where CommonMark's flanking rules surely
    /// read it as written (see `FlankingCheck`); when not, the writer reads the output back.
    private(set) var delimitersAreSafe = true

    init(emphasis: EmphasisStyle, allowsHTML: Bool) {
        self.emphasis = emphasis
        self.allowsHTML = allowsHTML
    }

    /// The inline Markdown for `block`; lines separated by `\n` (hard breaks already written).
    mutating func render(_ block: Block, blockIndex: Int) -> String {
        var spans: [Markup] = []
        var images: [Int: ImageSource] = [:]
        for markup in block.markups {
            switch markup.kind {
            case .image(let image): images[markup.range.start] = image
            case .strong, .emphasis, .link, .code: spans.append(markup)
            case .strike, .underline, .superscript, .subscript, .highlight, .color, .background:
                if allowsHTML {
                    spans.append(markup)
                } else {
                    diagnostics.append(.warning("markup-dropped", "\(markup.kind.name) \(markup.range) in block \(blockIndex) has no CommonMark syntax; dropped (--markdown-html drop)"))
                }
            }
        }
        var state = RunState(renderer: self, spans: spans)
        let scalars = Array(block.text.unicodeScalars)[...]
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += scalar.value > 0xFFFF ? 2 : 1
        }
        offsets.append(offset)
        var index = 0
        var runStart = 0
        while index <= scalars.count {
            let here = offsets[index]
            if state.hasBoundary(at: here) || images[here] != nil || index == scalars.count {
                state.writeText(scalars[runStart..<index])
                state.boundary(at: here)
                runStart = index
            }
            if index == scalars.count { break }
            if let image = images[here], scalars[index] == "\u{FFFC}" {
                state.writeText(scalars[runStart..<index])
                state.write("![" + Self.escapedLabel(image.alt ?? "") + "](" + MarkdownEscaping.destination(image.src)
                            + (image.title.map { " " + MarkdownEscaping.title($0) } ?? "") + ")")
                runStart = index + 1
            }
            index += 1
        }
        state.closeAll()
        diagnostics += state.diagnostics
        delimitersAreSafe = FlankingCheck.allSafe(state.out, state.delimiters)
        let out = state.out
        // Most lines neither start nor end with a space; only the others are rewritten.
        guard out.hasPrefix(" ") || out.hasSuffix(" ") || out.contains(" \n") || out.contains("\n ") else { return out }
        return out.split(separator: "\n", omittingEmptySubsequences: false)
            .map(MarkdownEscaping.protectingLineEdges).joined(separator: "\n")
    }

    /// Image alt text: escaped as text, a line break as a character reference (a real one
    /// would be read as a space in alt text).
    static func escapedLabel(_ text: String) -> String {
        var out = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += "&#10;" }
            MarkdownEscaping.line(ArraySlice(line.unicodeScalars), atLineStart: false, into: &out)
        }
        return MarkdownEscaping.protectingLineEdges(Substring(out))
    }

    /// Open runs and the output of one block's inline content.
    private struct RunState {
        let renderer: MarkdownInlineRenderer
        let spans: [Markup]
        var starts: [Int: [Int]] = [:]
        var open: [(index: Int, delimiter: String)] = []
        var out = ""
        var diagnostics: [Diagnostic] = []
        /// Inside a code span: text is collected raw and written as one span when it closes.
        var codeDepth = 0
        var codeText = ""
        /// Whether anything has been written on the current output line.
        var lineHasContent = false
        /// Emphasis delimiters written: UTF-8 offset in `out`, length, and whether it opens.
        var delimiters: [(offset: Int, length: Int, opens: Bool)] = []

        init(renderer: MarkdownInlineRenderer, spans: [Markup]) {
            self.renderer = renderer
            self.spans = spans
            for (index, markup) in spans.enumerated() { starts[markup.range.start, default: []].append(index) }
        }

        func hasBoundary(at offset: Int) -> Bool {
            starts[offset] != nil || open.contains { spans[$0.index].range.end == offset }
        }

        mutating func write(_ piece: String) {
            if codeDepth > 0 {
                codeText += piece
                return
            }
            out += piece
            if !piece.isEmpty { lineHasContent = true }
        }

        /// Text between boundaries: escaped, with hard breaks between its lines.
        mutating func writeText(_ scalars: ArraySlice<Unicode.Scalar>) {
            guard !scalars.isEmpty else { return }
            if codeDepth > 0 {
                codeText.unicodeScalars.append(contentsOf: scalars)
                return
            }
            var lineStart = scalars.startIndex
            var index = scalars.startIndex
            while true {
                let atEnd = index == scalars.endIndex
                if atEnd || scalars[index] == "\n" {
                    let line = scalars[lineStart..<index]
                    if lineStart > scalars.startIndex { lineBreak(beforeEmptyLine: line.isEmpty) }
                    if !line.isEmpty {
                        MarkdownEscaping.line(line, atLineStart: !lineHasContent, into: &out)
                        lineHasContent = true
                    }
                    if atEnd { break }
                    lineStart = index + 1
                }
                index += 1
            }
        }

        /// A hard break: backslash-newline between two lines with text, `<br>` where CommonMark
        /// has no break (at a block's edge, or two in a row).
        mutating func lineBreak(beforeEmptyLine: Bool) {
            if lineHasContent && !beforeEmptyLine {
                out += "\\\n"
                lineHasContent = false
            } else if renderer.allowsHTML {
                out += "<br>"
                lineHasContent = true
            } else {
                diagnostics.append(.warning("line-break-dropped", "a line break at the edge of a block has no CommonMark syntax; dropped (--markdown-html drop)"))
            }
        }

        mutating func boundary(at offset: Int) {
            if let deepest = open.firstIndex(where: { spans[$0.index].range.end == offset }) {
                let closing = Array(open[deepest...])
                for entry in closing.reversed() { close(entry) }
                open.removeSubrange(deepest...)
                let reopen = closing.filter { spans[$0.index].range.end > offset }.sorted { spans[$0.index].range.end > spans[$1.index].range.end }
                for entry in reopen { openSpan(entry.index) }
            }
            for index in starts[offset] ?? [] where spans[index].range.end > offset { openSpan(index) }
        }

        mutating func closeAll() {
            for entry in open.reversed() { close(entry) }
            open.removeAll()
        }

        private mutating func openSpan(_ index: Int) {
            let kind = spans[index].kind
            let delimiter: String
            switch kind {
            case .strong, .emphasis:
                delimiter = emphasisDelimiter(strong: kind == .strong)
                if !delimiter.hasPrefix("<") && codeDepth == 0 { delimiters.append((out.utf8.count, delimiter.utf8.count, true)) }
                write(delimiter)
            case .code:
                delimiter = "`"
                if codeDepth == 0 { codeText = "" }
                codeDepth += 1
            case .link:
                delimiter = "]"
                write("[")
            default:
                delimiter = HTMLInlineRenderer.endTag(kind)
                write(HTMLInlineRenderer.startTag(kind))
            }
            open.append((index, delimiter))
        }

        private mutating func close(_ entry: (index: Int, delimiter: String)) {
            let kind = spans[entry.index].kind
            switch kind {
            case .code:
                codeDepth -= 1
                guard codeDepth == 0 else { return }
                if codeText.contains("\n") {
                    // A code span cannot hold a line break: inline HTML can.
                    let html = "<code>" + codeText.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                        var escaped = ""
                        MarkdownEscaping.line(ArraySlice(line.unicodeScalars), atLineStart: false, into: &escaped)
                        return escaped
                    }.joined(separator: "<br>") + "</code>"
                    write(html)
                } else {
                    write(MarkdownEscaping.codeSpan(codeText))
                }
            case .link(let target):
                write("](" + MarkdownEscaping.destination(target.href) + (target.title.map { " " + MarkdownEscaping.title($0) } ?? "") + ")")
            case .strong where entry.delimiter.hasPrefix("<"), .emphasis where entry.delimiter.hasPrefix("<"):
                write("</" + entry.delimiter.dropFirst())
            case .strong, .emphasis:
                if codeDepth == 0 { delimiters.append((out.utf8.count, entry.delimiter.utf8.count, false)) }
                write(entry.delimiter)
            default:
                write(entry.delimiter)
            }
        }

        private func emphasisDelimiter(strong: Bool) -> String {
            let count = strong ? 2 : 1
            switch renderer.emphasis {
            case .html:
                return strong ? "<strong>" : "<em>"
            case .asteriskFirst, .underscoreFirst:
                let preferred: Character = renderer.emphasis == .asteriskFirst ? "*" : "_"
                let other: Character = preferred == "*" ? "_" : "*"
                let character = out.last == preferred ? other : preferred
                return String(repeating: character, count: count)
            }
        }
    }
}
