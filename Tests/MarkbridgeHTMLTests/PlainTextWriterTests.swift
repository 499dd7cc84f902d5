import Testing
import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeText

@Suite("Plain text writer")
struct PlainTextWriterTests {
    @Test("What a reader sees: blank lines between blocks, bullets and numbers, breaks, alt text, entities decoded")
    func text() throws {
        let html = "<h1>Title &amp; more</h1><p>one<br>two <img src=\"https://e.x/i.png\" alt=\"[i]\"></p><ul><li>a<ol><li>b</li><li>c<br>d</li></ol></li></ul><hr><pre>x  y</pre>"
        let document = try HTMLReader().read(html).value
        #expect(String(decoding: PlainTextWriter().write(document).value, as: UTF8.self) == """
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

    @Test("Continuation lines hang under the marker's text; a CR LF stays inside its line")
    func hangingLines() {
        let document = Document(blocks: [
            Block(.orderedListItem(number: 12), text: "one\ntwo\r\nthree\n", depth: 1),
            Block(.paragraph, text: "Привет\n日本"),
        ])
        #expect(String(decoding: PlainTextWriter().write(document).value, as: UTF8.self)
            == "  12. one\n      two\r\nthree\n      \n\nПривет\n日本\n")
    }
}
