import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeJSON
import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// Tables end to end: read from HTML as rows of cells, written by every writer, read back the same.
@Suite("Tables")
struct TableTests {
    static let html = #"<table><tr><th>Name</th><th style="text-align:right">Price</th></tr><tr><td><b>Tea</b> <a href="https://e.com/t">green</a></td><td align="right">2.50</td></tr><tr><td colspan="2">Two<br>lines</td></tr></table>"#

    static let rows: [Block] = [
        Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 4), isHeader: true),
                                         TableCell(TextRange(start: 7, end: 12), isHeader: true, alignment: .right)], startsTable: true)),
              text: "Name | Price"),
        Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 9)), TableCell(TextRange(start: 12, end: 16), alignment: .right)])),
              text: "Tea green | 2.50",
              markups: [Markup(.strong, start: 0, end: 3), Markup(.link(LinkTarget(href: "https://e.com/t")), start: 4, end: 9)]),
        Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 9), columnSpan: 2)])), text: "Two\nlines"),
    ]

    static let writtenHTML = """
        <table>
        <tr><th>Name</th><th style="text-align:right">Price</th></tr>
        <tr><td><strong>Tea</strong> <a href="https://e.com/t">green</a></td><td style="text-align:right">2.50</td></tr>
        <tr><td colspan="2">Two<br>lines</td></tr>
        </table>

        """

    @Test("HTML reads as rows of cells: headers, alignment, spans, markups inside cells")
    func reads() throws {
        let read = try HTMLReader().read(Self.html)
        #expect(read.value.blocks == Self.rows)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.invariantViolations().isEmpty)
    }

    @Test("HTML and Markdown write a table the readers map back; Markdown without HTML writes a paragraph a row, reported")
    func writes() throws {
        let document = Document(blocks: Self.rows)
        let html = try HTMLWriter().write(document)
        #expect(String(decoding: html.value, as: UTF8.self) == Self.writtenHTML)
        #expect(try HTMLReader().read(html.value).value == document)

        let markdown = try MarkdownWriter().write(document)
        #expect(String(decoding: markdown.value, as: UTF8.self) == Self.writtenHTML)
        #expect(markdown.diagnostics.isEmpty)
        #expect(try MarkdownReader().read(markdown.value).value == document)

        let dropped = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: dropped.value, as: UTF8.self) == "Name | Price\n\n**Tea** [green](https://e.com/t) | 2.50\n\nTwo\\\nlines\n")
        #expect(dropped.diagnostics.map(\.code) == ["table-flattened"])
        #expect(dropped.diagnostics.first?.block == 0)
    }

    @Test("Markup JSON carries the cells in every offset unit, and reads them back")
    func json() throws {
        let document = Document(blocks: [Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 4)), TableCell(TextRange(start: 7, end: 8), isHeader: true, rowSpan: 3)],
                                                                   startsTable: true)), text: "👍 a | é")])
        let expected: [OffsetUnit: String] = [
            .utf16: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"TR","text":"👍 a | é","startsTable":true,"cells":[{"start":0,"end":4},{"start":7,"end":8,"header":true,"rowspan":3}]}]}"#,
            .scalar: #"{"version":1,"offsetUnit":"scalar","paragraphs":[{"type":"TR","text":"👍 a | é","startsTable":true,"cells":[{"start":0,"end":3},{"start":6,"end":7,"header":true,"rowspan":3}]}]}"#,
            .utf8: #"{"version":1,"offsetUnit":"utf8","paragraphs":[{"type":"TR","text":"👍 a | é","startsTable":true,"cells":[{"start":0,"end":6},{"start":9,"end":11,"header":true,"rowspan":3}]}]}"#,
        ]
        for (unit, json) in expected {
            let written = try MarkupJSONWriter(options: .init(offsetUnit: unit)).write(document).value
            #expect(String(decoding: written, as: UTF8.self) == json + "\n")
            let read = try MarkupJSONReader().read(written)
            #expect(read.value == document)
            #expect(read.diagnostics.isEmpty)
        }
    }

    @Test("A markup JSON row's markup over a cell's edge is cut there and reported; a row after a paragraph starts a table")
    func crossingMarkup() throws {
        let json = #"{"paragraphs":[{"type":"P","text":"x"},{"type":"TR","text":"ab | cd","cells":[{"start":0,"end":2},{"start":5,"end":7}],"markups":[{"type":"STRONG","start":1,"end":6}]}]}"#
        let read = try MarkupJSONReader().read(json)
        #expect(read.value.blocks[1] == Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 2)), TableCell(TextRange(start: 5, end: 7))], startsTable: true)),
                                              text: "ab | cd", markups: [Markup(.strong, start: 1, end: 2), Markup(.strong, start: 5, end: 6)]))
        #expect(read.diagnostics.map(\.code) == ["markup-split-at-cells"])
        #expect(read.diagnostics.first?.location?.jsonPointer == "/paragraphs/1/markups")
        #expect(read.value.invariantViolations().isEmpty)
    }

    @Test("Two tables side by side stay two; a table in a list item and in a quote keeps its place")
    func placement() throws {
        let html = "<table><tr><td>a</td></tr></table><table><tr><td>b</td></tr></table><ul><li>item<table><tr><td>c</td></tr></table></li></ul><blockquote><table><tr><td>d</td></tr></table></blockquote>"
        let read = try HTMLReader().read(html).value
        func row(_ text: String, depth: Int = 0, quoteDepth: Int = 0) -> Block {
            Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))], startsTable: true)), text: text, depth: depth, quoteDepth: quoteDepth)
        }
        #expect(read.blocks == [row("a"), row("b"), Block(.unorderedListItem, text: "item"), row("c", depth: 1), row("d", quoteDepth: 1)])
        for written in [try HTMLWriter().write(read).value] {
            #expect(try HTMLReader().read(written).value == read)
        }
        let markdown = try MarkdownWriter().write(read).value
        #expect(String(decoding: markdown, as: UTF8.self) == """
            <table>
            <tr><td>a</td></tr>
            </table>

            <table>
            <tr><td>b</td></tr>
            </table>

            - item

              <table>
              <tr><td>c</td></tr>
              </table>

            > <table>
            > <tr><td>d</td></tr>
            > </table>

            """)
        #expect(try MarkdownReader().read(markdown).value == read)
    }

    @Test("<pre> in a cell keeps its spaces and lines, as code, and reads back through HTML")
    func preInCell() throws {
        let read = try HTMLReader().read("<table><tr><td>Run:<pre>let  x = 1\n  y()\n</pre></td></tr></table>")
        let row = Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 21))], startsTable: true)),
                        text: "Run:\nlet  x = 1\n  y()", markups: [Markup(.code, start: 5, end: 21)])
        #expect(read.value.blocks == [row])
        #expect(read.diagnostics.map(\.code) == ["table-cell-flattened"])
        #expect(try HTMLReader().read(try HTMLWriter().write(read.value).value).value == read.value)
    }

    @Test("A table whose first row has no cells starts at its next row (the fuzzer found it)")
    func firstRowWithoutCells() throws {
        let read = try HTMLReader().read("<p>x</p><table><tr></tr><tr><td>a</td></tr></table>").value
        #expect(read.blocks.last == Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))], startsTable: true)), text: "a"))
        #expect(read.invariantViolations().isEmpty)
    }

    @Test("The generated documents the round-trip properties use hold tables")
    func generatorMakesTables() {
        var generator = DocumentGenerator(seed: 1, profile: .hostile)
        var rows = 0, tables = 0
        for index in 0..<600 {
            for block in generator.document(blockCount: 1 + index % 12).blocks {
                guard case .tableRow(let row) = block.kind else { continue }
                rows += 1
                if row.startsTable { tables += 1 }
            }
        }
        #expect(tables > 30)
        #expect(rows > tables)
    }
}
