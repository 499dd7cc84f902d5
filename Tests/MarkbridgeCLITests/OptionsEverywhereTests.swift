import Testing
import Markbridge

/// Every option applies to every reader it concerns, HTML inside Markdown included, and the
/// readers used directly share the converter's service defaults.
@Suite("Options reach every reader")
struct OptionsEverywhereTests {
    @Test("baseURL, unknownElements and the HTML depth limit apply to HTML blocks and inline HTML in Markdown")
    func htmlInsideMarkdown() throws {
        let markdown = "<div><a href=\"/block\">a</a> <foo>b</foo></div>\n\nText <a href=\"inline\">c</a> <img src=\"i.png\" alt=\"d\">\n"
        var options = ConversionOptions(baseURL: "https://e.x/base/", unknownElements: .drop)
        let read = try Converter(options: options).read(Array(markdown.utf8), from: .markdown)
        let links = read.value.blocks.flatMap(\.markups).compactMap { markup -> String? in
            switch markup.kind {
            case .link(let target): target.href
            case .image(let image): image.src
            default: nil
            }
        }
        #expect(links == ["https://e.x/block", "https://e.x/base/inline", "https://e.x/base/i.png"])
        #expect(read.value.blocks.map(\.text) == ["a", "Text c \u{FFFC}"])
        #expect(read.diagnostics.contains { $0.code == "unknown-element" })
        // The HTML depth limit: a block nested past it is flattened, reported, as from HTML.
        options = ConversionOptions(limits: ConversionLimits(maxHTMLDepth: 8))
        let deep = String(repeating: "<div>", count: 20) + "x" + String(repeating: "</div>", count: 20) + "\n"
        let flattened = try Converter(options: options).read(Array(deep.utf8), from: .markdown)
        #expect(flattened.diagnostics.map(\.code).contains("depth-limit"))
    }

    @Test("Readers used directly default to the service's input limit")
    func defaults() {
        let service = ConversionLimits.service.maxInputBytes
        #expect(service == 64 << 20)
        #expect(MarkdownReader.Options.default.maxInputBytes == service)
        #expect(MarkupJSONReader.Options.default.maxInputBytes == service)
        #expect(HTMLReader.Options.default.parser.maxInputBytes == service)
    }
}
