import Testing
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("Document builder")
struct DocumentBuilderTests {
    @Test("Offsets are counted in UTF-16 units while text is appended")
    func offsets() {
        var builder = DocumentBuilder()
        builder.startBlock(.paragraph)
        builder.append("👍 ")
        let strong = builder.openMarkup(.strong)
        builder.append("bold")
        builder.closeMarkup(strong)
        builder.append(" and ")
        builder.appendImage(ImageSource(src: "i.png", alt: "i"))
        let document = builder.finish()
        #expect(document == Document(blocks: [Block(.paragraph, text: "👍 bold and \u{FFFC}", markups: [
            Markup(.strong, start: 3, end: 7), Markup(.image(ImageSource(src: "i.png", alt: "i")), start: 12, end: 13),
        ])]))
    }

    @Test("A space noted just inside markups that trim it is not theirs; markups of a kind that touch across it merge before it is trimmed")
    func spaceInsideMarkupEdge() {
        // `a<u><em> b</em></u> c<u> d</u>`: the space inside the markups is not theirs.
        var builder = DocumentBuilder()
        builder.startBlock(.paragraph)
        builder.append("a")
        let underline = builder.openMarkup(.underline), emphasis = builder.openMarkup(.emphasis)
        builder.appendCollapsibleSpace()
        builder.append("b")
        builder.closeMarkup(emphasis)
        builder.closeMarkup(underline)
        builder.appendCollapsibleSpace()
        builder.append("c")
        let code = builder.openMarkup(.code)
        builder.appendCollapsibleSpace()
        builder.append("d")
        builder.closeMarkup(code)
        // `<b>f</b>` then markups closed empty, so that the builder does not reopen the first
        // `<b>` for the second (`<b> g</b>`); canonical form merges the two before it trims the
        // space. A builder that moved the second's start past the space first split them.
        builder.append("e")
        let first = builder.openMarkup(.strong)
        builder.append("f")
        builder.closeMarkup(first)
        for kind in [MarkupKind.emphasis, .underline, .strike, .superscript] { builder.closeMarkup(builder.openMarkup(kind)) }
        let second = builder.openMarkup(.strong)
        builder.appendCollapsibleSpace()
        builder.append("g")
        builder.closeMarkup(second)
        #expect(builder.finish() == Document(blocks: [Block(.paragraph, text: "a b c def g", markups: [
            Markup(.emphasis, start: 2, end: 3), Markup(.underline, start: 2, end: 3),
            // Code keeps the space it was opened before.
            Markup(.code, start: 5, end: 7),
            Markup(.strong, start: 8, end: 11),
        ])]))
    }

    @Test("A markup open when its block ends continues into the next block")
    func acrossBlocks() {
        var builder = DocumentBuilder()
        builder.startBlock(.paragraph)
        builder.append("one ")
        let emphasis = builder.openMarkup(.emphasis)
        builder.append("two")
        builder.startBlock(.heading(level: 2))
        builder.append("three")
        builder.closeMarkup(emphasis)
        builder.append(" four")
        #expect(builder.finish() == Document(blocks: [
            Block(.paragraph, text: "one two", markups: [Markup(.emphasis, start: 4, end: 7)]),
            Block(.heading(level: 2), text: "three four", markups: [Markup(.emphasis, start: 0, end: 5)]),
        ]))
    }

    @Test("Text with no block open starts a paragraph; blocks come out canonical")
    func implicitParagraph() {
        var builder = DocumentBuilder()
        let a = builder.openMarkup(.strong)
        builder.append("ab")
        builder.closeMarkup(a)
        let b = builder.openMarkup(.strong)
        builder.append("cd")
        builder.closeMarkup(b)
        builder.closeMarkup(b)
        #expect(builder.finish() == Document(blocks: [Block(.paragraph, text: "abcd", markups: [Markup(.strong, start: 0, end: 4)])]))
    }

    /// The builder tells canonical form which markup edges are whitespace from the bytes it
    /// saw; these are the ways an edge's byte moves after the markup opened or closed.
    @Test("Markups whose edges are whitespace come out trimmed, however the edge came about")
    func whitespaceEdges() {
        var builder = DocumentBuilder()
        // A space inside the end of a strong run.
        builder.startBlock(.paragraph)
        var handle = builder.openMarkup(.strong)
        builder.append("a ")
        builder.closeMarkup(handle)
        builder.append("b")
        // Emphasis opened after collapsible whitespace: it starts after the space written for it.
        builder.startBlock(.paragraph)
        builder.append("x")
        builder.appendCollapsibleSpace()
        handle = builder.openMarkup(.emphasis)
        builder.append("y")
        builder.closeMarkup(handle)
        // A line break that ends the block is removed after the markup closed over it.
        builder.startBlock(.paragraph)
        handle = builder.openMarkup(.strong)
        builder.append("a")
        builder.appendLineBreak()
        builder.closeMarkup(handle)
        builder.removeTrailingLineBreak()
        // A line break at the start of a markup, and a space after Cyrillic text.
        builder.startBlock(.paragraph)
        builder.append("z")
        handle = builder.openMarkup(.underline)
        builder.appendLineBreak()
        builder.append("Привет ")
        builder.closeMarkup(handle)
        builder.append("мир")
        // Clean edges stay as they are.
        builder.startBlock(.paragraph)
        handle = builder.openMarkup(.emphasis)
        builder.append("日本")
        builder.closeMarkup(handle)
        builder.append(" x")
        #expect(builder.finish() == Document(blocks: [
            Block(.paragraph, text: "a b", markups: [Markup(.strong, start: 0, end: 1)]),
            Block(.paragraph, text: "x y", markups: [Markup(.emphasis, start: 2, end: 3)]),
            Block(.paragraph, text: "a", markups: [Markup(.strong, start: 0, end: 1)]),
            Block(.paragraph, text: "z\nПривет мир", markups: [Markup(.underline, start: 2, end: 8)]),
            Block(.paragraph, text: "日本 x", markups: [Markup(.emphasis, start: 0, end: 2)]),
        ]))
    }
}

