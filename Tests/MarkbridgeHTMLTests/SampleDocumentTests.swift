import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// The shared real-world samples, read as a browser reader would see them.
@Suite("HTML reader: the shared samples", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
struct SampleDocumentTests {
    func read(_ name: String) throws -> Diagnosed<Document> {
        let bytes = try #require(FileBytes.read(TestPaths.sharedData("samples/" + name)))
        return try HTMLReader().read(bytes)
    }

    @Test("tolerant.html: a bare <br>, a non-tag and misnested formatting read as a browser shows them")
    func tolerant() throws {
        let read = try read("tolerant.html")
        #expect(read.value == Document(blocks: [Block(.paragraph, text: "\n/ / BoldBold+ItalicItalic", markups: [
            Markup(.strong, start: 5, end: 20), Markup(.emphasis, start: 9, end: 26),
        ])]))
        #expect(read.diagnostics.map(\.code) == ["unknown-element"])
    }

    @Test("consent-zh.html: every character, the link, nested bold and italic, red, green, the image; dropped CSS reported",
          arguments: ["consent-zh.html", "consent-ja.html"])
    func consent(name: String) throws {
        let read = try read(name)
        let source = String(decoding: try #require(FileBytes.read(TestPaths.sharedData("samples/" + name))), as: UTF8.self)
        let visible = Self.stripTags(source)
        let text = read.value.blocks.map(\.text).joined().replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\u{FFFC}", with: "")
        #expect(text == visible)
        let kinds = read.value.blocks[0].markups.map(\.kind)
        #expect(kinds.contains(.link(LinkTarget(href: "http://google.com"))))
        #expect(kinds.contains(.strong) && kinds.contains(.emphasis))
        #expect(kinds.contains(.color(CSSColor(red: 255, green: 0, blue: 0))))
        #expect(kinds.contains(.background(CSSColor(red: 0, green: 255, blue: 0))))
        #expect(kinds.contains(.image(ImageSource(src: "g.png"))))
        #expect(Set(read.diagnostics.map(\.message)) == [
            "CSS property 'font-size' dropped (1×)", "CSS property 'word-spacing' dropped (1×)", "CSS property 'line-height' dropped (1×)",
        ])
    }

    @Test("article-ru.html: headings, paragraphs, list items and links over bold and italic; no tag left in any text")
    func article() throws {
        let read = try read("article-ru.html")
        let kinds = Set(read.value.blocks.map { block -> String in
            switch block.kind {
            case .heading: "H"
            case .paragraph: "P"
            case .unorderedListItem, .orderedListItem: "LI"
            default: "other"
            }
        })
        #expect(kinds.isSuperset(of: ["H", "P", "LI"]))
        #expect(!read.value.blocks.contains { $0.text.contains("<") || $0.text.contains(">") })
        let links = read.value.blocks.flatMap { block in block.markups.filter { if case .link = $0.kind { true } else { false } }.map { (block, $0) } }
        #expect(!links.isEmpty)
        #expect(links.contains { block, link in
            block.markups.contains { ($0.kind == .strong || $0.kind == .emphasis) && $0.range.start <= link.range.start && $0.range.end >= link.range.end }
        })
        #expect(read.value.invariantViolations().isEmpty)
    }

    /// The text a browser shows, for these samples: tags removed (no entities, no whitespace runs in them).
    static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag && character != "\n" { out.append(character) }
        }
        return out
    }
}
