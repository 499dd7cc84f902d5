import Testing
import Markbridge

/// HOSTILE-INPUTS.md, section B (Markdown input): one test a row, named by it, where no test
/// elsewhere already carries the row's id (SECURITY.md maps every row to its tests).
@Suite("Hostile input, section B: Markdown")
struct HostileMarkdownTests {
    @Test("B4: script and data URLs in links, images and autolinks, however spelt, lose the URL, keep the text, warn unsafe-url", arguments: [
        "[a](javascript:alert(1))", "[a](JAVASCRIPT:alert(1))", "[a](javascript&#58;alert(1))", "[a](<java\tscript:alert(1)>)",
        "[a](\njavascript:alert(1))", "![a](javascript:alert(1))", "[a](data:text/html;base64,PHNjcmlwdD4=)",
    ])
    func unsafeLinks(markdown: String) throws {
        let result = try HostileRow.convert(markdown, from: .markdown)
        #expect(result.output == HostileRow.json("a"))
        #expect(result.codes == ["unsafe-url"])
        for target in [Format.html, .markdown, .markupJSON] {
            let output = try HostileRow.convert(markdown, from: .markdown, to: target).output.lowercased()
            #expect(!output.contains("javascript") && !output.contains("data:"), "\(target.name)")
        }
    }

    @Test("B4: an autolink to javascript: stays its text, unlinked, warned")
    func unsafeAutolink() throws {
        let result = try HostileRow.convert("<javascript:alert(1)>", from: .markdown)
        #expect(result.output == HostileRow.json("javascript:alert(1)"))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("B5: a reference definition split over lines, or a destination after a line break, meets the same policy", arguments: [
        ("[x][a]\n\n[a\n]: javascript:alert(1)", "x"), ("[X](\njavascript:alert(1))", "X"),
    ])
    func referenceBypasses(markdown: String, text: String) throws {
        let result = try HostileRow.convert(markdown, from: .markdown)
        #expect(result.output == HostileRow.json(text))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("B6: raw HTML is never passed through: it is read by the HTML reader's allowlist (handlers and script URLs gone), or dropped with a warning")
    func rawHTML() throws {
        let markdown = "<img src=x onerror=alert(1)>\n\n<script>\nalert(1)\n</script>\n\na <a href=\"javascript:x\">l</a> <!-- c --> <?php echo 1; ?> z\n"
        let html = try Converter().convert(markdown, from: .markdown, to: .html)
        #expect(html.value == "<p><img src=\"x\"></p>\n<p style=\"white-space:pre-wrap\">a l   z</p>\n")
        #expect(html.diagnostics.map(\.description) == [
            "3:1: warning: <script> dropped with its content (1×) [dropped-element]",
            "7:3: warning: link dropped, its text kept: scheme 'javascript:' is not allowed [inline-html]",
            "7:32: note: an HTML comment dropped [dropped-comment]",
            "7:43: warning: inline HTML <<?php echo 1; ?>> not supported; the tag dropped, the text around it kept [inline-html]",
        ])
    }

    @Test("B7: titles and destinations cannot break out of their attribute: always double-quoted, & < > \" ' escaped")
    func attributeInjection() throws {
        let markdown = #"[x](http://a "t\" onmouseover=alert(1)") [y](http://a'onmouseover='alert(1)) <http://a'b>"#
        #expect(try HostileRow.convert(markdown, from: .markdown, to: .html).output
            == #"<p><a href="http://a" title="t&quot; onmouseover=alert(1)">x</a> <a href="http://a&#39;onmouseover=&#39;alert(1)">y</a> <a href="http://a&#39;b">http://a'b</a></p>"# + "\n")
    }

    @Test("B8: link text that looks like a tag is escaped in HTML output")
    func linkTextEscaped() throws {
        #expect(try HostileRow.convert("[<svg/onload=alert(1)//]()", from: .markdown, to: .html).output == "<p><a href=\"\">&lt;svg/onload=alert(1)//</a></p>\n")
    }

    @Test("B9: NUL in Markdown becomes U+FFFD")
    func nul() throws {
        #expect(try HostileRow.convert("abc\u{0}de\u{0}", from: .markdown).output == HostileRow.json("abc\u{FFFD}de\u{FFFD}"))
    }

    @Test("B10: destinations as the spec reads them; 33 nested parentheses are text, not a crash")
    func destinations() throws {
        #expect(try HostileRow.convert("[link](</my uri>) [a](te\\ st) [a](<b)c>)", from: .markdown).output
            == HostileRow.json("link [a](te\\\\ st) a", #"{"type":"LINK","start":0,"end":4,"href":"/my uri"},{"type":"LINK","start":17,"end":18,"href":"b)c"}"#))
        // The IR keeps the destination as written; cmark's HTML would percent-encode the space,
        // a quoted attribute holds it as it is.
        #expect(try HostileRow.convert("[link](</my uri>)", from: .markdown, to: .html).output == "<p><a href=\"/my uri\">link</a></p>\n")
        let parens = "[a](" + String(repeating: "(", count: 33) + "b" + String(repeating: ")", count: 33) + ")"
        #expect(try HostileRow.convert(parens, from: .markdown).output == HostileRow.json("[a](" + String(repeating: "(", count: 33) + "b" + String(repeating: ")", count: 33) + ")"))
    }

    @Test("B11: numeric references past 7 decimal or 6 hex digits stay text; invalid code points are U+FFFD; unknown names stay text")
    func references() throws {
        #expect(try HostileRow.convert("&#0; &#X110000; &#12345678; &ThisIsNotDefined;", from: .markdown).output
            == HostileRow.json("\u{FFFD} \u{FFFD} &#12345678; &ThisIsNotDefined;"))
    }

    @Test("B12: what HTML -> Markdown writes for every section A input reads back to the same document")
    func ownMarkdownReadsBack() throws {
        let inputs = [
            #"<a href="javascript:alert(1)">x</a>"#, "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", "<p>&amp;lt;b&amp;gt;</p>",
            "<p>*a* _b_ # c</p><p>1. d</p><p>- e</p><p>[f](g) ` h `</p>", "<p><a href=\"https://e.x/a b(c)<d>&quot;e'f\nG\">t</a></p>",
            "<p>A\u{0}B</p>", "<ul><li>a</li><ul><li>b</li><li>c</li></ul><li>d</li></ul>", "<p><x-widget>t</x-widget> <u>u</u> <mark>m</mark> <sub>s</sub></p>",
            "<p>Foo\n<br>bar</p>", "<pre>\n  x  \n</pre>", "<p>a&nbsp;b foo <b>bar</b></p>", "<p><b>foo </b>bar</p><p>foo<b> bar</b></p>",
            "<p>&#0;|&#xD800;|&#x110000;|&#99999999999999;|&amp|&notin|&notit;</p>",
            #"<p><a href="https://ok/" onclick="alert(1)" style="color:red">t</a></p>"#, "<p>a<script>alert(1)</script>b</p>",
        ]
        for input in inputs {
            let json = try HostileRow.convert(input).output
            let markdown = try HostileRow.convert(input, to: .markdown).output
            #expect(try HostileRow.convert(markdown, from: .markdown).output == json, "\(input)")
        }
    }
}
