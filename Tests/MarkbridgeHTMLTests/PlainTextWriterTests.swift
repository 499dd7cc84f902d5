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
}
