@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

extension MarkdownInlineRenderer {
    /// Open runs and the output of one block's inline content.
    struct RunState {
        let renderer: MarkdownInlineRenderer
        let spans: [Markup]
        /// The open spans, innermost last, with what closes each.
        var open: [(index: Int, delimiter: Delimiter)] = []
        /// The output as UTF-8.
        var out: [UInt8] = []
        var diagnostics: [Diagnostic] = []
        /// The block's index in the document, for diagnostics.
        var blockIndex = 0
        /// Inside a code span: text is collected raw and written as one span when it closes.
        var codeDepth = 0
        var codeText: [UInt8] = []
        /// Whether anything has been written on the current output line.
        var lineHasContent = false
        /// Emphasis delimiter runs and link brackets written outside code, in order.
        var marks: [EmphasisPrediction.Mark] = []
        var tildeRuns: [(offset: Int, opens: Bool)] = []
        var tildeInCode = false

        /// A state over `markups` (the traversal's indices point into them), its working arrays
        /// taken from `scratch` (see `finish`).
        init(renderer: MarkdownInlineRenderer, markups: [Markup], scratch: inout Scratch) {
            self.renderer = renderer
            self.spans = markups
            swap(&marks, &scratch.marks)
            marks.removeAll(keepingCapacity: true)
            marks.reserveCapacity(markups.count * 2)
        }

        /// The output; the working arrays go back to `scratch` for the next block.
        mutating func finish(givingBackTo scratch: inout Scratch) -> [UInt8] {
            swap(&marks, &scratch.marks)
            var result: [UInt8] = []
            swap(&result, &out)
            return result
        }

        /// What closes an open span.
        enum Delimiter {
            /// `count` of `character` (`*` or `_`).
            case emphasis(character: UInt8, count: Int)
            /// `</strong>` or `</em>`.
            case emphasisTag(strong: Bool)
            case code
            case link
            /// The end tag of a markup CommonMark has no syntax for.
            case tag(String)
            /// GitHub Flavored Markdown's strikethrough.
            case tildes
        }

        /// Writes a piece of syntax: into the code span's text inside one, else to the output.
        mutating func write(_ piece: (inout [UInt8]) -> Void) {
            if codeDepth > 0 {
                piece(&codeText)
                return
            }
            let before = out.count
            piece(&out)
            if out.count > before { lineHasContent = true }
        }

        mutating func write(_ piece: String) {
            write { $0.append(contentsOf: piece.utf8) }
        }

        /// Text between boundaries: escaped, with hard breaks between its lines.
        mutating func writeText(_ bytes: ArraySlice<UInt8>) {
            guard !bytes.isEmpty else { return }
            if codeDepth > 0 {
                codeText.append(contentsOf: bytes)
                return
            }
            let base = bytes.startIndex
            var lineStart = base
            while true {
                let newline = ByteScan.firstIndex(of: 0x0A, in: bytes.span, from: lineStart - base).map { base + $0 }
                let line = bytes[lineStart..<(newline ?? bytes.endIndex)]
                if lineStart > base { lineBreak(beforeEmptyLine: line.isEmpty) }
                if !line.isEmpty {
                    let linked = MarkdownEscaping.line(line, atLineStart: !lineHasContent, gfm: renderer.gfm, insideLink: isInsideLink,
                                                       allowsHTML: renderer.allowsHTML, into: &out)
                    if linked { noteAutolink(in: line) }
                    lineHasContent = true
                }
                guard let newline else { break }
                lineStart = newline + 1
            }
        }

        private var isInsideLink: Bool {
            open.contains { if case .link = $0.delimiter { true } else { false } }
        }

        /// GitHub Flavored Markdown without HTML cannot keep an e-mail address in text from
        /// its autolink extension: said once a block.
        private mutating func noteAutolink(in line: ArraySlice<UInt8>) {
            guard !diagnostics.contains(where: { $0.code == "autolink-added" }) else { return }
            diagnostics.append(.warning("autolink-added",
                "e-mail address \((GFMAutolinks.firstEmail(in: line) ?? "").debugDescription) in block \(blockIndex) reads back from GitHub Flavored Markdown as a mailto link: its autolink extension links it, and without HTML nothing keeps it plain",
                block: blockIndex))
        }

        /// A hard break: backslash-newline between two lines with text, `<br>` where CommonMark
        /// has no break (at a block's edge, or two in a row).
        mutating func lineBreak(beforeEmptyLine: Bool) {
            if lineHasContent && !beforeEmptyLine {
                out.append(contentsOf: "\\\n".utf8)
                lineHasContent = false
            } else if renderer.allowsHTML {
                out.append(contentsOf: "<br>".utf8)
                lineHasContent = true
            } else {
                diagnostics.append(.warning("line-break-dropped", "a line break at the edge of block \(blockIndex) has no CommonMark syntax; dropped (--markdown-html drop)", block: blockIndex))
            }
        }

        /// The traversal closes the innermost open span.
        mutating func closeSpan(_ index: Int) {
            guard let position = open.lastIndex(where: { $0.index == index }) else { return }
            close(open.remove(at: position))
        }

