import Testing
import MarkbridgeIR
import MarkbridgeMarkdown

/// CommonMark writes a list number as at most nine digits and no sign, so the IR keeps list
/// numbers in 0...999,999,999 (``ListNumber``), and the writer clamps anything else it is given.
@Suite("Markdown: list numbers stay numbers CommonMark can write")
struct MarkdownListNumberTests {
    @Test("Numbers built by hand past either end are written clamped, still as a list, without overflowing", arguments: [
        (Int.max, "999999999."), (Int.min, "0."), (-5, "0."), (1_000_000_000, "999999999."), (999_999_999, "999999999."), (0, "0."),
    ])
    func clampedOnWrite(number: Int, marker: String) throws {
        let document = Document(blocks: [Block(.orderedListItem(number: number), text: "a"), Block(.orderedListItem(number: number), text: "b")])
        let markdown = String(decoding: MarkdownWriter().write(document).value, as: UTF8.self)
        #expect(markdown.hasPrefix(marker + " a\n"))
        let read = try MarkdownReader().read(markdown).value
        #expect(read.blocks.map(\.kind) == [.orderedListItem(number: ListNumber.clamped(number)), .orderedListItem(number: ListNumber.clamped(number))])
    }

    @Test("An item after 999999999 is clamped when read, and reported")
    func successorClamped() throws {
        let read = try MarkdownReader().read("999999999. a\n1. b\n")
        #expect(read.value.blocks.map(\.kind) == [.orderedListItem(number: 999_999_999), .orderedListItem(number: 999_999_999)])
        #expect(read.diagnostics.map(\.description) == [
            "2:1: warning: list number 1000000000 moved into 0...999999999, the numbers every format can carry [list-number-clamped]",
        ])
    }

    @Test("Ten digits are not a list to CommonMark, so no reader produces such a number")
    func tenDigits() throws {
        #expect(try MarkdownReader().read("1000000000. a\n").value.blocks.map(\.kind) == [.paragraph])
    }
}
