import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeMarkdown
import MarkbridgeTestSupport

@Suite("Markdown writer: the cases naive writers get wrong")
struct MarkdownWriterFixtureTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeMarkdownTests/Fixtures/writer.txt"))

    @Test("The fixture file is there and parsed")
    func loaded() throws {
        #expect(Self.fixtures.count >= 15)
    }

    @Test("Exact Markdown, no diagnostics, and it reads back as the same IR", arguments: fixtures)
    func write(_ fixture: Fixture) throws {
        let document = try MarkupJSONReader().read(fixture.input).value
        let written = try MarkdownWriter().write(document)
        #expect(written.diagnostics.isEmpty)
        #expect(String(decoding: written.value, as: UTF8.self) == fixture.expected + "\n", "\(fixture.origin) \(fixture.title)")
        #expect(try MarkdownReader().read(written.value).value == document, "\(fixture.origin) \(fixture.title)")
    }

    @Test("--markdown-html drop: pure CommonMark, every drop reported")
    func drop() throws {
        let document = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"P","text":"under and 日本「強調」です","markups":[{"type":"UNDERLINE","start":0,"end":5},{"type":"STRONG","start":12,"end":16}]},{"type":"P","text":"c","align":"center"}]}"#).value
        let written = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == "under and 日本「強調」です\n\nc\n")
        #expect(written.diagnostics.map(\.code) == ["emphasis-dropped", "markup-dropped", "alignment-dropped"])
    }
}

extension Fixture: CustomTestStringConvertible {}
