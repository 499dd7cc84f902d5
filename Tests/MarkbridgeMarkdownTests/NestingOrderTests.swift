import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeJSON
import MarkbridgeMarkdown

/// Quotes inside list items, lists inside those quotes, and quotes around lists with quotes in
/// their items: every format keeps which container encloses which.
@Suite("Nesting order")
struct NestingOrderTests {
    static let html = "<ol><li>Export.<blockquote><p>Backup first.</p><ul><li>inner</li></ul></blockquote></li><li>Run</li></ol><blockquote><ul><li>a<blockquote><p>deep</p></blockquote></li></ul></blockquote>"

    static let blocks = [
        Block(.orderedListItem(number: 1), text: "Export."),
        Block(.blockquote, text: "Backup first.", depth: 1, quoteDepth: 1, quoteListDepths: [1]),
        Block(.unorderedListItem, text: "inner", depth: 1, quoteDepth: 1, quoteListDepths: [1]),
        Block(.orderedListItem(number: 2), text: "Run"),
        Block(.unorderedListItem, text: "a", quoteDepth: 1),
        Block(.blockquote, text: "deep", depth: 1, quoteDepth: 2, quoteListDepths: [0, 1]),
    ]

    @Test("HTML reads which container encloses which")
    func reads() throws {
        let read = try HTMLReader().read(Self.html)
        #expect(read.value.blocks == Self.blocks)
        #expect(read.value.invariantViolations().isEmpty)
    }

    @Test("HTML, Markdown and markup JSON write the order, and read it back (the lists tight: a quote follows its item's text directly)")
    func writes() throws {
        let document = Document(blocks: Self.blocks)
        let html = try HTMLWriter().write(document).value
        #expect(String(decoding: html, as: UTF8.self) == """
            <ol>
            <li>Export.<blockquote>
            <p>Backup first.</p>
            <ul>
            <li>inner</li>
            </ul>
            </blockquote>
            </li>
            <li>Run</li>
            </ol>
            <blockquote>
            <ul>
            <li>a<blockquote>
            <p>deep</p>
            </blockquote>
            </li>
            </ul>
            </blockquote>

            """)
        #expect(try HTMLReader().read(html).value == document)

        let markdown = try MarkdownWriter().write(document).value
        #expect(String(decoding: markdown, as: UTF8.self) == """
            1. Export.
               > Backup first.
               >
               > - inner
            2. Run

            > - a
            >   > deep

            """)
        #expect(try MarkdownReader().read(markdown).value == document)

        let json = try MarkupJSONWriter().write(document).value
        #expect(String(decoding: json, as: UTF8.self).contains(#"{"type":"BQ","text":"deep","depth":1,"quoteDepth":2,"quoteListDepths":[0,1]}"#))
        #expect(try MarkupJSONReader().read(json).value == document)
    }

    @Test("A code block in a quote in a list item, and a quote in HTML inside a Markdown list item")
    func codeAndEmbeddedHTML() throws {
        let read = try MarkdownReader().read("- item\n\n  > ```\n  > code\n  > ```\n\n  <blockquote><p>html</p></blockquote>\n")
        #expect(read.value.blocks == [
            Block(.unorderedListItem, text: "item"),
            Block(.codeBlock(language: nil), text: "code", depth: 1, quoteDepth: 1, quoteListDepths: [1]),
            // A quote of its own beside the Markdown one, in the same item.
            Block(.blockquote, text: "html", depth: 1, quoteDepth: 1, quoteListDepths: [1], containerStart: 1),
        ])
        #expect(read.value.invariantViolations().isEmpty)
    }

    @Test("Markup JSON refuses an order that does not fit the block, and reads all zeros as none")
    func json() throws {
        let cases: [(String, String)] = [
            (#"{"paragraphs":[{"type":"BQ","text":"q","depth":1,"quoteListDepths":[2]}]}"#,
             "1:68: /paragraphs/0/quoteListDepths: quoteListDepths [2] is not non-decreasing within 0...1 (the block's depth) [invalid-value]"),
            (#"{"paragraphs":[{"type":"BQ","text":"q","depth":1,"quoteListDepths":[1,1]}]}"#,
             "1:68: /paragraphs/0/quoteListDepths: quoteListDepths has 2 entries for a quoteDepth of 1 [invalid-value]"),
        ]
        for (input, expected) in cases {
            #expect(throws: ConversionError.self) { try MarkupJSONReader().read(input) }
            do {
                _ = try MarkupJSONReader().read(input)
            } catch {
                #expect("\(error.description) [\(error.code)]" == expected)
            }
        }
        let zeros = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"BQ","text":"q","quoteListDepths":[0]}]}"#)
        #expect(zeros.value.blocks == [Block(.blockquote, text: "q", quoteDepth: 1)])
    }
}
