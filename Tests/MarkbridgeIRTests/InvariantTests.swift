import Testing
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("Invariant check")
struct InvariantTests {
    private func violations(_ block: Block) -> [String] {
        Document(blocks: [block]).invariantViolations().map(\.description)
    }

    @Test("Issue 22's shapes: a depth with no item to be in, a caption with no table, a definition that continues none")
    func shapes() {
        #expect(Document(blocks: [Block(.unorderedListItem, text: "x"), Block(.heading(level: 2), text: "h", depth: 2)]).invariantViolations().map(\.description)
            == ["block 1: depth 2 has no list item at depth 1 before it to be in (at most 1)"])
        #expect(violations(Block(.tableCaption, text: "c")) == ["block 0: a table caption is not followed by the first row of its table at its place"])
        #expect(Document(blocks: [Block(.tableCaption, text: "c"), Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))], startsTable: true)), text: "r")])
            .invariantViolations().isEmpty)
        #expect(Document(blocks: [Block(.definitionTerm(continues: false), text: "t"), Block(.definitionDescription(continues: true), text: "d")]).invariantViolations().map(\.description)
            == ["block 1: a term or definition that continues follows no DD at its place to continue"])
        #expect(Document(blocks: [Block(.definitionDescription(continues: false), text: "d"), Block(.definitionDescription(continues: true), text: "e")]).invariantViolations().isEmpty)
    }

    @Test("A range past the text is reported with the text's length")
    func rangeOutside() {
        #expect(violations(Block(.paragraph, text: "abc", markups: [Markup(.strong, start: 1, end: 4)]))
            == ["block 0, markup 0: range 1..<4 is empty or outside the text (3 UTF-16 units)"])
    }

    @Test("C3: a range splitting a surrogate pair is reported")
    func splitsPair() {
        #expect(violations(Block(.paragraph, text: "a👍b", markups: [Markup(.strong, start: 2, end: 4)]))
            == ["block 0, markup 0: offset 2 splits a surrogate pair"])
    }

    @Test("Markups out of canonical order are reported")
    func order() {
        #expect(violations(Block(.paragraph, text: "abcd", markups: [Markup(.strong, start: 2, end: 3), Markup(.emphasis, start: 0, end: 1)]))
            == ["block 0, markup 1: markup is not in canonical order after STRONG 2..<3",
                "block 0: markups are not merged into canonical form"])
    }

    @Test("An IMAGE markup must cover one U+FFFC")
    func image() {
        #expect(violations(Block(.paragraph, text: "ab", markups: [Markup(.image(ImageSource(src: "x")), start: 0, end: 1)]))
            == ["block 0, markup 0: an IMAGE markup must cover exactly one U+FFFC"])
    }

    @Test("Overlapping links are reported")
    func links() {
        let block = Block(.paragraph, text: "abcd", markups: [
            Markup(.link(LinkTarget(href: "a")), start: 0, end: 3), Markup(.link(LinkTarget(href: "b")), start: 1, end: 4),
        ])
        #expect(violations(block) == ["block 0, markup 1: links overlap"])
    }

    @Test("Block attributes: heading level, text on a rule, a bare quote")
    func blocks() {
        #expect(violations(Block(.heading(level: 7), text: "x")) == ["block 0: heading level 7 is not 1...6"])
        #expect(violations(Block(.horizontalRule, text: "x")) == ["block 0: a horizontal rule has text"])
        #expect(violations(Block(.blockquote)) == ["block 0: a blockquote block has quoteDepth 0"])
        #expect(violations(Block(.paragraph, depth: -1)) == ["block 0: depth -1 is outside 0...100"])
    }
}
