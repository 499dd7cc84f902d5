import Foundation
import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTML
import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// GitHub Flavored Markdown output, checked by an independent implementation: Debian's
/// cmark-gfm (with the table, strikethrough and autolink extensions) renders what the writer wrote, the HTML reader reads that rendering, and the IR
/// must be what the same renderer makes of the CommonMark writer's output for the same
/// document (whose own round trip other suites hold). Rendered HTML is no exact copy of the
/// original: its whitespace collapses where our HTML writer would keep it, and cmark-gfm
/// percent-encodes URLs (compared decoded here).
@Suite("GitHub Flavored Markdown writer")
struct GFMWriterTests {
    static let cmarkGFM = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func gfm(_ document: Document, html: MarkdownWriter.HTMLPolicy = .keep) throws -> Diagnosed<[UInt8]> {
        try MarkdownWriter(options: .init(html: html, dialect: .gfm)).write(document)
    }

    @Test("Pipe tables, ~~strike~~, and ~ and | escaped in text")
    func output() throws {
        let html = #"<p>Text with ~~tildes~~ and a | pipe, <s>struck</s>, x<del>in</del>y.</p><table><tr><th>Name</th><th style="text-align:right">Price</th></tr><tr><td><b>Tea</b> <code>a|b</code></td><td align="right">2</td></tr></table><table><tr><td>no header</td></tr></table>"#
        let document = try HTMLReader().read(html).value
        let written = try Self.gfm(document)
        #expect(String(decoding: written.value, as: UTF8.self) == """
            Text with \\~\\~tildes\\~\\~ and a \\| pipe, ~~struck~~, x~~in~~y.

            | Name | Price |
            | --- | ---: |
            | **Tea** `a\\|b` | 2 |

            <table>
            <tr><td>no header</td></tr>
            </table>

            """)
        #expect(written.diagnostics.isEmpty)
        let dropped = try Self.gfm(document, html: .drop)
        #expect(String(decoding: dropped.value, as: UTF8.self).hasSuffix("| **Tea** `a\\|b` | 2 |\n\nno header\n"))
        #expect(dropped.diagnostics.map(\.code) == ["table-flattened"])
    }

    @Test("A strike whose ~~ would not flank is written as <s>, or without HTML dropped and reported")
    func strikeThatCannotFlank() throws {
        // The strike begins on a quotation mark right after a letter: `x~~"` does not open.
        let block = Block(.paragraph, text: "x\"y\" z", markups: [Markup(.strike, start: 1, end: 4)])
        let kept = try Self.gfm(Document(blocks: [block]))
        #expect(String(decoding: kept.value, as: UTF8.self) == "x<s>\"y\"</s> z\n")
        let dropped = try Self.gfm(Document(blocks: [block]), html: .drop)
        #expect(String(decoding: dropped.value, as: UTF8.self) == "x\"y\" z\n")
        #expect(dropped.diagnostics.map(\.code) == ["markup-dropped"])
    }

    static let autolinkText = "Mail help@example.com or a.b+c@d.co.uk., see www.example.com and (www.x.org), https://habr.com, HTTP://X.org, ftp://f.net/x; not a@b, xwww.y.z, a@b.c-, mailto"

    @Test("Text GFM's autolink extension would link stays text: www and scheme escaped, an e-mail address split by an empty comment, or reported without HTML")
    func autolinksKeptPlain() throws {
        let link = Markup(.link(LinkTarget(href: "https://z.com")), start: 0, end: 17)
        let document = Document(blocks: [
            Block(.paragraph, text: Self.autolinkText),
            Block(.paragraph, text: "x@y.com www.z.com", markups: [link]),
        ])
        let kept = try Self.gfm(document)
        #expect(String(decoding: kept.value, as: UTF8.self) == """
            Mail help<!-- -->@example.com or a.b+c<!-- -->@d.co.uk., see www\\.example.com and (www\\.x.org), https\\://habr.com, HTTP\\://X.org, ftp\\://f.net/x; not a@b, xwww.y.z, a@b.c-, mailto

            [x@y.com www.z.com](https://z.com)

            """)
        #expect(kept.diagnostics.isEmpty)
        let dropped = try Self.gfm(document, html: .drop)
        #expect(String(decoding: dropped.value, as: UTF8.self).hasPrefix("Mail help@example.com or a.b+c@d.co.uk., see www\\.example.com"))
        #expect(dropped.diagnostics.map(\.code) == ["autolink-added"])
        #expect(dropped.diagnostics.first?.block == 0)
        #expect(dropped.diagnostics.first?.message.contains("\"help@example.com\"") == true)
        // cmark-gfm with its autolink extension, the renderer GitHub runs, links nothing.
        if Self.cmarkGFM != nil {
            let rendered = String(decoding: try Self.render(kept.value), as: UTF8.self)
            #expect(rendered.components(separatedBy: "<a ").count == 2, "\(rendered)")
        }
    }

    static func render(_ markdown: [UInt8], extensions: Bool = true) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(cmarkGFM))
        process.arguments = ["--unsafe"] + (extensions ? ["-e", "table", "-e", "strikethrough", "-e", "autolink"] : [])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written from another thread: a large document would fill the pipe both ways.
        let writer = Thread { input.fileHandleForWriting.write(Data(markdown)); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    static func hasMarkupReachingIntoCode(_ document: Document) -> Bool {
        document.blocks.contains { block in
            let codes = block.markups.filter { $0.kind == .code }.map(\.range)
            return block.markups.contains { markup in
                markup.kind != .code && codes.contains { code in
                    (code.start < markup.range.start && markup.range.start < code.end) || (code.start < markup.range.end && markup.range.end < code.end) || code == markup.range
                }
            }
        }
    }

    /// URLs as cmark-gfm's HTML has them, percent-decoded, so that `|` and `%7C` compare equal;
    /// tabs as spaces (one code unit each, so no range moves), as HTML without `white-space:
    /// pre-wrap` shows them, and cmark-gfm's tables have no such style where ours do; a CR LF in
    /// an inline image's alt text as LF, as an HTML parser reads cmark-gfm's raw one in a pipe
    /// table's cell (where the CommonMark writer's HTML table has `&#13;`).
    static func normalizingURLs(_ document: Document) -> Document {
        func decoded(_ url: String) -> String { url.removingPercentEncoding ?? url }
        func shown(_ alt: String?) -> String? { alt?.replacingOccurrences(of: "\r\n", with: "\n") }
        var copy = document
        for index in copy.blocks.indices {
            copy.blocks[index].text = copy.blocks[index].text.replacingOccurrences(of: "\t", with: " ")
            copy.blocks[index].markups = copy.blocks[index].markups.map { markup in
                switch markup.kind {
                case .link(let target): Markup(.link(LinkTarget(href: decoded(target.href), title: target.title)), markup.range)
                // A CR LF the rendering puts in an attribute raw is read by HTML parsing as LF, in a title as in alt text.
                case .image(let image): Markup(.image(ImageSource(src: decoded(image.src), alt: shown(image.alt), title: shown(image.title))), markup.range)
                default: markup
                }
            }
            switch copy.blocks[index].kind {
            case .image(let image): copy.blocks[index].kind = .image(ImageSource(src: decoded(image.src), alt: image.alt, title: image.title))
            case .embed(var embed):
                embed.src = decoded(embed.src)
                embed.poster = embed.poster.map(decoded)
                copy.blocks[index].kind = .embed(embed)
            default: break
            }
        }
        return copy
    }

    @Test("cmark-gfm renders generated documents written as GFM back to the same IR", .enabled(if: cmarkGFM != nil, "cmark-gfm is not installed (apt-get install cmark-gfm)"),
          arguments: [MarkdownWriter.HTMLPolicy.keep, .drop])
    func oracle(html: MarkdownWriter.HTMLPolicy) throws {
        var generator = DocumentGenerator(seed: 21, profile: .hostile)
        var pipeTables = 0, strikes = 0
        // Generated documents, then tables alone (a few in a document is too rare for pipe tables).
        for index in 0..<400 {
            let document = index < 300 ? generator.document(blockCount: 1 + index % 10) : Document(blocks: generator.table())
            let written = try Self.gfm(document, html: html)
            let markdown = String(decoding: written.value, as: UTF8.self)
            pipeTables += markdown.split(separator: "\n").filter { $0.hasPrefix("| ---") || $0.hasPrefix("| :--") }.count
            strikes += markdown.components(separatedBy: "~~").count - 1
            let rendered = try Self.render(written.value)
            let read = try HTMLReader().read(rendered).value
            let commonMark = try MarkdownWriter(options: .init(html: html)).write(document).value
            var expected = try HTMLReader().read(try Self.render(commonMark, extensions: false)).value
            // Without HTML each dialect drops different things (CommonMark strikes and pipe
            // tables too): what must hold is that the text is the document's, where the writer
            // reported no change to it and no markup reaches into a code span (which neither can
            // write without HTML). With HTML, everything agrees with the CommonMark rendering.
            if html == .drop {
                let changesText: Set<String> = ["line-break-dropped", "block-dropped", "embed-dropped", "unsafe-url", "control-character-replaced"]
                if Self.hasMarkupReachingIntoCode(document) || written.diagnostics.contains(where: { changesText.contains($0.code) }) { continue }
                expected = document
            }
            // Compared as HTML shows text: runs of whitespace as one space (an empty cell of a
            // flattened row leaves two), and an image block as the U+FFFC of the lone image it is
            // read from (a flattened row's cell holding only an image).
            func shown(_ document: Document) -> [String] {
                document.blocks.map { block in
                    if case .image = block.kind { return "\u{FFFC}" }
                    return block.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                }
            }
            let agrees = html == .drop
                ? shown(read) == shown(expected)
                : Self.normalizingURLs(read) == Self.normalizingURLs(expected)
            if !agrees {
                let (read, expected) = html == .drop ? (read, expected) : (Self.normalizingURLs(read), Self.normalizingURLs(expected))
                let first = zip(read.blocks, expected.blocks).enumerated().first { html == .drop ? $0.element.0.text != $0.element.1.text : $0.element.0 != $0.element.1 }
                // Quoted: generated text holds controls that would garble the test log.
                Issue.record("document \(index)\n\(markdown.debugDescription)\n\(String(decoding: rendered, as: UTF8.self).debugDescription)\nfirst difference: \(first.map { "block \($0.offset)\n  read     \($0.element.0)\n  expected \($0.element.1)" } ?? "block counts \(read.blocks.count) vs \(expected.blocks.count)")")
                return
            }
        }
        if html == .keep {
            #expect(pipeTables > 10)
            #expect(strikes > 20)
        }
    }
}
