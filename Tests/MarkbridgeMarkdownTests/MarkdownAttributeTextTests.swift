import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// Text a reader decodes, written into a place CommonMark decodes it: link and image titles,
/// destinations, alt text and a fence's info string. Each must read back as itself, and
/// nothing in it may become markup, so that a renderer that lets raw HTML through (cmark's
/// unsafe mode here) still shows no element the document did not have.
@Suite("Markdown writer: titles, destinations, alt text and info strings read back as themselves")
struct MarkdownAttributeTextTests {
    static let hostileTitles = [
        "a\n\n<img src=x onerror=alert(1)>\n\n", "<script>alert(1)</script>", "x\r\n\r\ny", "\r", "&amp; &#10; &colon;",
        "\\\" back\\slash \\", "\"quoted\"", " edges ", "tab\tand\u{1B}[31m escape", "```\n~~~", "> not a quote\n- nor a list",
    ]

    static let hostileHrefs = [
        "&#106;avascript:alert(1)", "javascript&colon;alert(1)", "javascript&#58;x", "https://x/a&amp;b", "/p?a=1&b=2",
        "https://e.x/a b(c)<d>", "/a(b", "/((((((((((x))))))))))", "https://x/\\", "https://x/&#x3A;", "<javascript:x>", "a\\&amp;b",
    ]

    static func roundTrip(_ document: Document, html: MarkdownWriter.HTMLPolicy = .keep) throws -> (markdown: String, read: Document) {
        let written = try MarkdownWriter(options: .init(html: html)).write(document)
        #expect(written.diagnostics.isEmpty, "\(written.diagnostics)")
        let unsafe = OutputSafety.unsafeParts(ofMarkdown: written.value)
        #expect(unsafe.isEmpty, "\(unsafe) in \(String(decoding: written.value, as: UTF8.self))")
        return (String(decoding: written.value, as: UTF8.self), try MarkdownReader().read(written.value).value)
    }

    @Test("A hostile title on a link, an inline image and an image block, in a quote and a list item", arguments: hostileTitles)
    func titles(title: String) throws {
        let document = Document(blocks: [
            Block(.blockquote, text: "see it \u{FFFC}", markups: [
                Markup(.link(LinkTarget(href: "https://x/", title: title)), start: 4, end: 6),
                Markup(.image(ImageSource(src: "i.png", alt: "a", title: title)), start: 7, end: 8),
            ], quoteDepth: 2),
            Block(.unorderedListItem, text: "outer"),
            Block(.orderedListItem(number: 3), text: "item", markups: [Markup(.link(LinkTarget(href: "/u", title: title)), start: 0, end: 4)], depth: 1),
            Block(.image(ImageSource(src: "logo.png", alt: title, title: title))),
        ])
        for policy in MarkdownWriter.HTMLPolicy.allCases {
            let (markdown, read) = try Self.roundTrip(document, html: policy)
            #expect(read == document, "\(markdown)")
        }
    }

    @Test("A destination a reader would decode into something else keeps its exact href", arguments: hostileHrefs)
    func destinations(href: String) throws {
        let document = Document(blocks: [
            Block(.paragraph, text: "x \u{FFFC}", markups: [
                Markup(.link(LinkTarget(href: href)), start: 0, end: 1),
                Markup(.image(ImageSource(src: href, alt: "i")), start: 2, end: 3),
            ]),
        ])
        let (markdown, read) = try Self.roundTrip(document)
        #expect(read == document, "\(markdown)")
    }

