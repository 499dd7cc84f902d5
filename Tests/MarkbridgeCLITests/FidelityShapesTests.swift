import Testing
import Markbridge

/// Issue 22, "no silent loss anywhere": shapes of realistic pages that once changed on their way
/// through a format with nothing said. Each now reads back as the page showed it, or the reader
/// or writer says exactly what changed: the exact output in every format, and the read-back
/// check (`markbridge check`) through each, which finds the document equal and reports only the
/// codes given.
@Suite("Issue 22 shapes: equal after reading back, or reported")
struct FidelityShapesTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let json: String
        let markdown: String
        let written: String
        /// What reading the HTML says (each code once), and so what every check reports.
        let readCodes: [String]
        /// Markdown without HTML (`--markdown-html drop`), and what writing it says.
        let pureMarkdown: String
        let pureMarkdownCodes: [String]

        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "1. bold over a code block: kept where a format holds it, an HTML block in Markdown",
              html: "<b><pre>code here</pre></b>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"PRE","text":"code here","markups":[{"type":"STRONG","start":0,"end":9}]}]}"#,
              markdown: "<pre><code><strong>code here</strong></code></pre>\n",
              written: "<pre><code><strong>code here</strong></code></pre>\n",
              readCodes: [],
              pureMarkdown: "```\ncode here\n```\n", pureMarkdownCodes: ["markup-dropped"]),
        Shape(name: "2. a list inside a heading: the heading's text a heading, the list a list, reported",
              html: "<h1>Before<ul><li>Item<ul><li>Sub</li></ul></li></ul></h1>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"H1","text":"Before"},{"type":"ULI","text":"Item"},{"type":"ULI","text":"Sub","depth":1}]}"#,
              markdown: "# Before\n\n- Item\n  - Sub\n",
              written: "<h1>Before</h1>\n<ul>\n<li>Item<ul>\n<li>Sub</li>\n</ul>\n</li>\n</ul>\n",
              readCodes: ["heading-split"],
              pureMarkdown: "# Before\n\n- Item\n  - Sub\n", pureMarkdownCodes: []),
        Shape(name: "2. text after a quote inside a heading is a heading again; paragraphs in a heading are its lines",
              html: "<h2>Title<blockquote>q</blockquote>after</h2><h1><p>A</p><div>B</div></h1>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"H2","text":"Title"},{"type":"BQ","text":"q"},{"type":"H2","text":"after"},{"type":"H1","text":"A\nB"}]}"#,
              markdown: "## Title\n\n> q\n\n## after\n\n<h1>A<br>B</h1>\n",
              written: "<h2>Title</h2>\n<blockquote>\n<p>q</p>\n</blockquote>\n<h2>after</h2>\n<h1>A<br>B</h1>\n",
              readCodes: ["heading-split"],
              pureMarkdown: "## Title\n\n> q\n\n## after\n\n# A B\n", pureMarkdownCodes: ["line-break-dropped"]),
        Shape(name: "4. a link around nothing is dropped and said; one around a zero-width space is kept",
              html: #"<p>a <a href="https://x">&#8203;</a> b <a href="https://y"></a> c</p>"#,
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a \#u{200B} b c","markups":[{"type":"LINK","start":2,"end":3,"href":"https://x"}]}]}"#,
              markdown: "a [\u{200B}](https://x) b c\n",
              written: "<p>a <a href=\"https://x\">\u{200B}</a> b c</p>\n",
              readCodes: ["empty-link-dropped"],
              pureMarkdown: "a [\u{200B}](https://x) b c\n", pureMarkdownCodes: []),
        Shape(name: "5. an abbreviation's expansion follows it in parentheses, said",
              html: #"<p><abbr title="HyperText Markup Language">HTML</abbr> is fun, <abbr title="html">HTML</abbr> too</p>"#,
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"HTML (HyperText Markup Language) is fun, HTML too"}]}"#,
              markdown: "HTML (HyperText Markup Language) is fun, HTML too\n",
              written: "<p>HTML (HyperText Markup Language) is fun, HTML too</p>\n",
              readCodes: ["abbreviation-expanded"],
              pureMarkdown: "HTML (HyperText Markup Language) is fun, HTML too\n", pureMarkdownCodes: []),
        Shape(name: "6. a video with a poster and no source is its poster image, said; with a <source>, a video",
              html: #"<video poster="https://e.x/p.jpg"></video><video poster="https://e.x/q.jpg"><source src="https://e.x/v.mp4"></video>"#,
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"IMG","src":"https://e.x/p.jpg"},{"type":"EMBED","embed":"video","src":"https://e.x/v.mp4","poster":"https://e.x/q.jpg"}]}"#,
              markdown: "![](https://e.x/p.jpg)\n\n<figure><video src=\"https://e.x/v.mp4\" poster=\"https://e.x/q.jpg\" controls preload=\"metadata\"></video></figure>\n",
              written: "<p><img src=\"https://e.x/p.jpg\"></p>\n<figure><video src=\"https://e.x/v.mp4\" poster=\"https://e.x/q.jpg\" controls preload=\"metadata\"></video></figure>\n",
              readCodes: ["dropped-element"],
              pureMarkdown: "![](https://e.x/p.jpg)\n\n[https://e.x/v.mp4](https://e.x/v.mp4)\n", pureMarkdownCodes: ["embed-dropped"]),
        Shape(name: "7. a table's caption is the table's, in every format that has one",
              html: "<table><caption><b>Prices</b></caption><tr><th>A</th></tr><tr><td>1</td></tr></table>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"CAPTION","text":"Prices","markups":[{"type":"STRONG","start":0,"end":6}]},{"type":"TR","text":"A","startsTable":true,"cells":[{"start":0,"end":1,"header":true}]},{"type":"TR","text":"1","cells":[{"start":0,"end":1}]}]}"#,
              markdown: "<table>\n<caption><strong>Prices</strong></caption>\n<tr><th>A</th></tr>\n<tr><td>1</td></tr>\n</table>\n",
              written: "<table>\n<caption><strong>Prices</strong></caption>\n<tr><th>A</th></tr>\n<tr><td>1</td></tr>\n</table>\n",
              readCodes: [],
              pureMarkdown: "**Prices**\n\nA\n\n1\n", pureMarkdownCodes: ["table-caption-flattened", "table-flattened"]),
        Shape(name: "7. a caption after the rows, or of a table with no rows, is a paragraph, said",
              html: "<table><tr><td>x</td></tr><caption>late</caption></table><table><caption>none</caption></table>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"TR","text":"x","startsTable":true,"cells":[{"start":0,"end":1}]},{"type":"P","text":"late"},{"type":"P","text":"none"}]}"#,
              markdown: "<table>\n<tr><td>x</td></tr>\n</table>\n\nlate\n\nnone\n",
              written: "<table>\n<tr><td>x</td></tr>\n</table>\n<p>late</p>\n<p>none</p>\n",
              readCodes: ["table-caption-flattened"],
              pureMarkdown: "x\n\nlate\n\nnone\n", pureMarkdownCodes: ["table-flattened"]),
        Shape(name: "8. a definition of two paragraphs is one definition",
              html: "<dl><dt>T</dt><dd><p>one</p><p>two</p></dd><dd>other</dd></dl>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"DT","text":"T"},{"type":"DD","text":"one"},{"type":"DD","text":"two","continues":true},{"type":"DD","text":"other"}]}"#,
              markdown: "<dl>\n<dt>T</dt>\n<dd>\n<p>one</p>\n<p>two</p>\n</dd>\n<dd>other</dd>\n</dl>\n",
              written: "<dl>\n<dt>T</dt>\n<dd>\n<p>one</p>\n<p>two</p>\n</dd>\n<dd>other</dd>\n</dl>\n",
              readCodes: [],
              pureMarkdown: "T\n\none\n\ntwo\n\nother\n", pureMarkdownCodes: ["flattened-definition-list"]),
        Shape(name: "8. a list inside a definition is a list of its own, which ends the definition list, said",
              html: "<dl><dt>T</dt><dd>one<ul><li>x</li></ul></dd></dl>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"DT","text":"T"},{"type":"DD","text":"one"},{"type":"ULI","text":"x"}]}"#,
              markdown: "<dl>\n<dt>T</dt>\n<dd>one</dd>\n</dl>\n\n- x\n",
              written: "<dl>\n<dt>T</dt>\n<dd>one</dd>\n</dl>\n<ul>\n<li>x</li>\n</ul>\n",
              readCodes: ["definition-list-split"],
              pureMarkdown: "T\n\none\n\n- x\n", pureMarkdownCodes: ["flattened-definition-list"]),
    ]

    static func codes(_ diagnostics: [Diagnostic]) -> [String] {
        Array(Set(diagnostics.map(\.code))).sorted()
    }

    @Test("HTML reads as the JSON given, saying exactly the codes given; HTML, Markdown and JSON are written exactly", arguments: shapes)
    func written(_ shape: Shape) throws {
        let input = Array(shape.html.utf8)
        let read = try Converter().read(input, from: .html)
        #expect(read.value.invariantViolations().isEmpty)
        #expect(Self.codes(read.diagnostics) == shape.readCodes)
        for (format, expected) in [(Format.markupJSON, shape.json + "\n"), (.markdown, shape.markdown), (.html, shape.written)] {
            let written = try Converter().write(read.value, to: format)
            #expect(String(decoding: written.value, as: UTF8.self) == expected, "\(format.name)")
            #expect(written.diagnostics.isEmpty, "\(format.name): \(written.diagnostics)")
        }
        let pure = try Converter(options: .init(markdownHTML: .drop)).write(read.value, to: .markdown)
        #expect(String(decoding: pure.value, as: UTF8.self) == shape.pureMarkdown)
        #expect(Self.codes(pure.diagnostics) == shape.pureMarkdownCodes)
    }

    @Test("Through JSON, Markdown and HTML the document reads back equal, and the check reports only what reading said", arguments: shapes)
    func readBack(_ shape: Shape) throws {
        let input = Array(shape.html.utf8)
        for format in [Format.markupJSON, .markdown, .html] {
            let check = try Converter().check(input, from: .html, via: format)
            #expect(check.diff.isEmpty, "\(format.name): \(check.diff.changes)")
            #expect(check.lossClasses.map(\.name).sorted() == shape.readCodes.map { "diagnostic \($0)" }.sorted(), "\(format.name)")
            #expect(check.after.invariantViolations().isEmpty)
        }
        // Without HTML, Markdown either reads back equal or its writer said what it changed.
        let check = try Converter(options: .init(markdownHTML: .drop)).check(input, from: .html, via: .markdown)
        #expect(check.diff.isEmpty || !check.writeDiagnostics.isEmpty, "\(check.diff.changes)")
    }

    @Test("3. Markdown's loose list is written as CommonMark renders it: each item's text a paragraph; a tight list has none")
    func looseListToHTML() throws {
        let loose = try Converter().convert("- one\n\n  two\n- three\n", from: .markdown, to: .html)
        #expect(loose.value == "<ul>\n<li>\n<p>one</p>\n<p>two</p>\n</li>\n<li>\n<p>three</p>\n</li>\n</ul>\n")
        #expect(loose.diagnostics.isEmpty)
        let tight = try Converter().convert("- one\n- three\n", from: .markdown, to: .html)
        #expect(tight.value == "<ul>\n<li>one</li>\n<li>three</li>\n</ul>\n")
        // Read back, the HTML is the document the Markdown was.
        let check = try Converter().check(Array("- one\n\n  two\n- three\n".utf8), from: .markdown, via: .html)
        #expect(check.diff.isEmpty && check.diagnostics.isEmpty)
    }

    @Test("5. Markdown's inline <abbr title> is read as HTML's is: the expansion after the text, said")
    func markdownAbbreviation() throws {
        let read = try Converter().read(Array("<abbr title=\"HyperText\">HTML</abbr> x, <abbr title=\"html\">HTML</abbr>, <abbr title=\"open\">B\n".utf8), from: .markdown)
        #expect(read.value.blocks.map(\.text) == ["HTML (HyperText) x, HTML, B (open)"])
        #expect(read.diagnostics.map(\.code) == ["abbreviation-expanded", "abbreviation-expanded"])
    }

    @Test("4. Markdown's link with no text is dropped and said, with where it pointed")
    func emptyMarkdownLink() throws {
        let read = try Converter().read(Array("a [](https://y) b <a href=\"https://q\"></a> c\n".utf8), from: .markdown)
        #expect(read.value.blocks.map(\.markups) == [[]])
        #expect(read.diagnostics.map(\.code) == ["empty-link-dropped", "empty-link-dropped"])
        #expect(read.diagnostics.first?.message.contains("https://y") == true)
        #expect(read.diagnostics.last?.message.contains("https://q") == true)
    }

    @Test("2. Markup JSON's heading deeper than the items before it is kept in the deepest, said; Markdown then reads it back, not as code")
    func headingWithNoItem() throws {
        let json = Array(#"{"version":1,"paragraphs":[{"type":"ULI","text":"x"},{"type":"H2","text":"deep","depth":3}]}"#.utf8)
        let read = try Converter().read(json, from: .markupJSON)
        #expect(read.value.blocks.map(\.depth) == [0, 1])
        #expect(read.diagnostics.map(\.code) == ["depth-lowered"])
        let markdown = try Converter().write(read.value, to: .markdown)
        #expect(String(decoding: markdown.value, as: UTF8.self) == "- x\n  ## deep\n")
        for format in [Format.markdown, .html] {
            let check = try Converter().check(json, from: .markupJSON, via: format)
            #expect(check.diff.isEmpty, "\(format.name): \(check.diff.changes)")
            #expect(check.lossClasses == [.diagnostic(code: "depth-lowered")])
        }
    }

    @Test("Markup JSON: continues on no definition to continue, and a caption with no table, are read as their own and said")
    func jsonRepairs() throws {
        let read = try Converter().read(Array(#"{"version":1,"paragraphs":[{"type":"DD","text":"a","continues":true},{"type":"CAPTION","text":"c"},{"type":"P","text":"p"}]}"#.utf8), from: .markupJSON)
        #expect(read.value.blocks.map(\.kind) == [.definitionDescription(continues: false), .paragraph, .paragraph])
        #expect(read.diagnostics.map(\.code) == ["ignored-field", "table-caption-flattened"])
        #expect(read.value.invariantViolations().isEmpty)
    }

    @Test("A list nested directly in a list after an empty item has an item to be in, or is lowered, reported")
    func nestedListAfterEmptyItem() throws {
        let read = try Converter().read(Array("<ol><li></li>b<ol><li>c</li></ol></ol>".utf8), from: .html)
        #expect(read.value.invariantViolations().isEmpty)
        #expect(try MarkupJSONWriter().write(read.value).value == Array(#"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","number":1},{"type":"P","text":"b"},{"type":"OLI","text":"c","number":1}]}"#.utf8) + [0x0A])
        #expect(read.diagnostics.map(\.code) == ["depth-lowered"])
    }

    @Test("Markup JSON's quote at depth 1 after an item outside it has no item open inside the quote: lowered and said; Markdown and HTML then read it back")
    func quoteDeeperThanItsItems() throws {
        // Counted across the quote, the item before allowed depth 1, and Markdown wrote
        // `>    quoted`, read back at depth 0 with nothing said.
        let json = Array(#"{"paragraphs":[{"type":"OLI","text":"three","number":3},{"type":"BQ","text":"quoted","depth":1}]}"#.utf8)
        let read = try Converter().read(json, from: .markupJSON)
        #expect(try MarkupJSONWriter().write(read.value).value == Array(#"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","text":"three","number":3},{"type":"BQ","text":"quoted"}]}"#.utf8) + [0x0A])
        #expect(read.diagnostics.map(\.message) == ["depth 1 follows no list item at depth 0 to be in: kept at depth 0, outside any list"])
        #expect(String(decoding: try Converter().write(read.value, to: .markdown).value, as: UTF8.self) == "3. three\n\n> quoted\n")
        for format in [Format.markdown, .html] {
            let check = try Converter().check(json, from: .markupJSON, via: format)
            #expect(check.diff.isEmpty, "\(format.name): \(check.diff.changes)")
            #expect(check.lossClasses == [.diagnostic(code: "depth-lowered")])
        }
    }
}
