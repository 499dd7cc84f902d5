import Foundation
import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeJSON
import MarkbridgeMarkdown

/// Issue 22, items 2 and 3: containers side by side stay apart, an empty quote stays, a tight
/// list stays tight whatever its items hold, and anchors survive, through every path.
@Suite("Containers kept apart and anchors, through every format")
struct ContainersApartTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        var name: String
        var html: String
        /// What the HTML reads as, in markup JSON (which the writer ends with a line feed).
        var json: String
        /// The HTML writer's output for it (HTML -> JSON -> HTML, and Markdown -> HTML).
        var written: String
        /// The Markdown writer's output for it.
        var markdown: String
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "two lists side by side",
              html: "<ul><li>a</li></ul><ul><li>b</li></ul>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"ULI","text":"b","containerStart":0}]}"#,
              written: "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n",
              markdown: "- a\n\n* b\n"),
        Shape(name: "two ordered lists side by side, numbered alike",
              html: "<ol><li>a</li></ol><ol><li>b</li></ol>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","text":"a","number":1},{"type":"OLI","text":"b","containerStart":0,"number":1}]}"#,
              written: "<ol>\n<li>a</li>\n</ol>\n<ol>\n<li>b</li>\n</ol>\n",
              markdown: "1. a\n\n1) b\n"),
        Shape(name: "an ordered list beside one whose numbers it would continue",
              html: "<ol><li>a</li></ol><ol start=\"2\"><li>b</li></ol>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","text":"a","number":1},{"type":"OLI","text":"b","containerStart":0,"number":2}]}"#,
              written: "<ol>\n<li>a</li>\n</ol>\n<ol start=\"2\">\n<li>b</li>\n</ol>\n",
              markdown: "1. a\n\n2) b\n"),
        Shape(name: "two quotes side by side",
              html: "<blockquote><p>a</p></blockquote><blockquote><p>b</p></blockquote>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a"},{"type":"BQ","text":"b","containerStart":0}]}"#,
              written: "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n",
              markdown: "> a\n\n> b\n"),
        Shape(name: "two inner quotes side by side in one outer quote",
              html: "<blockquote><blockquote><p>a</p></blockquote><blockquote><p>b</p></blockquote></blockquote>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a","quoteDepth":2},{"type":"BQ","text":"b","quoteDepth":2,"containerStart":1}]}"#,
              written: "<blockquote>\n<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>\n",
              markdown: "> > a\n>\n> > b\n"),
        Shape(name: "an empty quote",
              html: "<blockquote></blockquote>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ"}]}"#,
              written: "<blockquote>\n</blockquote>\n",
              markdown: ">\n"),
        Shape(name: "an empty quote beside a quote, and one inside a list item",
              html: "<blockquote><p>a</p></blockquote><blockquote></blockquote><ul><li>i<blockquote></blockquote></li></ul>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a"},{"type":"BQ","containerStart":0},{"type":"ULI","text":"i"},{"type":"BQ","depth":1,"quoteListDepths":[1]}]}"#,
              written: "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n</blockquote>\n<ul>\n<li>i<blockquote>\n</blockquote>\n</li>\n</ul>\n",
              markdown: "> a\n\n>\n\n- i\n  >\n"),
        Shape(name: "two quotes side by side in a list item",
              html: "<ul><li>a<blockquote><p>x</p></blockquote><blockquote><p>y</p></blockquote></li></ul>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"BQ","text":"x","depth":1,"quoteListDepths":[1]},{"type":"BQ","text":"y","depth":1,"quoteListDepths":[1],"containerStart":1}]}"#,
              // A quote right after a quote makes the list loose: its item's text a paragraph.
              written: "<ul>\n<li>\n<p>a</p>\n<blockquote>\n<p>x</p>\n</blockquote>\n<blockquote>\n<p>y</p>\n</blockquote>\n</li>\n</ul>\n",
              markdown: "- a\n\n  > x\n\n  > y\n"),
        Shape(name: "two nested lists side by side in one item, the lists tight",
              html: "<ul><li>a<ul><li>b</li></ul><ul><li>c</li></ul></li><li>d</li></ul>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"ULI","text":"b","depth":1},{"type":"ULI","text":"c","depth":1,"containerStart":1},{"type":"ULI","text":"d"}]}"#,
              written: "<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n<ul>\n<li>c</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n",
              markdown: "- a\n  - b\n  * c\n- d\n"),
        Shape(name: "two definition lists side by side",
              html: "<dl><dt>a</dt><dd>b</dd></dl><dl><dt>c</dt><dd>d</dd></dl>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"DT","text":"a"},{"type":"DD","text":"b"},{"type":"DT","text":"c","containerStart":0},{"type":"DD","text":"d"}]}"#,
              written: "<dl>\n<dt>a</dt>\n<dd>b</dd>\n</dl>\n<dl>\n<dt>c</dt>\n<dd>d</dd>\n</dl>\n",
              markdown: "<dl>\n<dt>a</dt>\n<dd>b</dd>\n</dl>\n\n<dl>\n<dt>c</dt>\n<dd>d</dd>\n</dl>\n"),
        Shape(name: "a tight list whose item holds a quote",
              html: "<ul><li>a</li><li>c<blockquote>q</blockquote></li><li>d</li></ul>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"ULI","text":"c"},{"type":"BQ","text":"q","depth":1,"quoteListDepths":[1]},{"type":"ULI","text":"d"}]}"#,
              written: "<ul>\n<li>a</li>\n<li>c<blockquote>\n<p>q</p>\n</blockquote>\n</li>\n<li>d</li>\n</ul>\n",
              markdown: "- a\n- c\n  > q\n- d\n"),
        Shape(name: "a tight list whose items hold code, a heading and a rule",
              html: "<ol><li>a<pre><code>x</code></pre></li><li>b<h3>H</h3><hr></li><li>c</li></ol>",
              json: #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","text":"a","number":1},{"type":"PRE","text":"x","depth":1},{"type":"OLI","text":"b","number":2},{"type":"H3","text":"H","depth":1},{"type":"HR","depth":1},{"type":"OLI","text":"c","number":3}]}"#,
              written: "<ol>\n<li>a<pre><code>x</code></pre>\n</li>\n<li>b<h3>H</h3>\n<hr>\n</li>\n<li>c</li>\n</ol>\n",
              markdown: "1. a\n   ```\n   x\n   ```\n2. b\n   ### H\n   ***\n3. c\n"),
        Shape(name: "anchors: ids on blocks and target links at a block's start",
              html: "<h2 id=\"section\">Title</h2><p id=\"x\">p</p><p><a id=\"y\"></a>z</p><a name=\"w\"></a><p>v</p><ul><li id=\"i\">item</li></ul><pre id=\"c\"><code>code</code></pre><p><a href=\"#section\">back</a></p>",
              json: ##"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"H2","text":"Title","name":"section"},{"type":"P","text":"p","name":"x"},{"type":"P","text":"z","name":"y"},{"type":"P","text":"v","name":"w"},{"type":"ULI","text":"item","name":"i"},{"type":"PRE","text":"code","name":"c"},{"type":"P","text":"back","markups":[{"type":"LINK","start":0,"end":4,"href":"#section"}]}]}"##,
              written: "<h2 id=\"section\">Title</h2>\n<p id=\"x\">p</p>\n<p id=\"y\">z</p>\n<p id=\"w\">v</p>\n<ul>\n<li id=\"i\">item</li>\n</ul>\n<pre id=\"c\"><code>code</code></pre>\n<p><a href=\"#section\">back</a></p>\n",
              markdown: "## <a id=\"section\"></a>Title\n\n<a id=\"x\"></a>p\n\n<a id=\"y\"></a>z\n\n<a id=\"w\"></a>v\n\n- <a id=\"i\"></a>item\n\n<pre id=\"c\"><code>code</code></pre>\n\n[back](#section)\n"),
    ]

    @Test("HTML reads the shape; HTML -> JSON -> HTML, the JSON round trip, HTML -> Markdown -> IR and Markdown -> HTML keep it", arguments: shapes)
    func everyPath(_ shape: Shape) throws {
        let read = try HTMLReader().read(shape.html)
        #expect(read.value.invariantViolations().isEmpty)
        let json = try MarkupJSONWriter().write(read.value).value
        #expect(String(decoding: json, as: UTF8.self) == shape.json + "\n")

        let fromJSON = try MarkupJSONReader().read(shape.json)
        #expect(fromJSON.diagnostics.isEmpty)
        #expect(fromJSON.value == read.value)
        #expect(String(decoding: try MarkupJSONWriter().write(fromJSON.value).value, as: UTF8.self) == shape.json + "\n")
        #expect(String(decoding: try HTMLWriter().write(fromJSON.value).value, as: UTF8.self) == shape.written)
        #expect(try HTMLReader().read(shape.written).value == read.value)

        let markdown = try MarkdownWriter().write(read.value)
        #expect(markdown.diagnostics.isEmpty)
        #expect(String(decoding: markdown.value, as: UTF8.self) == shape.markdown)
        let fromMarkdown = try MarkdownReader().read(shape.markdown)
        #expect(fromMarkdown.value == read.value)
        #expect(fromMarkdown.value.invariantViolations().isEmpty)
        #expect(String(decoding: try HTMLWriter().write(fromMarkdown.value).value, as: UTF8.self) == shape.written)
    }

    @Test("cmark-gfm, the oracle, renders the tight lists tight: no item's text in a paragraph",
          .enabled(if: GFMWriterTests.cmarkGFM != nil, "cmark-gfm is not installed (apt-get install cmark-gfm)"),
          arguments: shapes.filter { $0.name.contains("tight") })
    func tightInCmark(_ shape: Shape) throws {
        let rendered = String(decoding: try GFMWriterTests.render(Array(shape.markdown.utf8), extensions: false), as: UTF8.self)
        #expect(rendered.contains("<li>"))
        #expect(!rendered.contains("<li>\n<p>"), "\(rendered)")
    }

    @Test("cmark renders our Markdown's lists loose exactly where the HTML writer writes them loose (one rule, FurtherBlock)",
          arguments: shapes.map(\.html) + [
              "<ul><li>one<p>two</p></li><li>three</li></ul>",
              "<ol><li>a<pre>c</pre></li><li>b<ul><li>n<p>p</p></li></ul></li></ol>",
              "<ul><li>a<h2>h</h2><hr></li><li>b</li></ul>",
              "<blockquote><ul><li>a<p>b</p></li></ul></blockquote><ul><li>c</li></ul>",
          ])
    func loosenessAgrees(_ html: String) throws {
        let document = try HTMLReader().read(html).value
        let markdown = try MarkdownWriter().write(document).value
        let cmark = CmarkRendering.html(markdown, unsafe: false)
        let ours = String(decoding: try HTMLWriter().write(document).value, as: UTF8.self)
        func looseItems(_ html: String) -> Int { html.components(separatedBy: "<li>\n<p>").count - 1 }
        func items(_ html: String) -> Int { html.components(separatedBy: "<li").count - 1 }
        #expect(looseItems(cmark) == looseItems(ours), "cmark:\n\(cmark)\nours:\n\(ours)")
        #expect(items(cmark) == items(ours))
    }

    @Test("Markdown's own containers side by side, and an empty quote, read as the IR says them", arguments: [
        ("> a\n\n> b\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a"},{"type":"BQ","text":"b","containerStart":0}]}"#),
        (">\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ"}]}"#),
        ("> a\n>\n> >\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a"},{"type":"BQ","quoteDepth":2}]}"#),
        ("- a\n- b\n* c\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"ULI","text":"b"},{"type":"ULI","text":"c","containerStart":0}]}"#),
        ("1. a\n2) b\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"OLI","text":"a","number":1},{"type":"OLI","text":"b","containerStart":0,"number":2}]}"#),
        ("> a\n\n- b\n", #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"BQ","text":"a"},{"type":"ULI","text":"b"}]}"#),
    ])
    func markdownInput(_ markdown: String, _ expected: String) throws {
        let read = try MarkdownReader().read(markdown)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.invariantViolations().isEmpty)
        #expect(String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self) == expected + "\n")
        // Written back, it reads the same.
        #expect(try MarkdownReader().read(try MarkdownWriter().write(read.value).value).value == read.value)
    }

    @Test("Without HTML in Markdown an anchor is dropped and said; an item out of turn is said")
    func reportedLosses() throws {
        let document = Document(blocks: [
            Block(.heading(level: 2), text: "T", anchor: "s"),
            Block(.orderedListItem(number: 1), text: "a"),
            Block(.orderedListItem(number: 5), text: "b"),
        ])
        let written = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == "## T\n\n1. a\n\n5) b\n")
        #expect(written.diagnostics.map(\.description) == [
            #"warning: anchor "s" of block 0 has no CommonMark form here; dropped (--markdown-html drop) [anchor-dropped]"#,
            "warning: ordered list item at block 2 shows 5 after 1: CommonMark numbers a list's items one after another, so it begins a list of its own [list-split]",
        ])
    }

    @Test("An anchor inside text is dropped and said, in HTML and in Markdown; an id is kept without what it may not hold")
    func anchorsWithoutAPlace() throws {
        let html = try HTMLReader().read("<p>x <a id=\"q\"></a>y</p><p id=\"a b&quot;c\">z</p>")
        #expect(html.value.blocks == [Block(.paragraph, text: "x y"), Block(.paragraph, text: "z", anchor: "abc")])
        #expect(html.diagnostics.map(\.code) == ["anchor-dropped"])
        let markdown = try MarkdownReader().read("x <a id=\"q\"></a>y\n")
        #expect(markdown.value.blocks == [Block(.paragraph, text: "x y")])
        #expect(markdown.diagnostics.map(\.code) == ["anchor-dropped"])
    }
}
