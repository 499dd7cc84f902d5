import Testing
import MarkbridgeHTML
import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeText

/// A document built by hand may hold any number; no writer may trap on it (`number + 1` on
/// `Int.max` did), and the HTML writer clamps as the Markdown writer does.
@Suite("Writers and list numbers built by hand")
struct ListNumberWriterTests {
    @Test("Int.max and Int.min numbers: HTML clamps, JSON and text write what they were given, nothing traps")
    func extremes() throws {
        let document = Document(blocks: [
            Block(.orderedListItem(number: Int.max), text: "a"), Block(.orderedListItem(number: Int.max), text: "b"),
            Block(.paragraph, text: "p"), Block(.orderedListItem(number: Int.min), text: "c"),
        ])
        #expect(String(decoding: HTMLWriter().write(document).value, as: UTF8.self) == """
            <ol start="999999999">
            <li>a</li>
            <li value="999999999">b</li>
            </ol>
            <p>p</p>
            <ol start="0">
            <li>c</li>
            </ol>

            """)
        #expect(String(decoding: PlainTextWriter().write(document).value, as: UTF8.self).hasPrefix("\(Int.max). a\n\(Int.max). b"))
        // Read back, our own JSON clamps and reports.
        let json = MarkupJSONWriter().write(document).value
        let read = try MarkupJSONReader().read(json)
        #expect(read.value.blocks.map(\.kind) == [.orderedListItem(number: 999_999_999), .orderedListItem(number: 999_999_999), .paragraph, .orderedListItem(number: 0)])
        #expect(read.diagnostics.map(\.code) == Array(repeating: "list-number-clamped", count: 3))
    }
}
