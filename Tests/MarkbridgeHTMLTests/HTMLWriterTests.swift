import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON

@Suite("HTML writer")
struct HTMLWriterTests {
    func html(_ json: String, options: HTMLWriter.Options = .default) throws -> String {
        let document = try MarkupJSONReader().read(json).value
        return String(decoding: try HTMLWriter(options: options).write(document).value, as: UTF8.self)
    }

    @Test("Overlapping markups become properly nested elements, split where they cross")
    func overlap() throws {
        #expect(try html(#"{"paragraphs":[{"type":"P","text":"abcdefgh","markups":[{"type":"STRONG","start":0,"end":5},{"type":"EM","start":3,"end":8}]}]}"#)
            == "<p><strong>abc<em>de</em></strong><em>fgh</em></p>\n")
    }

    @Test("Lists nest by depth, with continuation paragraphs, start numbers and values; a continuation paragraph makes its list loose")
    func lists() throws {
        let json = #"{"paragraphs":[{"type":"ULI","text":"a"},{"type":"OLI","text":"b","depth":1,"number":3},{"type":"OLI","text":"c","depth":1,"number":9},{"type":"P","text":"more","depth":1},{"type":"ULI","text":"d"}]}"#
        // CommonMark's reference renderer: every item of a loose list holds its text in a
        // paragraph; the nested list, tight, does not.
        #expect(try html(json) == """
            <ul>
            <li>
            <p>a</p>
            <ol start="3">
            <li>b</li>
            <li value="9">c</li>
            </ol>
            <p>more</p>
            </li>
            <li>
            <p>d</p>
            </li>
            </ul>

            """)
    }

    @Test("A code block, heading or rule in an item keeps its list tight; an empty item of a loose list is empty")
    func tightFurtherBlocks() throws {
        let json = #"{"paragraphs":[{"type":"ULI","text":"a"},{"type":"PRE","text":"c","depth":1},{"type":"H2","text":"h","depth":1},{"type":"ULI","text":"b"},{"type":"OLI","number":1},{"type":"OLI","text":"x","number":2},{"type":"P","text":"y","depth":1}]}"#
        #expect(try html(json) == """
            <ul>
            <li>a<pre><code>c</code></pre>
            <h2>h</h2>
            </li>
            <li>b</li>
            </ul>
            <ol>
            <li></li>
            <li>
            <p>x</p>
            <p>y</p>
            </li>
            </ol>

            """)
    }

    @Test("Quotes, code with language, images, rules, alignment, empty paragraphs, colors")
    func blocks() throws {
        let json = ##"{"paragraphs":[{"type":"BQ","text":"q","quoteDepth":2},{"type":"PRE","text":"a < b\n","language":"c"},{"type":"IMG","src":"https://e.x/a.png","alt":"A \"quoted\""},{"type":"HR"},{"type":"P","align":"center"},{"type":"P","text":"red","markups":[{"type":"COLOR","start":0,"end":3,"color":"#FF000080"}]}]}"##
        #expect(try html(json) == """
            <blockquote>
            <blockquote>
            <p>q</p>
            </blockquote>
            </blockquote>
            <pre><code class="language-c">a &lt; b

            </code></pre>
            <p><img src="https://e.x/a.png" alt="A &quot;quoted&quot;"></p>
            <hr>
            <p style="text-align:center"><br></p>
            <p><span style="color:#FF000080">red</span></p>

            """)
    }

    @Test("An image's size is written as width and height attributes, on a block, a figure and inline; none where none is given")
    func imageSizes() throws {
        let json = ##"{"paragraphs":[{"type":"IMG","src":"https://e.x/a.png","alt":"A","width":640,"height":480},{"type":"IMG","text":"Cap","src":"https://e.x/b.png","height":0},{"type":"P","text":"x\uFFFCy\uFFFC","markups":[{"type":"IMAGE","start":1,"end":2,"src":"https://e.x/i.png","title":"t","width":16},{"type":"IMAGE","start":3,"end":4,"src":"https://e.x/j.png"}]}]}"##
        #expect(try html(json) == """
            <p><img src="https://e.x/a.png" alt="A" width="640" height="480"></p>
            <figure><img src="https://e.x/b.png" height="0"><figcaption>Cap</figcaption></figure>
            <p>x<img src="https://e.x/i.png" title="t" width="16">y<img src="https://e.x/j.png"></p>

            """)
    }

    @Test("Text that looks like markup is escaped; unsafe links are not written")
    func safety() throws {
        let document = Document(blocks: [Block(.paragraph, text: "<script>alert(1)</script> & x", markups: [
            Markup(.link(LinkTarget(href: "javascript:alert(1)")), start: 0, end: 8),
            Markup(.link(LinkTarget(href: "https://e.x/?a=1&b=\"2\"", title: "t'")), start: 28, end: 29),
        ])])
        let written = try HTMLWriter().write(document)
        #expect(String(decoding: written.value, as: UTF8.self)
            == "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <a href=\"https://e.x/?a=1&amp;b=&quot;2&quot;\" title=\"t&#39;\">x</a></p>\n")
        #expect(written.diagnostics.map(\.code) == ["unsafe-url"])
    }

    @Test("Markups out of canonical order are written as the canonical ones are; one starting inside a surrogate pair is refused")
    func markupOrder() throws {
        // Built without canonicalizing: EM before STRONG, and the later STRONG first.
        let unsorted = Document(blocks: [Block(.paragraph, text: "abcdefgh", markups: [
            Markup(.strong, start: 5, end: 7), Markup(.emphasis, start: 3, end: 8), Markup(.strong, start: 0, end: 4),
        ])])
        #expect(String(decoding: try HTMLWriter().write(unsorted).value, as: UTF8.self)
            == "<p><strong>abc<em>d</em></strong><em>e<strong>fg</strong>h</em></p>\n")
        // U+1F600 is two UTF-16 units: a markup from the middle of it is no document a reader
        // makes, and no writer writes it.
        let split = Document(blocks: [Block(.paragraph, text: "a\u{1F600}b", markups: [Markup(.strong, start: 2, end: 4)])])
        #expect(throws: ConversionError(code: "invalid-document",
                                        message: "block 0, markup 0: offset 2 splits a surrogate pair; no writer can write it as our readers read it")) {
            try HTMLWriter().write(split)
        }
    }

    @Test("--standalone wraps a whole document with a UTF-8 meta tag")
    func standalone() throws {
        #expect(try html(#"{"paragraphs":[{"type":"P","text":"x"}]}"#, options: .init(standalone: true)) == """
            <!DOCTYPE html>
            <html>
            <head>
            <meta charset="utf-8">
            <title></title>
            </head>
            <body>
            <p>x</p>
            </body>
            </html>

            """)
    }

    @Test("Controls in attributes are references, as in text: none reaches whoever prints the HTML, and each reads back")
    func controlsInAttributes() throws {
        let document = Document(blocks: [Block(.paragraph, text: "a\u{1B}b", markups: [
            Markup(.link(LinkTarget(href: "/x", title: "t\u{1B}[31m\u{7}\u{7F}")), start: 0, end: 3),
        ])])
        let written = String(decoding: try HTMLWriter().write(document).value, as: UTF8.self)
        #expect(written == "<p><a href=\"/x\" title=\"t&#27;[31m&#7;&#127;\">a&#27;b</a></p>\n")
        #expect(try HTMLReader().read(written).value == document)
    }

    @Test("What HTML writes as given but reads back otherwise is said: an empty item's paragraph, formatting on whitespace (both found by the convert fuzz target), a paragraph first in an item its depth makes inside a quote")
    func readBackChangesReported() throws {
        let emptyItem = Document(blocks: [Block(.unorderedListItem, text: ""), Block(.paragraph, text: "l", depth: 1)])
        let written = try HTMLWriter().write(emptyItem)
        #expect(String(decoding: written.value, as: UTF8.self) == "<ul>\n<li><p>l</p>\n</li>\n</ul>\n")
        #expect(written.diagnostics.map(\.code) == ["empty-item-merged"] && written.diagnostics.first?.block == 0)
        #expect(try HTMLReader().read(written.value).value.blocks.map(\.text) == ["l"])

        // The same inside a quote, where the paragraph is a BQ in the item's quote (found by
        // the convert fuzz target); a quote opened inside the item keeps its paragraph apart.
        let inQuote = Document(blocks: [Block(.unorderedListItem, text: "", quoteDepth: 1), Block(.blockquote, text: "l", depth: 1, quoteDepth: 1)])
        let quoteWritten = try HTMLWriter().write(inQuote)
        #expect(String(decoding: quoteWritten.value, as: UTF8.self) == "<blockquote>\n<ul>\n<li><p>l</p>\n</li>\n</ul>\n</blockquote>\n")
        #expect(quoteWritten.diagnostics.map(\.code) == ["empty-item-merged"] && quoteWritten.diagnostics.first?.block == 0)
        #expect(try HTMLReader().read(quoteWritten.value).value.blocks == [Block(.unorderedListItem, text: "l", quoteDepth: 1)])
        // An image block is written as `<p><img></p>`: the same (a convert fuzz finding).
        let image = Document(blocks: [Block(.orderedListItem(number: 2), text: ""), Block(.image(ImageSource(src: "a.png")), depth: 1)])
        let imageWritten = try HTMLWriter().write(image)
        #expect(String(decoding: imageWritten.value, as: UTF8.self) == "<ol start=\"2\">\n<li><p><img src=\"a.png\"></p>\n</li>\n</ol>\n")
        #expect(imageWritten.diagnostics.map(\.message) == ["list item at block 0 is empty and the image in it at block 1 is written inside it as <p>: read back, that image is the item's own text"])
        #expect(try HTMLReader().read(imageWritten.value).value.blocks == [Block(.orderedListItem(number: 2), text: "\u{FFFC}", markups: [Markup(.image(ImageSource(src: "a.png")), start: 0, end: 1)])])
        var captioned = image
        captioned.blocks[1].text = "cap"
        let captionedWritten = try HTMLWriter().write(captioned)
        #expect(captionedWritten.diagnostics.map(\.message) == ["list item at block 0 is empty and the captioned image in it at block 1 is written inside it as <figure>: read back, that captioned image is the item's own text"])
        #expect(try HTMLReader().read(captionedWritten.value).value.blocks == [
            Block(.orderedListItem(number: 2), text: "\u{FFFC}", markups: [Markup(.image(ImageSource(src: "a.png")), start: 0, end: 1)]),
            Block(.paragraph, text: "cap", depth: 1),
        ])
        // An embed the URL policy writes as a paragraph: a link to a refused host's source, or
        // a rejected source's text (a convert fuzz finding); an embedded one stays apart.
        let embed = Document(blocks: [Block(.unorderedListItem, text: ""), Block(.embed(Embed(.object, src: "clip.mp4")), text: "", depth: 1)])
        let embedWritten = try HTMLWriter().write(embed)
        #expect(String(decoding: embedWritten.value, as: UTF8.self) == "<ul>\n<li><p><a href=\"clip.mp4\">clip.mp4</a></p>\n</li>\n</ul>\n")
        #expect(embedWritten.diagnostics.map(\.code) == ["embed-host-refused", "empty-item-merged"])
        #expect(embedWritten.diagnostics.last?.message == "list item at block 0 is empty and the embed in it at block 1 is written inside it as a link in <p>: read back, that embed is the item's own text")
        var rejected = embed
        rejected.blocks[1] = Block(.embed(Embed(.iframe, src: "javascript:x")), text: "fallback", depth: 1)
        let rejectedWritten = try HTMLWriter().write(rejected)
        #expect(rejectedWritten.diagnostics.map(\.code) == ["unsafe-url", "empty-item-merged"])
        #expect(try HTMLReader().read(rejectedWritten.value).value.blocks == [Block(.unorderedListItem, text: "fallback")])
        var embedded = embed
        embedded.blocks[1] = Block(.embed(Embed(.iframe, src: "https://www.youtube.com/embed/x")), text: "", depth: 1)
        #expect(try HTMLWriter().write(embedded).diagnostics.isEmpty)

        let quoteInItem = Document(blocks: [Block(.unorderedListItem, text: ""), Block(.blockquote, text: "l", depth: 1, quoteDepth: 1, quoteListDepths: [1])])
        let quoteInItemWritten = try HTMLWriter().write(quoteInItem)
        #expect(quoteInItemWritten.diagnostics.isEmpty)
        #expect(try HTMLReader().read(quoteInItemWritten.value).value == quoteInItem)

        let edge = Document(blocks: [Block(.paragraph, text: "The caption", markups: [Markup(.strong, start: 3, end: 11), Markup(.underline, start: 0, end: 3)])])
        let edgeWritten = try HTMLWriter().write(edge)
        #expect(String(decoding: edgeWritten.value, as: UTF8.self) == "<p><u>The</u><strong> caption</strong></p>\n")
        #expect(edgeWritten.diagnostics.map(\.message) == ["STRONG 3..<11 in block 0 begins or ends on whitespace, written so; read back, the whitespace is outside it"])
        #expect(try HTMLReader().read(edgeWritten.value).value.blocks[0].markups.contains(Markup(.strong, start: 4, end: 11)))

    }

    @Test("A quote's paragraph at depth 1 after an item outside the quote has no item open to be in: refused, as every writer refuses it")
    func itemOutsideQuoteIsNotOpenInside() throws {
        // The quote is outermost (no quoteListDepths), so its depth would make an item inside
        // the quote that no block opens: HTML wrote `<li><p>`, Markdown indented text, and
        // each read back otherwise.
        let bareItem = Document(blocks: [Block(.orderedListItem(number: 3), text: "three"), Block(.blockquote, text: "quoted", depth: 1, quoteDepth: 1)])
        #expect(bareItem.invariantViolations().map(\.description) == ["block 1: depth 1 has no list item at depth 0 before it to be in (at most 0)"])
        #expect(throws: ConversionError.self) { try HTMLWriter().write(bareItem) }
        // The quote inside the item (quoteListDepths [1]) is that item's.
        var inItem = bareItem
        inItem.blocks[1].quoteListDepths = [1]
        #expect(inItem.invariantViolations().isEmpty)
    }
}
