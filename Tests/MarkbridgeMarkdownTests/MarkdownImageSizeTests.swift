import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeMarkdown

/// Markdown has no image size of its own: inline HTML `<img>` carries it, read by the HTML
/// reader's tag rules (attributes, `px`, CSS winning over them), and an HTML block by the HTML
/// reader itself.
@Suite("Markdown: an image's size through inline and block HTML")
struct MarkdownImageSizeTests {
    static func json(_ markdown: String) throws -> (json: String, diagnostics: [String]) {
        let read = try MarkdownReader().read(Array(markdown.utf8))
        #expect(read.value.invariantViolations().isEmpty)
        let json = String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        return (String(json.dropLast()), read.diagnostics.map(\.description))
    }

    @Test("Inline <img> keeps width and height in pixels; a percentage and another CSS unit are dropped, said; CSS px wins over the attribute")
    func inlineTags() throws {
        let read = try Self.json(#"a <img src="https://e.x/i.png" alt="i" width="16" height="16px"> b <img src="https://e.x/j.png" width="50%" style="height: 3em"> c <img src="https://e.x/k.png" width="10" style="width:20px">"# + "\n")
        #expect(read.json == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a ￼ b ￼ c ￼","markups":[{"type":"IMAGE","start":2,"end":3,"src":"https://e.x/i.png","width":16,"height":16,"alt":"i"},{"type":"IMAGE","start":6,"end":7,"src":"https://e.x/j.png"},{"type":"IMAGE","start":10,"end":11,"src":"https://e.x/k.png","width":20}]}]}"#)
        #expect(read.diagnostics == [
            "1:68: warning: CSS value 'height: 3em' of an image dropped, and with it any height attribute it overrides: the IR keeps an image's size in whole CSS pixels only (1×) [inline-html]",
            #"1:68: warning: image size given as a percentage (width="50%") dropped: the IR keeps an image's width and height in whole CSS pixels only [inline-html]"#,
        ])
    }

    @Test("An <img> alone is an HTML block: an IMG with its size")
    func htmlBlock() throws {
        let read = try Self.json(#"<img src="https://e.x/a.png" width="640" height="480">"# + "\n")
        #expect(read.json == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"IMG","src":"https://e.x/a.png","width":640,"height":480}]}"#)
        #expect(read.diagnostics.isEmpty)
    }
}
