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

    @Test("--markdown-html drop: an image's size dropped, said exactly; the emphasis beside it still read back")
    func imageSizeDropped() throws {
        let document = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"IMG","src":"https://e.x/a.png","alt":"A","width":640,"height":480},{"type":"P","text":"abc de \uFFFC","markups":[{"type":"CODE","start":0,"end":3},{"type":"STRONG","start":4,"end":6},{"type":"EM","start":0,"end":6},{"type":"IMAGE","start":7,"end":8,"src":"https://e.x/i.png","width":5}]},{"type":"ULI","text":"\uFFFC","markups":[{"type":"IMAGE","start":0,"end":1,"src":"https://e.x/j.png","height":32}]}]}"#).value
        let written = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == "![A](https://e.x/a.png)\n\n*`abc` **de*** ![](https://e.x/i.png)\n\n- ![](https://e.x/j.png)\n")
        #expect(written.diagnostics.map(\.description) == [
            "warning: size 640×480 of an image in block 0 dropped: a CommonMark image has no size (--markdown-html drop) [image-size-dropped]",
            "warning: width 5 of an image in block 1 dropped: a CommonMark image has no size (--markdown-html drop) [image-size-dropped]",
            "warning: height 32 of an image in block 2 dropped: a CommonMark image has no size (--markdown-html drop) [image-size-dropped]",
        ])
        var sizeless = document
        for index in sizeless.blocks.indices {
            if case .image(let image) = sizeless.blocks[index].kind { sizeless.blocks[index].kind = .image(image.withoutSize) }
            for markup in sizeless.blocks[index].markups.indices {
                if case .image(let image) = sizeless.blocks[index].markups[markup].kind { sizeless.blocks[index].markups[markup].kind = .image(image.withoutSize) }
            }
        }
        #expect(try MarkdownReader().read(written.value).value == sizeless)
    }
}

extension Fixture: CustomTestStringConvertible {}
