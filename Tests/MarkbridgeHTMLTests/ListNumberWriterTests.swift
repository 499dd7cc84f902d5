import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeText

/// A document built by hand may hold any number; writers refuse one outside what the formats
/// carry (`number + 1` on `Int.max` used to trap), and write the ends of the range as they are.
@Suite("Writers and list numbers built by hand")
struct ListNumberWriterTests {
    @Test("Int.max, Int.min, -5 and 10^9 are refused by every writer, naming the block", arguments: [Int.max, Int.min, -5, 1_000_000_000])
    func outOfRange(number: Int) {
        let document = Document(blocks: [Block(.paragraph, text: "p"), Block(.orderedListItem(number: number), text: "a")])
        let expected = ConversionError(code: "invalid-document",
            message: "block 1: list number \(number) is outside 0...999999999; no writer can write it as our readers read it")
        #expect(throws: expected) { try HTMLWriter().write(document) }
        #expect(throws: expected) { try MarkupJSONWriter().write(document) }
        #expect(throws: expected) { try PlainTextWriter().write(document) }
    }

    @Test("The ends of the range are written as they are, and read back")
    func ends() throws {
        let document = Document(blocks: [
            Block(.orderedListItem(number: 999_999_999), text: "a"), Block(.paragraph, text: "p"), Block(.orderedListItem(number: 0), text: "c"),
        ])
        #expect(String(decoding: try HTMLWriter().write(document).value, as: UTF8.self) == """
            <ol start="999999999">
            <li>a</li>
            </ol>
            <p>p</p>
            <ol start="0">
            <li>c</li>
            </ol>

            """)
        #expect(try MarkupJSONReader().read(MarkupJSONWriter().write(document).value).value == document)
    }
}
