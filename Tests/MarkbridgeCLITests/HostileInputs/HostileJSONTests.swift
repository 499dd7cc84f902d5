import Testing
import Markbridge

/// HOSTILE-INPUTS.md, section C (ranged-markup JSON input): one test a row, named by it, where
/// no test elsewhere already carries the row's id (SECURITY.md maps every row to its tests).
@Suite("Hostile input, section C: markup JSON")
struct HostileJSONTests {
    @Test("C10: U+2028/2029, C0, U+FFFE/U+FFFF and U+202E in text are kept in JSON; a bidi control in a link's href is flagged, in link text kept")
    func controlsAndBidi() throws {
        let converter = Converter()
        let text = #"{"paragraphs":[{"type":"P","text":"a\u2028b\u2029c\u0001d\uFFFEe\uFFFF\u202Eevil","markups":[{"type":"LINK","start":0,"end":3,"href":"https://example.com/\u202Efdp.exe"}]}]}"#
        let json = try converter.convert(text, from: .markupJSON, to: .markupJSON)
        // Escaped where JSON or a JavaScript reader needs it; the override itself is a character.
        #expect(json.value == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a\u2028b\u2029c\u0001d\ufffee\uffff"# + "\u{202E}"
            + #"evil","markups":[{"type":"LINK","start":0,"end":3,"href":"https://example.com/"# + "\u{202E}" + #"fdp.exe"}]}]}"# + "\n")
        #expect(json.diagnostics.map(\.description) == [
            "1:94: warning: LINK markup kept, but its URL holds the bidirectional control U+202E, which can make it display as another address (at /paragraphs/0/markups/0) [bidi-in-url]",
        ])
        let html = try converter.convert(#"<p><a href="https://example.com/&#x202E;fdp.exe">&#x202E;text</a></p>"#, from: .html, to: .markupJSON)
        #expect(html.diagnostics.map(\.code) == ["bidi-in-url"])
        #expect(html.value.contains("\"text\":\"\u{202E}text\""))
        let markdown = try converter.convert("[\u{202E}text](https://example.com/\u{202E}fdp.exe) ![i](https://example.com/\u{2067}x.png)", from: .markdown, to: .markupJSON)
        #expect(markdown.diagnostics.map(\.description) == [
            "1:1: warning: link kept, but its URL holds the bidirectional control U+202E, which can make it display as another address [bidi-in-url]",
            "1:43: warning: image kept, but its URL holds the bidirectional control U+2067, which can make it display as another address [bidi-in-url]",
        ])
        // Link text alone is text: nothing flagged.
        #expect(try converter.convert("<p><a href=\"https://example.com/\">\u{202E}moc.live</a></p>", from: .html, to: .markdown).diagnostics.isEmpty)
        // Controls in Markdown and HTML output: a reference for C0, U+FFFE and U+FFFF kept as characters.
        let htmlOut = try converter.convert(text, from: .markupJSON, to: .html)
        #expect(htmlOut.value == "<p><a href=\"https://example.com/\u{202E}fdp.exe\">a\u{2028}b</a>\u{2029}c&#1;d\u{FFFE}e\u{FFFF}\u{202E}evil</p>\n")
    }
}
