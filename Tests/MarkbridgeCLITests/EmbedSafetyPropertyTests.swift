import Testing
import Markbridge
import MarkbridgeTestSupport

/// Whatever the embeds and their sources, no output lets embedded content run script with the
/// page's origin (HOSTILE-INPUTS E1).
@Suite("Embeds: no output lets embedded content run as the page")
struct EmbedSafetyPropertyTests {
    static let sources = [
        "/uploads/evil.svg", "/u/x.html", "x.html", "//evil.example/x", "\\\\evil.example/x", " //evil.example/x",
        "https://player.example.com/v/1", "http://cdn.example.com/a.pdf", "javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
        "HTTPS://Player.Example.COM/v", "https://player.example.com\\@evil.test/", "?q=1", "#top",
    ]

    /// Each way HTML input can embed something, with the sandbox an author might give it.
    static func htmlEmbed(_ src: String, _ random: inout SeededRandom) -> String {
        let quoted = src.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        return random.pick([
            #"<iframe src="\#(quoted)" sandbox="allow-scripts allow-same-origin"></iframe>"#, #"<iframe src="\#(quoted)"></iframe>"#,
            #"<iframe src="\#(quoted)" sandbox=""></iframe>"#, #"<object data="\#(quoted)">fallback</object>"#, #"<embed src="\#(quoted)">"#,
            #"<video src="\#(quoted)"></video>"#, #"<audio><source src="\#(quoted)"></audio>"#,
        ])
    }

    /// What is wrong with `output`, an HTML or Markdown text: an object or embed element, a
    /// frame allowed both script and its origin, or a frame whose source has no host of its own.
    static func problems(in output: String) -> [String] {
        let lowered = output.lowercased()
        var found: [String] = []
        if lowered.contains("<object") { found.append("<object>") }
        if lowered.contains("<embed") { found.append("<embed>") }
        if lowered.contains("allow-same-origin") { found.append("allow-same-origin") }
        var rest = Substring(output)
        while let start = rest.range(of: #"<iframe src=""#) {
            rest = rest[start.upperBound...]
            let src = rest.prefix { $0 != "\"" }
            if URLPolicy.scheme(of: String(src)) == nil { found.append("a frame from \(src), which has no host") }
        }
        return found
    }

    @Test("A9, E1: generated documents with hostile embed sources, to every format, with and without an allowlist")
    func generated() throws {
        var generator = DocumentGenerator(seed: 41, profile: .hostile)
        var random = SeededRandom(seed: 42)
        let optionSets = [ConversionOptions(), ConversionOptions(embedHosts: ["*.example.com"]), ConversionOptions(markdownHTML: .drop)]
        for _ in 0..<200 {
            var document = generator.document(blockCount: 1 + random.below(12))
            for kind in Embed.Kind.allCases {
                // In the containers of the block it goes before (its depth and quotes), so that
                // the item it is in is open (a depth with no item is no document a writer
                // writes, and an item outside a quote is not open inside it); never
                // between a caption and its table, or within a definition of two paragraphs.
                var index = random.below(document.blocks.count + 1)
                while index < document.blocks.count && document.blocks[index].kind.continuesDefinition
                        || index > 0 && document.blocks[index - 1].kind == .tableCaption {
                    index -= 1
                }
                let next = index < document.blocks.count ? document.blocks[index] : Block(.paragraph)
                document.blocks.insert(Block(.embed(Embed(kind, src: random.pick(Self.sources), title: random.chance(50) ? "Title" : nil)),
                                             text: random.chance(50) ? "caption" : "", depth: next.depth,
                                             quoteDepth: next.quoteDepth, quoteListDepths: next.quoteListDepths), at: index)
            }
            for options in optionSets {
                let converter = Converter(options: options)
                for target in ["html", "markdown", "gfm"] {
                    let written = String(decoding: try converter.write(document, to: target).value, as: UTF8.self)
                    #expect(Self.problems(in: written).isEmpty, "\(target): \(Self.problems(in: written))\n\(written)")
                }
                // Markup JSON keeps embeds as data, but never one that no writer would embed.
                let json = try converter.write(document, to: "json")
                let reread = try converter.read(json.value, from: "json").value
                let html = String(decoding: try Converter(options: options).write(reread, to: "html").value, as: UTF8.self)
                #expect(Self.problems(in: html).isEmpty, "\(html)")
            }
        }
    }

    @Test("A9, E1: HTML embeds of every element, sandboxed or not, to every format")
    func fromHTML() throws {
        var random = SeededRandom(seed: 43)
        for _ in 0..<300 {
            let html = (0..<3).map { _ in Self.htmlEmbed(random.pick(Self.sources), &random) }.joined(separator: "\n<p>between</p>\n")
            for target in ["html", "markdown", "gfm"] {
                let written = String(decoding: try Converter().convert(Array(html.utf8), from: "html", to: target).value, as: UTF8.self)
                #expect(Self.problems(in: written).isEmpty, "\(html) -> \(target): \(Self.problems(in: written))\n\(written)")
            }
        }
    }
}
