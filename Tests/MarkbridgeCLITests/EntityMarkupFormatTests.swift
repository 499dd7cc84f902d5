import Markbridge
import Testing

/// `HASHTAG` and `MENTION` through every format: written as a span with a class and a data
/// attribute in HTML (and so in Markdown's inline HTML), read back from that form, and with
/// `--markdown-html drop` written as their text and reported.
@Suite("Hashtags and mentions in every format")
struct EntityMarkupFormatTests {
    static let json = ##"{"paragraphs":[{"type":"P","text":"#東京 with @ana","markups":[{"type":"HASHTAG","start":0,"end":3,"tag":"東京"},{"type":"MENTION","start":9,"end":13,"name":"ana"},{"type":"STRONG","start":9,"end":13}]}]}"##

    @Test("HTML: a span with a class and the value; read back to the same document")
    func html() throws {
        let converter = Converter()
        let html = try converter.convert(Self.json, from: .markupJSON, to: .html)
        #expect(html.value == ##"<p><span class="hashtag" data-tag="東京">#東京</span> with <strong><span class="mention" data-name="ana">@ana</span></strong></p>"## + "\n")
        #expect(html.diagnostics.isEmpty)
        let original = try converter.read(Array(Self.json.utf8), from: .markupJSON).value
        #expect(try converter.read(Array(html.value.utf8), from: .html).value == original)
    }

    @Test("Markdown keeps them as inline HTML and reads them back; without HTML they are text, reported")
    func markdown() throws {
        let converter = Converter()
        let markdown = try converter.convert(Self.json, from: .markupJSON, to: .markdown)
        #expect(markdown.value == ##"<span class="hashtag" data-tag="東京">#東京</span> with **<span class="mention" data-name="ana">@ana</span>**"## + "\n")
        let original = try converter.read(Array(Self.json.utf8), from: .markupJSON).value
        #expect(try converter.read(Array(markdown.value.utf8), from: .markdown).value == original)

        let plain = try Converter(options: ConversionOptions(markdownHTML: .drop)).convert(Self.json, from: .markupJSON, to: .markdown)
        #expect(plain.value == "#東京 with **@ana**\n")
        #expect(plain.diagnostics.map(\.message) == ["HASHTAG 0..<3 in block 0 has no CommonMark syntax; dropped (--markdown-html drop)",
                                                     "MENTION 9..<13 in block 0 has no CommonMark syntax; dropped (--markdown-html drop)"])
    }

    @Test("A span with the class but no value, or another class, is an ordinary span")
    func ordinarySpans() throws {
        let document = try Converter().read(Array(##"<p><span class="hashtag">#a</span> <span class="tag" data-tag="b">#b</span> <span class="x HashTag" data-tag="c">#c</span></p>"##.utf8), from: .html).value
        #expect(document.blocks[0].markups == [Markup(.hashtag("c"), start: 6, end: 8)])
        // The list is split at each space as HTML splits it, by scalars: a combining mark after
        // the space makes one character of the two, but still two classes; "hashtagé" is another class.
        let marked = try Converter().read(Array("<p><span class=\"hashtag \u{301}x\" data-tag=\"d\">#d</span> <span class=\"hashtag\u{301}\" data-tag=\"e\">#e</span></p>".utf8), from: .html).value
        #expect(marked.blocks[0].markups == [Markup(.hashtag("d"), start: 0, end: 2)])
    }

    @Test("Markup JSON requires the value, and reports a value on the wrong type")
    func jsonFields() throws {
        #expect(throws: ConversionError.self) {
            try Converter().read(Array(##"{"paragraphs":[{"type":"P","text":"#a","markups":[{"type":"HASHTAG","start":0,"end":2}]}]}"##.utf8), from: .markupJSON)
        }
        let read = try Converter().read(Array(##"{"paragraphs":[{"type":"P","text":"#a","markups":[{"type":"STRONG","start":0,"end":2,"tag":"a"}]}]}"##.utf8), from: .markupJSON)
        #expect(read.diagnostics.map(\.message) == ["field 'tag' does not apply to type STRONG and was ignored"])
    }
}
