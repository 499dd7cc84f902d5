import Testing
import MarkbridgeIR

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
}
