import Testing
import MarkbridgeIR
import MarkbridgeMarkdown

/// The Markdown reader marks what it returns as the other readers do (see `KnownWritableTests`).
@Suite("The Markdown reader's document is written without a second check; a changed one is checked")
struct KnownWritableMarkdownTests {
    @Test("CommonMark and GFM documents are marked, and a change clears the mark")
    func marked() throws {
        var dialects: [MarkdownReader.Dialect] = [.commonMark]
        if MarkdownReader.gfmVersion != nil { dialects.append(.gfm) }
        for dialect in dialects {
            var document = try MarkdownReader(options: .init(dialect: dialect)).read(Array("a **b**\n\n- c\n".utf8)).value
            #expect(document.isKnownWritable)
            document.blocks[1].depth = 3
            #expect(!document.isKnownWritable)
            #expect(throws: ConversionError.self) { try MarkdownWriter().write(document) }
        }
    }
}
