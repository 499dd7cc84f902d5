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

