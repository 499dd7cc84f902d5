import Testing
import MarkbridgeIR
import MarkbridgeTestSupport

/// A block's inline content as runs of text with the markups over each
/// (``Block/inlineRuns(in:)``), the public face of the writers' inline walk.
@Suite("Inline runs")
struct InlineRunTests {
    static func runs(_ block: Block, in range: TextRange? = nil) -> [String] {
        block.inlineRuns(in: range).map { run in
            "\(run.text)@\(run.range.start)..<\(run.range.end)" + (run.markups.isEmpty ? "" : ":" + run.markups.map(\.kind.name).joined(separator: "+"))
        }
    }

    @Test("Plain text is one run; no text, none")
    func plain() {
        #expect(Self.runs(Block(.paragraph, text: "plain")) == ["plain@0..<5"])
        #expect(Self.runs(Block(.paragraph)) == [])
    }

    @Test("Nested markups, outermost first; crossing ones split and go on")
    func nesting() {
        let block = Block(.paragraph, text: "one two three", markups: [
            Markup(.strong, start: 0, end: 7), Markup(.emphasis, start: 4, end: 13), Markup(.code, start: 4, end: 7),
        ])
        #expect(Self.runs(block) == ["one @0..<4:STRONG", "two@4..<7:STRONG+EM+CODE", " three@7..<13:EM"])
    }

    @Test("An image is its U+FFFC alone, its markup last; offsets count UTF-16 units past emoji")
    func imagesAndEmoji() {
        let text = "a😀\u{FFFC}é👍🏽b"
        let image = MarkupKind.image(ImageSource(src: "x.png", alt: "X"))
        let block = Block(.paragraph, text: text, markups: [
            Markup(.strong, start: 1, end: 4), Markup(image, start: 3, end: 4), Markup(.link(LinkTarget(href: "https://e.x")), start: 5, end: 9),
        ])
        let runs = block.inlineRuns()
        #expect(Self.runs(block) == ["a@0..<1", "😀@1..<3:STRONG", "\u{FFFC}@3..<4:STRONG+IMAGE", "é@4..<5", "👍🏽@5..<9:LINK", "b@9..<10"])
        #expect(runs[2].markups.last?.kind == image)
        // The runs tile the text.
        #expect(runs.map { String($0.text) }.joined() == text)
    }

    @Test("A range cuts the runs at its edges: a table cell's text")
    func cells() {
        let block = Block(.paragraph, text: "ab | c😀d", markups: [Markup(.emphasis, start: 1, end: 2), Markup(.strong, start: 5, end: 9)])
        #expect(Self.runs(block, in: TextRange(start: 0, end: 2)) == ["a@0..<1", "b@1..<2:EM"])
        #expect(Self.runs(block, in: TextRange(start: 5, end: 8)) == ["c😀@5..<8:STRONG"])
        #expect(Self.runs(block, in: TextRange(start: 2, end: 5)) == [" | @2..<5"])
    }

    @Test("Runs tile every generated block's text, each markup's range covered by the runs that carry it")
    func generated() {
        var generator = DocumentGenerator(seed: 31, profile: .hostile)
        for _ in 0..<300 {
            for block in generator.document(blockCount: 12).blocks {
                let runs = block.inlineRuns()
                #expect(runs.map { String($0.text) }.joined() == block.text)
                var offset = 0
                for run in runs {
                    #expect(run.range.start == offset && run.range.end > run.range.start && run.text.utf16.count == run.range.length)
                    offset = run.range.end
                    for markup in run.markups where !(markup.range.start <= run.range.start && run.range.end <= markup.range.end) {
                        Issue.record("\(markup) carried by a run at \(run.range) outside it")
                    }
                }
                #expect(offset == block.text.utf16.count)
            }
        }
    }
}
