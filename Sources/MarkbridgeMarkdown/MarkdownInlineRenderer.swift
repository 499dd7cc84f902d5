@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

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

    /// How GitHub Flavored Markdown output writes a strike: `~~`, or `<s>` as a stand-in while
    /// the writer verifies emphasis through cmark, which knows no `~~` (to the emphasis
    /// delimiters beside them both are punctuation, so they flank alike).
    enum StrikeStyle {
        case tags
        case tildes
    }

    let emphasis: EmphasisStyle
    let allowsHTML: Bool
    /// GitHub Flavored Markdown: `~` and `|` escaped in text, strikes kept even without HTML.
    let gfm: Bool
    var strikeStyle = StrikeStyle.tags
    var diagnostics: [Diagnostic] = []
    /// Where each `~~` run was written (outside code), and whether it opens: for
    /// ``tildesFlank(in:)``. A run written inside a code span makes that check fail.
    private(set) var tildeRuns: [(offset: Int, opens: Bool)] = []
    private(set) var tildeInCode = false
    /// How cmark will pair the emphasis delimiters written (see `EmphasisPrediction`); when
    /// unsure, the writer reads the output back.
    private(set) var emphasisVerdict = EmphasisPrediction.Verdict.asWritten

    init(emphasis: EmphasisStyle, allowsHTML: Bool, gfm: Bool = false) {
        self.emphasis = emphasis
        self.allowsHTML = allowsHTML
        self.gfm = gfm
    }

    /// Working space the block writer keeps from block to block and from style to style: the
    /// arrays one rendering needs besides its output, so that rendering a block allocates
    /// little more than the output (a dozen arrays a block was a third of the writer's time).
    struct Scratch {
        var prediction = EmphasisPrediction.Scratch()
        fileprivate var spans: [Markup] = []
        fileprivate var text: [UInt8] = []
        fileprivate var marks: [EmphasisPrediction.Mark] = []

        init() {}
    }

    /// The inline Markdown for `block` as UTF-8; lines separated by `\n` (hard breaks already
    /// written).
    mutating func render(_ block: Block, blockIndex: Int) -> [UInt8] {
        var scratch = Scratch()
        return render(block, blockIndex: blockIndex, scratch: &scratch)
    }

    /// The same, in working space the caller keeps from block to block.
    mutating func render(_ block: Block, blockIndex: Int, scratch: inout Scratch) -> [UInt8] {
        var markups: [Markup] = []
        swap(&markups, &scratch.spans)
        markups.removeAll(keepingCapacity: true)
        for markup in block.markups {
            switch markup.kind {
            case .strong, .emphasis, .link, .code, .image: markups.append(markup)
            case .strike where gfm:
                markups.append(markup)
            case .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .hashtag, .mention:
                if allowsHTML {
                    markups.append(markup)
                } else {
                    diagnostics.append(.warning("markup-dropped", "\(markup.kind.name) \(markup.range) in block \(blockIndex) has no CommonMark syntax; dropped (--markdown-html drop)", block: blockIndex))
                }
            }
        }
        var state = RunState(renderer: self, markups: markups, scratch: &scratch)
        state.blockIndex = blockIndex
        // Room for the text, a few escapes and the delimiters: the output rarely grows.
        state.out.reserveCapacity(block.text.utf8.count + block.text.utf8.count / 8 + markups.count * 4 + 16)
        var text: [UInt8] = []
        swap(&text, &scratch.text)
        text.removeAll(keepingCapacity: true)
        text.append(contentsOf: block.text.utf8)
        do {
            InlineTraversal.walk(text.span, markups: markups) { event in
                switch event {
                case .text(let range): state.writeText(text[range])
                case .open(let index): state.openSpan(index)
                case .close(let index): state.closeSpan(index)
                case .image(let index):
                    if case .image(let image) = markups[index].kind {
                        if image.hasSize && allowsHTML {
                            // CommonMark's image has no size; inline HTML's has, and reads back
                            // through the same tag rules as the HTML reader's.
                            state.write(HTMLInlineRenderer.imageTag(image))
                        } else {
                            if image.hasSize { state.diagnostics.append(MarkdownEscaping.imageSizeDroppedDiagnostic(image, block: blockIndex)) }
                            if image.alt == "" { state.diagnostics.append(MarkdownEscaping.emptyAltDiagnostic(block: blockIndex)) }
                            state.write { MarkdownEscaping.image(image, gfm: gfm, into: &$0) }
                        }
                    }
                }
            }
        }
        diagnostics += state.diagnostics
        tildeRuns = state.tildeRuns
        tildeInCode = state.tildeInCode
        // Most lines neither start nor end with a space; only the others are rewritten, and
        // for those the prediction (made over the bytes before the rewrite) is not trusted.
        let spaceAtLineEdge = Self.hasSpaceAtLineEdge(state.out)
        if spaceAtLineEdge {
            emphasisVerdict = state.marks.isEmpty ? .asWritten : .unsure
        } else {
            emphasisVerdict = EmphasisPrediction.verdict(state.out, state.marks, scratch: &scratch.prediction)
        }
        let out = state.finish(givingBackTo: &scratch)
        swap(&markups, &scratch.spans)
        swap(&text, &scratch.text)
        guard spaceAtLineEdge else { return out }
        let lines = MarkdownLines(out)
        var protected: [UInt8] = []
        protected.reserveCapacity(out.count + 16)
        for (number, range) in lines.ranges.enumerated() {
            if number > 0 { protected.append(0x0A) }
            MarkdownEscaping.protectingLineEdges(lines.bytes[range], into: &protected)
        }
        return protected
    }

    /// Whether every `~~` run written can do what it was written for in GitHub Flavored
    /// Markdown: an opener left-flanking, a closer right-flanking, by the characters beside it
    /// in `out` as cmark classes them (``EmphasisPrediction/Neighbor``: cmark-gfm applies the
    /// rules to `~` as to `*`); a neighbour it cannot class says no. A run with an emphasis
    /// delimiter right outside it is refused too: cmark-gfm pairs `**~~` and `~~**` in ways its
    /// rules do not predict (`**a ~~d*o*~~**~~c~~` leaves the `**` as text), which the
    /// cmark-gfm oracle test found.
    func tildesFlank(in out: [UInt8]) -> Bool {
        guard !tildeInCode else { return false }
        for run in tildeRuns {
            let outerOffset = run.opens ? run.offset - 1 : run.offset + 2
            if outerOffset >= 0, outerOffset < out.count, [UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~")].contains(out[outerOffset]) {
                return false
            }
            let before = EmphasisPrediction.Neighbor.before(run.offset, in: out)
            let after = EmphasisPrediction.Neighbor.after(run.offset + 2, in: out)
            let (inner, outer) = run.opens ? (after, before) : (before, after)
            guard inner != .unknown, outer != .unknown, inner != .whitespace else { return false }
            if inner == .punctuation && outer == .other { return false }
        }
        return true
    }

    /// Whether any line of `bytes` starts or ends with a space.
    private static func hasSpaceAtLineEdge(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == 0x20 || last == 0x20 { return true }
        // Only the bytes on either side of each line feed, found eight bytes at a time.
        let buffer = bytes.span
        var from = 0
        while let newline = ByteScan.firstIndex(of: 0x0A, in: buffer, from: from) {
            if (newline > 0 && buffer[newline - 1] == 0x20) || (newline + 1 < buffer.count && buffer[newline + 1] == 0x20) { return true }
            from = newline + 1
        }
        return false
    }

    /// Open runs and the output of one block's inline content.
    private struct RunState {
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
                    if let title = target.title {
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
