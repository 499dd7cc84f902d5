import Testing
import MarkbridgeIR
@testable import MarkbridgeMarkdown

/// Whitespace written as character references: a line feed reads as a browser shows it, a
/// collapsible space; a tab and a carriage return are kept, as the writer escapes them so.
@Suite("Markdown: whitespace character references")
struct MarkdownWhitespaceReferenceTests {
    private func text(_ markdown: String) throws -> String? {
        try MarkdownReader().read(markdown).value.blocks.first?.text
    }

    @Test("&#10; is a collapsible space, also just after &#13; (where \"\\r\\n\" is one Character); &#9; and &#13; are kept")
    func references() throws {
        #expect(try text("a&#10;b") == "a b")
        #expect(try text("a&#13;&#10;b") == "a\r b")
        #expect(try text("a&#13;&#10;&#13;&#10;b") == "a\r \r b")
        #expect(try text("&#10;a&#10;") == "a")
        #expect(try text("a&#13;b") == "a\rb")
        #expect(try text("a&#9;b") == "a\tb")
        #expect(try text("ä&#10;ß&#13;&#10;😀") == "ä ß\r 😀")
    }

    @Test("a space pending before a hard break is dropped, also where cmark leaves an empty text node between them")
    func spaceBeforeHardBreak() throws {
        // cmark strips the spaces between a zero-width inline and a hard break and keeps an
        // empty text node there: it writes nothing, so the soft break's space stays pending
        // and the break drops it, as the HTML reader drops a space before `<br>` (cmark's own
        // HTML of the first is `a\n<a href=""></a><br />\nb`, read as "a\nb").
        #expect(try text("a\n[]()  \nb") == "a\nb")
        let strong = try MarkdownReader().read("a\n<b>  \nc").value.blocks.first
        #expect(strong?.text == "a\nc")
        #expect(strong?.markups == [Markup(.strong, start: 2, end: 3)])
    }

    @Test("text holding a carriage return before a line break reads back from what the writer makes of it")
    func writtenCarriageReturn() throws {
        let document = Document(blocks: [Block(.paragraph, text: "a\r\nb\r")])
        let written = try MarkdownWriter().write(document).value
        #expect(String(decoding: written, as: UTF8.self) == "a&#13;\\\nb&#13;\n")
        #expect(try MarkdownReader().read(written).value.blocks.map(\.text) == ["a\r\nb\r"])
    }
}
