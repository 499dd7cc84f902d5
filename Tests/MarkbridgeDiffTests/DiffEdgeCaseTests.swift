import MarkbridgeDiff
import MarkbridgeIR
import Testing

/// Shapes a review found the diff getting wrong: past the edit bound, long blocks, overlapping
/// and inline markups, moves that are not, equivalent spellings, emoji, and the order of changes.
@Suite("Document diff: edge cases")
struct DiffEdgeCaseTests {
    private func paragraph(_ text: String, _ markups: [Markup] = []) -> Block { Block(.paragraph, text: text, markups: markups) }

    private func details(_ changes: [BlockChange]) -> BlockDifferences? {
        for change in changes { if case .changed(_, _, let details) = change { return details } }
        return nil
    }

    @Test("Past the edit bound, unique blocks anchor the alignment: a thousand and one paragraphs inserted at each end are only insertions")
    func anchorsPastTheBound() {
        let old = Document(blocks: (0..<5_000).map { paragraph("Paragraph \($0) of the original.") })
        let new = Document(blocks: (0..<1_001).map { paragraph("Inserted before, \($0).") } + old.blocks + (0..<1_001).map { paragraph("Inserted after, \($0).") })
        let changes = diff(old, new).changes
        #expect(changes.count == 2_002)
        #expect(changes.allSatisfy { if case .inserted = $0 { true } else { false } })
    }

    @Test("One word changed in a paragraph of a hundred thousand words is one edit")
    func longBlock() throws {
        let words = (0..<100_000).map { "word\($0 % 977)" }
        var edited = words
        edited[61_234] = "changed"
        let old = Document(blocks: [paragraph(words.joined(separator: " "))]), new = Document(blocks: [paragraph(edited.joined(separator: " "))])
        let found = try #require(details(diff(old, new).changes))
        #expect(found.text.map(\.removed) == [words[61_234]])
        #expect(found.text.map(\.added) == ["changed"])
        // Inserting a thousand and one words, past the bound, is still those words.
        var longer = words
        longer.insert(contentsOf: (0..<1_001).map { "new\($0)" }, at: 50_000)
        let inserted = try #require(details(diff(old, Document(blocks: [paragraph(longer.joined(separator: " "))])).changes))
        #expect(inserted.text.count == 1)
        #expect(inserted.text.first?.removed == "")
        #expect(inserted.text.first?.added.hasPrefix("new0 new1 ") == true)
    }

    @Test("Overlapping markups of one type pair with the same markup: the red that shrank, the blue that came")
    func overlappingSameType() throws {
        let red = MarkupKind.color(CSSColor(red: 255, green: 0, blue: 0)), blue = MarkupKind.color(CSSColor(red: 0, green: 0, blue: 255))
        let old = Document(blocks: [paragraph("one two three four", [Markup(red, start: 4, end: 18)])])
        let new = Document(blocks: [paragraph("one two three four", [Markup(blue, start: 0, end: 7), Markup(red, start: 8, end: 18)])])
        let found = try #require(details(diff(old, new).changes))
        #expect(found.markups == [
            MarkupChange(kind: .added, name: "COLOR", oldRange: nil, newRange: TextRange(start: 0, end: 7), text: "one two"),
            MarkupChange(kind: .changed, name: "COLOR", oldRange: TextRange(start: 4, end: 18), newRange: TextRange(start: 8, end: 18),
                         text: "three four", attribute: "range", oldValue: "two three four", newValue: "three four"),
        ])
    }

    @Test("Inline images are told apart by their source: the one removed is the one gone")
    func inlineImages() throws {
        let x = MarkupKind.image(ImageSource(src: "x.png")), y = MarkupKind.image(ImageSource(src: "y.png"))
        let old = Document(blocks: [paragraph("a \u{FFFC} \u{FFFC} b", [Markup(x, start: 2, end: 3), Markup(y, start: 4, end: 5)])])
        let new = Document(blocks: [paragraph("a \u{FFFC} b", [Markup(y, start: 2, end: 3)])])
        let found = try #require(details(diff(old, new).changes))
        #expect(found.markups == [MarkupChange(kind: .removed, name: "IMAGE", oldRange: TextRange(start: 2, end: 3), newRange: nil, text: "\u{FFFC}")])
    }

    @Test("A paragraph edited in place with many inserted before it is changed, not moved")
    func notMoved() throws {
        let old = Document(blocks: [paragraph("Start."), paragraph("The original sentence about the release date."), paragraph("End.")])
        let new = Document(blocks: [paragraph("Start.")] + (0..<9).map { paragraph("Brand new number \($0) here.") }
                           + [paragraph("The original sentence about the launch date."), paragraph("End.")])
        let changes = diff(old, new).changes
        let found = try #require(details(changes))
        #expect(!found.isMoved)
        #expect(found.text.map(\.removed) == ["release"])
        #expect(changes.filter { if case .inserted = $0 { true } else { false } }.count == 9)
    }

    @Test("Canonically equivalent spellings are a change: the code units differ, and clients see them")
    func equivalentSpellings() throws {
        let old = Document(blocks: [paragraph("caf\u{E9} \u{212B}")]), new = Document(blocks: [paragraph("cafe\u{301} \u{C5}")])
        let found = try #require(details(diff(old, new).changes))
        #expect(found.text.map(\.removed) == ["caf\u{E9} \u{212B}"])
        #expect(found.text.map(\.added) == ["cafe\u{301} \u{C5}"])
    }

    @Test("Emoji sequences are one unit each: a family, a flag, a skin tone")
    func graphemes() throws {
        let old = Document(blocks: [paragraph("👨‍👩‍👧 🇫🇷 👍🏻")]), new = Document(blocks: [paragraph("👨‍👩‍👦 🇮🇹 👍🏿")])
        let found = try #require(details(diff(old, new).changes))
        #expect(found.text.map(\.removed) == ["👨‍👩‍👧 🇫🇷 👍🏻"])
        #expect(found.text.map(\.added) == ["👨‍👩‍👦 🇮🇹 👍🏿"])
    }

    @Test("Changes come in document order; numbers and punctuation alone do not make paragraphs counterparts")
    func order() {
        let old = Document(blocks: [paragraph("Keep."), paragraph("Paragraph number 0 says something."), paragraph("End.")])
        let new = Document(blocks: [paragraph("Keep."), paragraph("Inserted top 0 words."), paragraph("Paragraph number 0 says something else."), paragraph("End.")])
        let changes = diff(old, new).changes
        guard changes.count == 2, case .inserted(1, _) = changes[0], case .changed(1, 2, _) = changes[1] else {
            Issue.record("expected the insertion, then the change: \(changes)")
            return
        }
        let unrelated = diff(Document(blocks: [paragraph("Paragraph number 0 says something.")]), Document(blocks: [paragraph("Inserted top 0 words.")]))
        #expect(unrelated.changes.count == 2)
    }

    @Test("The same pair gives the same diff every time, ties in markups included")
    func stable() {
        let markups = (0..<40).map { Markup(.strong, start: $0 % 5, end: 10 + $0 % 7) }
        let old = Document(blocks: [paragraph("abcdefghijklmnopqrst", Array(markups.prefix(10)))])
        let new = Document(blocks: [paragraph("abcdefghijklmnopqrst", Array(markups.suffix(10)))])
        let first = diff(old, new)
        for _ in 0..<20 { #expect(diff(old, new) == first) }
    }
}