        mutating func openSpan(_ index: Int) {
            let kind = spans[index].kind
            let delimiter: Delimiter
            switch kind {
            case .strong, .emphasis:
                delimiter = emphasisDelimiter(strong: kind == .strong)
                switch delimiter {
                case .emphasis(let character, let count):
                    if codeDepth == 0 { marks.append(.init(offset: out.count, length: count, role: .opens)) }
                    write { $0.append(contentsOf: repeatElement(character, count: count)) }
                default:
                    write(kind == .strong ? "<strong>" : "<em>")
                }
            case .code:
                delimiter = .code
                if codeDepth == 0 { codeText.removeAll() }
                codeDepth += 1
            case .link:
                delimiter = .link
                if codeDepth == 0 { escapeBangBeforeBracket() }
                if codeDepth == 0 { marks.append(.init(offset: out.count, length: 0, role: .linkStart)) }
                write("[")
            case .strike where renderer.gfm && renderer.strikeStyle == .tildes:
                delimiter = .tildes
                writeTildes(opens: true)
            case .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .image, .hashtag, .mention:
                // Kinds CommonMark has no syntax for, as inline HTML (images never get here:
                // they are written where their U+FFFC stands).
                delimiter = .tag(HTMLInlineRenderer.endTag(kind))
                write(HTMLInlineRenderer.startTag(kind))
            }
            open.append((index, delimiter))
        }

        private mutating func close(_ entry: (index: Int, delimiter: Delimiter)) {
            switch entry.delimiter {
            case .code:
                codeDepth -= 1
                guard codeDepth == 0 else { return }
                var code = codeText
                let gfm = renderer.gfm
                let insideLink = isInsideLink
                // A code span holds its text raw, so a control (a CR, C0, DEL or C1) would reach
                // whoever prints the Markdown: inline HTML writes it as a reference, and without
                // HTML it is replaced, reported.
                let hasControl = MarkdownEscaping.hasRawControl(code)
                if hasControl && !renderer.allowsHTML {
                    let (replaced, count) = MarkdownEscaping.replacingRawControls(code)
                    code = replaced
                    diagnostics.append(.warning("control-character-replaced", "a code span in block \(blockIndex): \(count) control character\(count == 1 ? "" : "s") (CR, C0 other than tab and line feed, DEL or C1) replaced with U+FFFD: a code span cannot hold them (--markdown-html drop)", block: blockIndex))
                }
                if code.contains(0x0A) && !renderer.allowsHTML {
                    // A code span cannot hold a line break, and without HTML nothing else can:
                    // one span a line, hard breaks between them, reported.
                    diagnostics.append(.warning("code-span-split", "a code span with a line break in block \(blockIndex) has no CommonMark form; written as one span a line (--markdown-html drop)", block: blockIndex))
                    for (index, line) in code.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                        if index > 0 { lineBreak(beforeEmptyLine: line.isEmpty) }
                        if !line.isEmpty { write { MarkdownEscaping.codeSpan(Array(line), into: &$0) } }
                    }
                } else if code.contains(0x0A) || (hasControl && renderer.allowsHTML) {
                    // A code span cannot hold a line break or a control: inline HTML can.
                    write { out in
                        out.append(contentsOf: "<code>".utf8)
                        for (index, line) in code.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                            if index > 0 { out.append(contentsOf: "<br>".utf8) }
                            MarkdownEscaping.line(line, atLineStart: false, gfm: gfm, insideLink: insideLink, into: &out)
                        }
                        out.append(contentsOf: "</code>".utf8)
                    }
                } else {
                    write { MarkdownEscaping.codeSpan(code, into: &$0) }
                }
            case .link:
                guard case .link(let target) = spans[entry.index].kind else { return }
                if codeDepth == 0 { marks.append(.init(offset: out.count, length: 0, role: .linkEnd)) }
                write { out in
                    out.append(contentsOf: "](".utf8)
                    MarkdownEscaping.escape(target.href, as: .destination, into: &out)
                    if let title = target.title, !title.isEmpty {
                        out.append(0x20)
                        MarkdownEscaping.escape(title, as: .title, into: &out)
                    }
                    out.append(0x29)
                }
            case .emphasisTag(let strong):
                write(strong ? "</strong>" : "</em>")
            case .emphasis(let character, let count):
                if codeDepth == 0 { marks.append(.init(offset: out.count, length: count, role: .closes)) }
                write { $0.append(contentsOf: repeatElement(character, count: count)) }
            case .tag(let endTag):
                write(endTag)
            case .tildes:
                writeTildes(opens: false)
            }
        }

        /// A `!` of text right before a link's `[` would make the link an image: escaped (unless
        /// a backslash already escapes it: an odd run of them before it).
        private mutating func escapeBangBeforeBracket() {
            guard out.last == UInt8(ascii: "!") else { return }
            var backslashes = 0
            while backslashes + 2 <= out.count, out[out.count - 2 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            guard backslashes % 2 == 0 else { return }
            let position = out.count - 1
            out.insert(UInt8(ascii: "\\"), at: position)
            for index in marks.indices where marks[index].offset >= position {
                marks[index] = EmphasisPrediction.Mark(offset: marks[index].offset + 1, length: marks[index].length, role: marks[index].role)
            }
        }

        private mutating func writeTildes(opens: Bool) {
            if codeDepth > 0 { tildeInCode = true } else { tildeRuns.append((out.count, opens)) }
            write("~~")
        }

        private func emphasisDelimiter(strong: Bool) -> Delimiter {
            switch renderer.emphasis {
            case .html:
                return .emphasisTag(strong: strong)
            case .asteriskFirst, .underscoreFirst:
                let preferred: UInt8 = renderer.emphasis == .asteriskFirst ? 0x2A : 0x5F
                let other: UInt8 = preferred == UInt8(ascii: "*") ? 0x5F : 0x2A
                return .emphasis(character: out.last == preferred ? other : preferred, count: strong ? 2 : 1)
            }
        }
    }
}
