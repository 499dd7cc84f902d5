import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeText

@Suite("Plain text writer")
struct PlainTextWriterTests {
    @Test("What a reader sees: blank lines between blocks, bullets and numbers, breaks, alt text, entities decoded")
    func text() throws {
        let html = "<h1>Title &amp; more</h1><p>one<br>two <img src=\"https://e.x/i.png\" alt=\"[i]\"></p><ul><li>a<ol><li>b</li><li>c<br>d</li></ol></li></ul><hr><pre>x  y</pre>"
        let document = try HTMLReader().read(html).value
        #expect(String(decoding: try PlainTextWriter().write(document).value, as: UTF8.self) == """
            Title & more

            one
            two [i]

            • a
              1. b
              2. c
                 d

            * * *

            x  y

            """)
    }

    @Test("A table is a line a row, its cells between ' | '; two tables are apart, as other blocks are")
    func table() throws {
        let html = "<p>Prices</p><table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea <img src=\"https://e.x/t.png\" alt=\"(cup)\"></td><td>2.50</td></tr></table><table><tr><td>Other</td></tr></table>"
        let document = try HTMLReader().read(html).value
        #expect(String(decoding: try PlainTextWriter().write(document).value, as: UTF8.self) == """
            Prices

            Name | Price
            Tea (cup) | 2.50

            Other

            """)
    }

    @Test("Continuation lines hang under the marker's text; a CR LF or a lone CR ends a line too")
    func hangingLines() throws {
        // A nested item is in the item before it (a depth with no item there is no document
        // any writer writes).
        let document = Document(blocks: [
            Block(.unorderedListItem, text: "list"),
            Block(.orderedListItem(number: 12), text: "one\ntwo\r\nthree\rfour\n", depth: 1),
            Block(.paragraph, text: "Привет\n日本"),
        ])
        let written = try PlainTextWriter().write(document)
        #expect(String(decoding: written.value, as: UTF8.self)
            == "• list\n  12. one\n      two\n      three\n      four\n      \n\nПривет\n日本\n")
        #expect(written.diagnostics.map(\.description) == [
            "warning: 2 control characters in block 1 written as U+FFFD (or a CR as a line break): text output carries none but tab and line feed [control-character-replaced]",
        ])
    }

    @Test("No control character but tab and line feed reaches text output: C0, DEL and C1 become U+FFFD", arguments: [
        ("\u{1B}[31mred\u{7}", "\u{FFFD}[31mred\u{FFFD}", 2), ("a\u{7F}b\u{9B}2J\u{85}", "a\u{FFFD}b\u{FFFD}2J\u{FFFD}", 3),
        ("tab\tkept, \u{A0} and \u{A9} printable", "tab\tkept, \u{A0} and \u{A9} printable", 0), ("\u{0}", "\u{FFFD}", 1),
        (String(repeating: "sixteen bytes...", count: 3) + "\u{1B}", String(repeating: "sixteen bytes...", count: 3) + "\u{FFFD}", 1),
    ])
    func controls(text: String, shown: String, replaced: Int) throws {
        let written = try PlainTextWriter().write(Document(blocks: [Block(.paragraph, text: text)]))
        #expect(String(decoding: written.value, as: UTF8.self) == shown + "\n")
        #expect(written.diagnostics.count == (replaced == 0 ? 0 : 1))
        #expect(written.diagnostics.first?.message.hasPrefix("\(replaced) control character") ?? true)
    }
}
