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
        var spans: [Markup] = []
        var text: [UInt8] = []
        var marks: [EmphasisPrediction.Mark] = []

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
}
