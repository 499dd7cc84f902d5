import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeMarkdown

/// CommonMark writes a list number as at most nine digits and no sign, so the IR keeps list
/// numbers in 0...999,999,999 (``ListNumber``), and the writer refuses anything else.
@Suite("Markdown: list numbers stay numbers CommonMark can write")
struct MarkdownListNumberTests {
    @Test("Numbers built by hand past either end are refused: CommonMark could not write them as a list", arguments: [Int.max, Int.min, -5, 1_000_000_000])
    func refusedOnWrite(number: Int) {
        let document = Document(blocks: [Block(.orderedListItem(number: number), text: "a")])
        #expect(throws: ConversionError(code: "invalid-document",
            message: "block 0: list number \(number) is outside 0...999999999; no writer can write it as our readers read it")) {
            try MarkdownWriter().write(document)
        }
    }

    @Test("The ends of the range are written as nine digits at most, and read back as the same list")
    func ends() throws {
        let document = Document(blocks: [Block(.orderedListItem(number: 999_999_998), text: "a"), Block(.orderedListItem(number: 999_999_999), text: "b"),
                                         Block(.paragraph, text: "p"), Block(.orderedListItem(number: 0), text: "c")])
        let markdown = String(decoding: try MarkdownWriter().write(document).value, as: UTF8.self)
        #expect(markdown == "999999998. a\n999999999. b\n\np\n\n0. c\n")
        #expect(try MarkdownReader().read(markdown).value == document)
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
