import Foundation
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
        // Each use names what kept the URL: a link, an image, an embed.
        let uses = try converter.convert(#"<p><a href="https://example.com/&#x202E;fdp.exe">t</a> <img src="https://example.com/&#x2067;x.png" alt="i"></p><iframe src="https://www.youtube.com/embed/&#x202E;abc"></iframe>"#,
                                         from: .html, to: .markupJSON)
        #expect(uses.diagnostics.map(\.description) == [
            "1:4: warning: link on <a> kept, but its URL holds the bidirectional control U+202E, which can make it display as another address [bidi-in-url]",
            "1:56: warning: image kept, but its URL holds the bidirectional control U+2067, which can make it display as another address [bidi-in-url]",
            "1:113: warning: <iframe> kept, but its URL holds the bidirectional control U+202E, which can make it display as another address [bidi-in-url]",
        ])
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

    /// The error a markup JSON input is refused with, as it prints.
    static func refusal(_ json: String) -> String {
        do {
            _ = try Converter().convert(json, from: .markupJSON, to: .markupJSON)
            return "accepted"
        } catch {
            return "\(error.description) [\(error.code)]"
        }
    }

    static func paragraph(_ text: String, _ markups: String) -> String {
        #"{"paragraphs":[{"type":"P","text":""# + text + #"","markups":["# + markups + "]}]}"
    }

    @Test("C1: a range backwards, before 0 or past the text is refused with its JSON Pointer; an empty one is dropped and warned")
    func ranges() throws {
        #expect(Self.refusal(Self.paragraph("abcdef", #"{"type":"EM","start":5,"end":2}"#)) == "1:84: /paragraphs/0/markups/0/end: end 2 is before start 5 [end-before-start]")
        #expect(Self.refusal(Self.paragraph("abcdef", #"{"type":"EM","start":-1,"end":2}"#)) == "1:76: /paragraphs/0/markups/0/start: -1 is negative [negative-number]")
        #expect(Self.refusal(Self.paragraph("abcdef", #"{"type":"EM","start":0,"end":7}"#)) == "1:84: /paragraphs/0/markups/0/end: end 7 is past the end of the text (6 UTF-16 code units) [offset-out-of-range]")
        let empty = try HostileRow.convert(Self.paragraph("abcdef", #"{"type":"EM","start":3,"end":3}"#), from: .markupJSON)
        #expect(empty.output == HostileRow.json("abcdef"))
        #expect(empty.codes == ["empty-markup"])
    }

    @Test("C2: offsets that are not integers, or out of range, are refused without a trap", arguments: ["1.5", #""3""#, "1e2", "-0", "9223372036854775808", "1e400"])
    func offsets(offset: String) throws {
        #expect(Self.refusal(Self.paragraph("abcdef", #"{"type":"EM","start":"# + offset + #","end":4}"#)).contains("/paragraphs/0/markups/0/start"))
    }

    @Test("C3: a range splitting a surrogate pair is refused; no lone surrogate is ever written")
    func surrogates() throws {
        #expect(Self.refusal(Self.paragraph("a\u{1F44D}b", #"{"type":"STRONG","start":2,"end":3}"#)) == "1:80: /paragraphs/0/markups/0/start: start 2 splits a surrogate pair [offset-splits-character]")
    }

    @Test("C4: a range inside a character (a combining mark alone, half a ZWJ family) is kept as given; output stays valid Unicode and reads back")
    func insideGrapheme() throws {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let input = Self.paragraph("e\u{301} " + family, #"{"type":"EM","start":1,"end":2},{"type":"STRONG","start":3,"end":6}"#)
        let result = try Converter().convert(input, from: .markupJSON, to: .markupJSON)
        let json = HostileRow.json("e\u{301} " + family, #"{"type":"EM","start":1,"end":2},{"type":"STRONG","start":3,"end":6}"#)
        #expect(result.value == json)
        // Allowed, not warned: HTML says the same (e<em>&#x301;</em>), and a writer's own output
        // reads back without a diagnostic (SECURITY.md, C4).
        #expect(result.diagnostics.isEmpty)
        #expect(try HostileRow.convert(input, from: .markupJSON, to: .html).output == "<p>e<em>\u{301}</em> <strong>\u{1F468}\u{200D}</strong>\u{1F469}\u{200D}\u{1F467}</p>\n")
        for target in [Format.html, .markdown] {
            let written = try HostileRow.convert(input, from: .markupJSON, to: target).output
            #expect(try HostileRow.convert(written, from: target).output == json, "\(target.name)")
        }
    }

    @Test("C5: crossing and duplicate markups normalise deterministically into nested HTML; overlapping links are refused")
    func crossing() throws {
        let input = Self.paragraph("abcdefghij", #"{"type":"STRONG","start":0,"end":5},{"type":"EM","start":3,"end":8},{"type":"STRONG","start":0,"end":5}"#)
        let html = try HostileRow.convert(input, from: .markupJSON, to: .html)
        #expect(html.output == "<p><strong>abc<em>de</em></strong><em>fgh</em>ij</p>\n")
        #expect(html.codes == ["markups-merged"])
        #expect(Self.refusal(Self.paragraph("abcdefghij", #"{"type":"LINK","start":0,"end":5,"href":"https://a/"},{"type":"LINK","start":3,"end":8,"href":"https://b/"}"#)) == "1:113: /paragraphs/0/markups/1: LINK 3..<8 overlaps LINK 0..<5 [overlapping-links]")
    }

    @Test("C6: a lone surrogate escape in text is refused with its pointer, never read as U+FFFD or U+0000", arguments: [#"\uD800"#, #"\uDC00"#, #"\uDBFF\u0041"#])
    func loneSurrogates(escape: String) throws {
        #expect(Self.refusal(#"{"paragraphs":[{"type":"P","text":"a"# + escape + #""}]}"#) == "1:37: /paragraphs/0/text: \(escape.prefix(6)) is a lone surrogate [lone-surrogate]")
    }

    @Test("C8: a duplicate key is warned, never silently last-wins; an unknown markup type is refused by name; unknown fields are warned")
    func duplicatesAndUnknowns() throws {
        let duplicate = try HostileRow.convert(#"{"paragraphs":[{"type":"P","text":"a","text":"b"}]}"#, from: .markupJSON)
        // Lenient, as every reader is: the last one read, and the repetition reported.
        #expect(duplicate.output == HostileRow.json("b"))
        #expect(duplicate.codes == ["duplicate-key"])
        #expect(Self.refusal(Self.paragraph("abc", #"{"type":"blink","start":0,"end":1}"#))
            == "1:52: /paragraphs/0/markups/0/type: unknown markup type 'blink' (expected one of STRONG, EM, CODE, LINK, STRIKE, UNDERLINE, SUP, SUB, HIGHLIGHT, COLOR, BACKGROUND, IMAGE, HASHTAG, MENTION) [unknown-type]")
        let unknown = try HostileRow.convert(#"{"paragraphs":[{"type":"P","text":"a"}],"extra":true}"#, from: .markupJSON)
        #expect(unknown.output == HostileRow.json("a"))
        #expect(unknown.codes == ["unknown-field"])
    }

    @Test("C9: a JSON href meets the HTML and Markdown URL policy, and its length cap", arguments: [
        "javascript:alert(1)", " jav\tascript:alert(1)", "data:text/html,<script>alert(1)</script>", "https://example.com/" + String(repeating: "a", count: 1_000_000),
    ])
    func hrefPolicy(href: String) throws {
        let escaped = href.replacingOccurrences(of: "\t", with: "\\t")
        let result = try HostileRow.convert(Self.paragraph("abc", #"{"type":"LINK","start":0,"end":3,"href":""# + escaped + #""}"#), from: .markupJSON)
        #expect(result.output == HostileRow.json("abc"))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("C11: 100,000 markups on one paragraph and 100,000 paragraphs read and canonicalise (the scaling tests double them)")
    func manyMarkups() throws {
        let markups = (0..<100_000).map { #"{"type":"STRONG","start":\#($0),"end":\#($0 + 1)}"# }.joined(separator: ",")
        let merged = try HostileRow.convert(Self.paragraph(String(repeating: "a", count: 100_001), markups), from: .markupJSON)
        #expect(merged.output == HostileRow.json(String(repeating: "a", count: 100_001), #"{"type":"STRONG","start":0,"end":100000}"#))
        #expect(merged.codes == ["markups-merged"])
        let paragraphs = #"{"paragraphs":["# + Array(repeating: #"{"type":"P","text":"a"}"#, count: 100_000).joined(separator: ",") + "]}"
        #expect(try HostileRow.convert(paragraphs, from: .markupJSON, to: .plainText).output.utf8.count == 100_000 * 3 - 1)
    }
}
