import Testing
import Markbridge

/// C1 controls (U+0080-U+009F) never reach output raw (HOSTILE-INPUTS E8): JSON escapes them,
/// HTML and Markdown write references. What each reader makes of those references decides
/// whether the round trip is exact; where it cannot be, a diagnostic says so.
@Suite("E8: C1 controls, escaped in every output, read back where the format can")
struct C1ControlTests {
    static let text = "a\u{80}b\u{9F}c\u{81}d"
    static let json = #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a\u0080b\u009fc\u0081d","markups":[{"type":"STRONG","start":3,"end":5}]}]}"# + "\n"

    func convert(_ input: String, from source: String, to target: String) throws -> (String, [String]) {
        let result = try Converter().convert(Array(input.utf8), from: source, to: target)
        return (String(decoding: result.value, as: UTF8.self), result.diagnostics.map(\.code))
    }

    func hasRawC1(_ output: String) -> Bool {
        output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    @Test("Markup JSON: \\u0080-style escapes, and the same bytes back")
    func json() throws {
        let (written, codes) = try convert(Self.json, from: "json", to: "json")
        #expect(written == Self.json)
        #expect(codes == [])
        let (fromRaw, _) = try convert(#"{"paragraphs":[{"type":"P","text":"\#(Self.text)"}]}"#, from: "json", to: "json")
        #expect(fromRaw == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a\u0080b\u009fc\u0081d"}]}"# + "\n")
    }

    @Test("Markdown and GFM: &#x80; references, which cmark reads back exactly, offsets and all", arguments: ["markdown", "gfm"])
    func markdown(_ target: String) throws {
        let (markdown, codes) = try convert(Self.json, from: "json", to: target)
        // `**` before the `&` of a reference would not be left-flanking: the writer uses HTML.
        #expect(markdown == "a&#x80;b<strong>&#x9F;c</strong>&#x81;d\n")
        #expect(codes == [])
        #expect(!hasRawC1(markdown))
        let (back, _) = try convert(markdown, from: "markdown", to: "json")
        #expect(back == Self.json)
    }

    @Test("Markdown link destinations and titles: references too, read back exactly")
    func markdownAttributes() throws {
        let input = #"{"paragraphs":[{"type":"P","text":"x","markups":[{"type":"LINK","start":0,"end":1,"href":"https://e.x/\u0085","title":"t\u0090"}]}]}"#
        let (markdown, _) = try convert(input, from: "json", to: "markdown")
        #expect(markdown == #"[x](https://e.x/&#x85; "t&#x90;")"# + "\n")
        let (back, _) = try convert(markdown, from: "markdown", to: "json")
        #expect(back == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x","markups":[{"type":"LINK","start":0,"end":1,"href":"https://e.x/\u0085","title":"t\u0090"}]}]}"# + "\n")
    }

    @Test("A code block cannot hold a reference: HTML's <pre> where kept, U+FFFD without HTML, reported")
    func codeBlock() throws {
        let input = #"{"paragraphs":[{"type":"PRE","text":"x\u0081y"}]}"#
        let (kept, keptCodes) = try convert(input, from: "json", to: "markdown")
        #expect(kept == "<pre><code>x&#x81;y</code></pre>\n")
        #expect(keptCodes == [])
        let result = try Converter(options: .init(markdownHTML: .drop)).convert(Array(input.utf8), from: "json", to: "markdown")
        #expect(String(decoding: result.value, as: UTF8.self) == "```\nx\u{FFFD}y\n```\n")
        #expect(result.diagnostics.map(\.code) == ["control-character-replaced"])
    }

    @Test("A code span cannot hold a reference either: inline <code> where HTML is kept, U+FFFD without it, reported", arguments: ["markdown", "gfm"])
    func codeSpan(_ target: String) throws {
        let input = #"{"paragraphs":[{"type":"P","text":"a\u0085b\u0001c","markups":[{"type":"CODE","start":0,"end":5}]}]}"#
        let (kept, keptCodes) = try convert(input, from: "json", to: target)
        #expect(kept == "<code>a&#x85;b&#1;c</code>\n")
        #expect(keptCodes == [])
        #expect(!hasRawC1(kept))
        let (back, _) = try convert(kept, from: "markdown", to: "json")
        #expect(back == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a\u0085b\u0001c","markups":[{"type":"CODE","start":0,"end":5}]}]}"# + "\n")
        let target = try #require(FormatRegistry.standard.format(named: target))
        let dropped = try Converter(options: .init(markdownHTML: .drop)).convert(Array(input.utf8), from: .markupJSON, to: target)
        #expect(String(decoding: dropped.value, as: UTF8.self) == "`a\u{FFFD}b\u{FFFD}c`\n")
        #expect(dropped.diagnostics.map(\.code) == ["control-character-replaced"])
    }

    @Test("HTML: &#x80; references; the five Windows-1252 leaves out read back, the others as browsers read them, reported")
    func html() throws {
        let (html, codes) = try convert(Self.json, from: "json", to: "html")
        #expect(html == "<p>a&#x80;b<strong>&#x9F;c</strong>&#x81;d</p>\n")
        #expect(codes == ["control-character-replaced"])
        let (back, _) = try convert(html, from: "html", to: "json")
        #expect(back == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a€bŸc\u0081d","markups":[{"type":"STRONG","start":3,"end":5}]}]}"# + "\n")
        let (survivors, survivorCodes) = try convert(#"{"paragraphs":[{"type":"P","text":"\u0081\u008d\u008f\u0090\u009d"}]}"#, from: "json", to: "html")
        #expect(survivors == "<p>&#x81;&#x8D;&#x8F;&#x90;&#x9D;</p>\n")
        #expect(survivorCodes == [])
        let (attribute, _) = try convert(#"{"paragraphs":[{"type":"IMG","src":"https://e.x/a.png","alt":"\u0081"}]}"#, from: "json", to: "html")
        #expect(attribute == #"<p><img src="https://e.x/a.png" alt="&#x81;"></p>"# + "\n")
    }

    @Test("HTML: a NUL, which HTML cannot hold, written as U+FFFD and reported, in text and in an attribute")
    func nul() throws {
        var document = Document(blocks: [Block(.paragraph, text: "a\u{0}b\u{0}", markups: [Markup(.link(LinkTarget(href: "https://e.x/", title: "t\u{0}")), start: 0, end: 1)])])
        document.blocks.append(Block(.paragraph, text: "clean"))
        let result = try HTMLWriter().write(document)
        #expect(String(decoding: result.value, as: UTF8.self)
            == "<p><a href=\"https://e.x/\" title=\"t&#xFFFD;\">a</a>&#xFFFD;b&#xFFFD;</p>\n<p>clean</p>\n")
        #expect(result.diagnostics.map(\.message) == ["block 0: 3 NUL characters (U+0000) written as U+FFFD: HTML cannot hold one"])
        #expect(result.diagnostics.map(\.code) == ["control-character-replaced"])
    }
}
