import Testing
import Markbridge

/// HOSTILE-INPUTS.md, section A (HTML input): one test a row, named by it, where no test
/// elsewhere already carries the row's id (SECURITY.md maps every row to its tests).
@Suite("Hostile input, section A: HTML")
struct HostileHTMLTests {
    @Test("A1: 100,000 nested <blockquote>, read on a task's small stack: the text kept, flattened past the cap, depth-limit with the offset")
    func nestedBlockquotes() async throws {
        let input = String(repeating: "<blockquote>", count: 100_000) + "x"
        let result = try await Task.detached { try Converter().convert(input, from: .html, to: .plainText) }.value
        #expect(result.value == "x\n")
        #expect(result.diagnostics.map(\.description) == [
            "1:6133: warning: nesting deeper than 512 elements: 99489 elements flattened into their parent, text kept [depth-limit]",
            "1:1201: warning: lists and quotes nested deeper than 100: what is inside is kept at depth 100 (411 containers) [depth-clamped]",
        ])
    }

    @Test("A2: 100,000 <b><i> pairs around one word, then 100,000 <div>: one STRONG and one EM over the word, flattened past the cap")
    func outlookNesting() async throws {
        let input = String(repeating: "<b><i>", count: 100_000) + "word" + String(repeating: "<div>", count: 100_000)
        let result = try await Task.detached { try HostileRow.convert(input) }.value
        #expect(result.output == HostileRow.json("word", #"{"type":"STRONG","start":0,"end":4},{"type":"EM","start":0,"end":4}"#))
        #expect(result.codes == ["depth-limit"])
    }

    @Test("A3: a javascript: link keeps its text, loses the link, and is reported as unsafe-url with its place")
    func javascriptLink() throws {
        let result = try Converter().convert(#"<p><a href="javascript:alert(1)">x</a></p>"#, from: .html, to: .markupJSON)
        #expect(result.value == HostileRow.json("x"))
        #expect(result.diagnostics.map(\.description) == ["1:4: warning: link on <a> dropped, its text kept: scheme 'javascript:' is not allowed [unsafe-url]"])
    }

    @Test("A4: javascript: in any case, after spaces, C0 controls, tabs and line breaks is refused as A3", arguments: [
        "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\u{1}javascript:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)",
    ])
    func javascriptVariants(href: String) throws {
        let result = try HostileRow.convert("<p><a href=\"\(href)\">x</a></p>")
        #expect(result.output == HostileRow.json("x"))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("A5: character references are decoded before the scheme check", arguments: [
        "jav&#x09;ascript:alert(1)", "jav&#9;ascript:alert(1)", "javascript&colon;alert(1)", "javascript&#58;alert(1)",
        "javascript&#x3A;alert(1)", "&#106;avascript:alert(1)",
    ])
    func entityObfuscated(href: String) throws {
        let result = try HostileRow.convert("<p><a href=\"\(href)\">x</a></p>")
        #expect(result.output == HostileRow.json("x"))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("A6: data: HTML in a link and SVG in an image are refused; a PNG only under allowsDataImages")
    func dataURLs() throws {
        let input = #"<p><a href="data:text/html;base64,PHNjcmlwdD4=">x</a></p><img src="data:image/svg+xml,<svg/onload=alert(1)>" alt="s"><img src="data:image/png;base64,iVBORw0KGgo=" alt="p">"#
        let refused = try HostileRow.convert(input)
        #expect(refused.output == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"},{"type":"P","text":"s p"}]}"# + "\n")
        #expect(refused.codes == ["unsafe-url", "unsafe-url", "unsafe-url"])
        var options = ConversionOptions()
        options.urlPolicy.allowsDataImages = true
        let allowed = try HostileRow.convert(input, options: options)
        #expect(allowed.output == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"},{"type":"P","text":"s \#u{FFFC}","markups":[{"type":"IMAGE","start":2,"end":3,"src":"data:image/png;base64,iVBORw0KGgo=","alt":"p"}]}]}"# + "\n")
        #expect(allowed.codes == ["unsafe-url", "unsafe-url"])
    }

    @Test("A7: the policy is an allowlist: vbscript:, file:, livescript: and x-custom: are refused", arguments: [
        "vbscript:msgbox(1)", "file:///etc/passwd", "livescript:alert(1)", "x-custom:payload",
    ])
    func allowlist(href: String) throws {
        let result = try HostileRow.convert("<p><a href=\"\(href)\">x</a></p>")
        #expect(result.output == HostileRow.json("x"))
        #expect(result.codes == ["unsafe-url"])
    }

    @Test("A8: event handlers, style and unknown attributes never reach JSON or Markdown; xlink:href meets the same policy")
    func attributes() throws {
        let input = #"<p><a href="https://ok/" onclick="alert(1)" style="color:red" xlink:href="javascript:alert(2)">t</a> <svg><a xlink:href="javascript:alert(3)">s</a></svg></p>"#
        let json = try HostileRow.convert(input)
        // style's colour is modelled (COLOR); the handler, the unknown attribute and the SVG
        // link's script URL are not carried anywhere.
        #expect(json.output == HostileRow.json("t s", ##"{"type":"LINK","start":0,"end":1,"href":"https://ok/"},{"type":"COLOR","start":0,"end":1,"color":"#FF0000"}"##))
        #expect(json.codes == ["unknown-element"])
        let markdown = try HostileRow.convert(input, to: .markdown)
        #expect(markdown.output == #"[<span style="color:#FF0000">t</span>](https://ok/) s"# + "\n")
    }

    @Test("A9: script, style, template, noscript and object are never emitted, their content never text; an iframe is only ever a sandboxed embed or a link")
    func droppedElements() throws {
        let input = #"<p>a<script>alert(1)</script>b<style>p{}</style>c<template>t</template>d<noscript>n</noscript>e</p><object data="https://x.example/o.swf">o</object><embed src="/up/evil.svg"><iframe src="https://player.example/v"></iframe><iframe src="/u/x.html"></iframe>"#
        for target in [Format.markupJSON, .html, .markdown, .gfm, .plainText] {
            let result = try HostileRow.convert(input, to: target)
            for payload in ["alert", "<script", "<style", "p{}", "<template", "<noscript", "<object", "<embed", "allow-same-origin"] {
                #expect(!result.output.contains(payload), "\(target.name): \(payload)")
            }
        }
        let html = try HostileRow.convert(input, to: .html)
        #expect(html.output == """
            <p>abcde</p>
            <figure><iframe src="https://x.example/o.swf" sandbox="" loading="lazy" referrerpolicy="no-referrer"></iframe><figcaption>o</figcaption></figure>
            <p><a href="/up/evil.svg">/up/evil.svg</a></p>
            <figure><iframe src="https://player.example/v" sandbox="allow-scripts allow-popups allow-presentation" allowfullscreen loading="lazy" referrerpolicy="no-referrer"></iframe></figure>
            <p><a href="/u/x.html">/u/x.html</a></p>

            """)
        #expect(html.codes == ["dropped-element", "dropped-element", "dropped-element", "dropped-element", "embed-host-refused", "embed-host-refused"])
    }

    @Test("A10: an escaped <script> is literal text in JSON, escaped in Markdown, &lt; in HTML")
    func escapedScript() throws {
        let input = "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
        #expect(try HostileRow.convert(input).output == HostileRow.json("<script>alert(1)</script>"))
        #expect(try HostileRow.convert(input, to: .markdown).output == "\\<script\\>alert(1)\\</script\\>\n")
        #expect(try HostileRow.convert(input, to: .html).output == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n")
    }

    @Test("A11: &amp;lt;b&amp;gt; is decoded exactly once")
    func decodedOnce() throws {
        #expect(try HostileRow.convert("<p>&amp;lt;b&amp;gt;</p>").output == HostileRow.json("&lt;b&gt;"))
    }

    @Test("A12: Markdown escapes every construct, so Markdown read back gives the identical text")
    func markdownConstructsStayText() throws {
        let input = "<p>*a* _b_ # c</p><p>1. d</p><p>- e</p><p>[f](g) ` h `</p>"
        let json = try HostileRow.convert(input).output
        let markdown = try HostileRow.convert(input, to: .markdown).output
        #expect(markdown == "\\*a\\* \\_b\\_ \\# c\n\n1\\. d\n\n\\- e\n\n\\[f\\](g) \\` h \\`\n")
        #expect(try HostileRow.convert(markdown, from: .markdown).output == json)
    }

    @Test("A13: an href with spaces, parentheses, angle brackets, quotes and a line break stays one destination and reads back")
    func hrefSpecials() throws {
        let input = "<p><a href=\"https://e.x/a b(c)<d>&quot;e'f\nG\">t</a></p>"
        let json = try HostileRow.convert(input)
        // The line break goes as the WHATWG URL parser drops it; the rest is the href.
        #expect(json.output == HostileRow.json("t", #"{"type":"LINK","start":0,"end":1,"href":"https://e.x/a b(c)<d>\"e'fG"}"#))
        let markdown = try HostileRow.convert(input, to: .markdown)
        #expect(markdown.output == "[t](<https://e.x/a b(c)&lt;d&gt;\"e'fG>)\n")
        #expect(try HostileRow.convert(markdown.output, from: .markdown).output == json.output)
    }

    @Test("A16: a table with spans, a nested table, and <h3>, <pre> and <ul> in cells loses no text")
    func tables() throws {
        let input = "<table><tr><td colspan=2>span</td><td rowspan=2>rows</td></tr><tr><td><table><tr><td>inner</td></tr></table></td><td><h3>head</h3><pre>pre\n  x</pre><ul><li>item</li></ul></td></tr></table>"
        let result = try HostileRow.convert(input, to: .plainText)
        #expect(result.output == "span | rows\ninner | head\npre\n  x\nitem\n")
        #expect(result.codes == ["table-cell-flattened", "table-cell-flattened", "table-cell-flattened", "table-cell-flattened"])
        #expect(!(try HostileRow.convert(input, to: .markdown).output.contains("[TABLE]")))
    }

    @Test("A17: a list directly inside a list is a sub-list of the item before it")
    func listInList() throws {
        let result = try HostileRow.convert("<ul><li>a</li><ul><li>b</li><li>c</li></ul><li>d</li></ul>", to: .markdown)
        #expect(result.output == "- a\n  - b\n  - c\n- d\n")
    }

    @Test("A18: unknown and unmodelled elements keep their text; formatting the IR cannot hold is reported")
    func unknownElements() throws {
        let result = try HostileRow.convert("<p><x-widget>t</x-widget> <u>u</u> <mark>m</mark> <sub>s</sub> <font color=red>f</font></p><center>c</center>")
        #expect(result.output == ##"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"t u m s f","markups":[{"type":"UNDERLINE","start":2,"end":3},{"type":"HIGHLIGHT","start":4,"end":5},{"type":"SUB","start":6,"end":7},{"type":"COLOR","start":8,"end":9,"color":"#FF0000"}]},{"type":"P","text":"c","align":"center"}]}"## + "\n")
        #expect(result.codes == ["unknown-element"])
    }

    @Test("A19: whitespace collapsed outside <pre>, <pre> kept exactly, U+00A0 kept, the space between words kept, empty paragraphs by rule")
    func whitespace() throws {
        #expect(try HostileRow.convert("<p>Foo\n<br>bar</p>").output == HostileRow.json("Foo\\nbar"))
        // Each empty paragraph is kept, empty: the rule is that a paragraph is a block whatever it holds.
        #expect(try HostileRow.convert(String(repeating: "<p><br></p>", count: 5)).output
            == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P"},{"type":"P"},{"type":"P"},{"type":"P"},{"type":"P"}]}"# + "\n")
        // HTML drops the line break right after <pre>; the last line's break ends the block.
        #expect(try HostileRow.convert("<pre>\n  x  \n</pre>").output == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"PRE","text":"  x  "}]}"# + "\n")
        #expect(try HostileRow.convert("<p>a&nbsp;b</p>").output == HostileRow.json("a\u{A0}b"))
        #expect(try HostileRow.convert("<p>foo <b>bar</b></p>").output == HostileRow.json("foo bar", #"{"type":"STRONG","start":4,"end":7}"#))
    }

    @Test("A20: a space at a bold edge moves outside the delimiters in Markdown; the range covers the word")
    func flankingSpaces() throws {
        #expect(try HostileRow.convert("<p><b>foo </b>bar</p>", to: .markdown).output == "**foo** bar\n")
        #expect(try HostileRow.convert("<p>foo<b> bar</b></p>", to: .markdown).output == "foo **bar**\n")
        #expect(try HostileRow.convert("<p><b>foo </b>bar</p>").output == HostileRow.json("foo bar", #"{"type":"STRONG","start":0,"end":3}"#))
    }

    @Test("A23: numeric and named references by HTML5's rules: U+FFFD for invalid code points, no trap on huge numbers, legacy names without ';'")
    func references() throws {
        #expect(try HostileRow.convert("<p>&#0;|&#xD800;|&#x110000;|&#99999999999999;|&amp|&notin|&notit;</p>").output == HostileRow.json("\u{FFFD}|\u{FFFD}|\u{FFFD}|\u{FFFD}|&|\u{AC}in|\u{AC}it;"))
    }

    @Test("A24: maxInputBytes refuses larger input with input-too-large; a 10 MB text node, 100,000 siblings and 100,000 attributes are read")
    func largeInputs() async throws {
        let limited = Converter(options: ConversionOptions(limits: ConversionLimits(maxInputBytes: 1_000)))
        #expect(throws: ConversionError(code: "input-too-large", message: "input is 1001 bytes, over the limit of 1000")) {
            try limited.convert(String(repeating: "a", count: 1_001), from: .html, to: .markupJSON)
        }
        let text = try Converter().convert("<p>" + String(repeating: "a", count: 10_000_000) + "</p>", from: .html, to: .plainText)
        #expect(text.value.utf8.count == 10_000_001)
        let siblings = try Converter().convert(String(repeating: "<p>a</p>", count: 100_000), from: .html, to: .plainText)
        #expect(siblings.value.utf8.count == 100_000 * 3 - 1)
        let attributes = try HostileRow.convert("<p " + (0..<100_000).map { "a\($0)=1" }.joined(separator: " ") + ">x</p>")
        #expect(attributes.output == HostileRow.json("x"))
    }

    @Test("A25: a UTF-8 BOM is stripped; UTF-16LE without a BOM and windows-1252 bytes under <meta charset> are refused")
    func encodings() throws {
        #expect(try HostileRow.convert(bytes: [0xEF, 0xBB, 0xBF] + Array("<p>x</p>".utf8)).output == HostileRow.json("x"))
        let utf16 = Array("<p>Hello, world</p>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(throws: ConversionError.self) { try HostileRow.convert(bytes: utf16) }
        do {
            _ = try HostileRow.convert(bytes: Array(#"<meta charset="windows-1252"><p>caf"#.utf8) + [0xE9] + Array("</p>".utf8))
            Issue.record("windows-1252 bytes were read")
        } catch {
            #expect(error.description == "1:36: invalid UTF-8 at byte 35")
        }
    }
}