    @Test("The reported inputs, from HTML: the title's blank lines and the entity in the href are written so they read back")
    func reportedInputs() throws {
        let html = "<p><a href=\"https://x/\" title=\"a\n\n<img src=x onerror=alert(1)>\n\n\">abc</a></p>"
            + "<p><a href=\"&amp;#106;avascript:alert(1)\">x</a> <a href=\"javascript&amp;colon;alert(1)\">y</a> <a href=\"https://x/a&amp;b\">z</a></p>"
        let document = try HTMLReader().read(html).value
        let written = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == """
            [abc](https://x/ "a&#10;&#10;<img src=x onerror=alert(1)>&#10;&#10;")

            [x](&amp;#106;avascript:alert(1)) [y](javascript&amp;colon;alert(1)) [z](https://x/a&b)

            """)
        #expect(written.diagnostics.isEmpty)
        #expect(OutputSafety.unsafeParts(ofMarkdown: written.value).isEmpty)
        #expect(try MarkdownReader().read(written.value).value == document)
    }

    @Test("An empty title is none: read from HTML or markup JSON as none, and written by Markdown as none (cmark reads `\"\"` as no title; a convert fuzz finding)")
    func emptyTitle() throws {
        let document = try HTMLReader().read("<p><a href=\"/x\" title=\"\">a</a> <img src=\"i.png\" title=\"\"></p>").value
        #expect(document.blocks[0].markups.map(\.kind) == [.link(LinkTarget(href: "/x")), .image(ImageSource(src: "i.png"))])
        let json = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"P","text":"a","markups":[{"type":"LINK","start":0,"end":1,"href":"/x","title":""}]}]}"#).value
        #expect(json.blocks[0].markups == [Markup(.link(LinkTarget(href: "/x")), start: 0, end: 1)])
        // Set on a built document afterwards, it is still written as none.
        var target = LinkTarget(href: "/x")
        target.title = ""
        let built = Document(blocks: [Block(.paragraph, text: "a", markups: [Markup(.link(target), start: 0, end: 1)])])
        #expect(String(decoding: try MarkdownWriter().write(built).value, as: UTF8.self) == "[a](/x)\n")
        let (markdown, read) = try Self.roundTrip(document)
        #expect(markdown == "[a](/x) ![](i.png)\n")
        #expect(read == document)
    }

    @Test("The oracle sees what the old writer let through: a title with blank lines makes a live <img onerror>")
    func oracleCatchesTheOldOutput() throws {
        let old = Array("[abc](<https://x/> \"a\n\n<img src=x onerror=alert(1)>\n\n\")\n".utf8)
        #expect(OutputSafety.unsafeParts(ofMarkdown: old) == ["onerror attribute on <img>"])
        #expect(OutputSafety.unsafeParts(ofMarkdown: Array("[x](<&#106;avascript:alert(1)>)\n".utf8))
            == [#"href="javascript:alert(1)" on <a>: scheme 'javascript:' is not allowed"#])
    }

    @Test("Random attribute text from the pieces that matter: every title, href, alt and language reads back, and nothing renders as markup")
    func randomAttributeText() throws {
        var random = SeededRandom(seed: 1313)
        let pieces = ["\n", "\n\n", "\r", "\r\n", "&", "&amp;", "&#", "106;", "#x3A;", "amp;", "<", ">", "\\", "\"", "'", "(", ")",
                      " ", "`", "~", "*", "_", "[", "]", "x", "é", "👍", "\u{301}", "\u{1C30}", "\u{1B}", "\t", "javascript:", "<img src=x onerror=alert(1)>"]
        func text(_ count: Int) -> String { (0..<count).map { _ in random.pick(pieces) }.joined() }
        for _ in 0..<1_500 {
            // What a reader could have produced: hrefs through the policy, a one-word language.
            guard case .allowed(let href) = URLPolicy.default.check(text(1 + random.below(6)), for: .link) else { continue }
            let title = text(1 + random.below(6))
            let alt = text(random.below(6))
            let document = Document(blocks: [
                Block(.paragraph, text: "a \u{FFFC}", markups: [
                    Markup(.link(LinkTarget(href: href, title: title)), start: 0, end: 1),
                    Markup(.image(ImageSource(src: href, alt: alt.isEmpty ? nil : alt, title: title)), start: 2, end: 3),
                ]),
                Block(.codeBlock(language: CodeLanguage.normalized(text(1 + random.below(4)))), text: "code"),
            ])
            let (markdown, read) = try Self.roundTrip(document)
            if read != document {
                Issue.record("\(document)\n\(markdown)\n\(read)")
                return
            }
        }
    }

    @Test("A backtick that a combining mark follows is still a backtick: the fence is of tildes (an attributes fuzz finding)")
    func backtickBeforeCombiningMark() throws {
        let document = Document(blocks: [Block(.codeBlock(language: "~c`\u{1C30}"), text: "x")])
        let (markdown, read) = try Self.roundTrip(document)
        #expect(markdown == "~~~\\~c`\u{1C30}\nx\n~~~\n")
        #expect(read == document)
    }
}
