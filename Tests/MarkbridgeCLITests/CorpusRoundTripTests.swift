import Foundation
import Markbridge
import MarkbridgeIR
import MarkbridgeTestSupport
import Testing

/// Issue 22, the writer's guarantee at document level: for every document, the Markdown written
/// reads back as the document minus what the writer reported. Checked over records made from
/// the real samples in `../shared/data/samples/`, cut at element boundaries, mixed and mutated
/// (``SampleCorpusGenerator``): each is read as HTML, written as CommonMark and as GFM, with HTML
/// kept and dropped, read back, and compared (`markbridge check`). A difference is reported when a
/// warning of the write step names the block it is in, or the block next to an inserted one.
@Suite("Corpus round trip: Markdown reads back as the document minus what was reported")
struct CorpusRoundTripTests {
    static let recordCount = 3_000

    /// The samples as HTML: the HTML files as they are, the others written as HTML first.
    static func samples() throws -> [String] {
        let directory = TestPaths.sharedData("samples")
        var samples: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let bytes = try #require(FileBytes.read(directory + "/" + name))
            let format: Format? = name.hasSuffix(".html") ? nil : name.hasSuffix(".json") ? .markupJSON : .plainText
            guard let format, format.reader != nil else {
                samples.append(String(decoding: bytes, as: UTF8.self))
                continue
            }
            samples.append(try Converter().convert(String(decoding: bytes, as: UTF8.self), from: format, to: .html).value)
        }
        return samples
    }

    /// The changes of `check` that no warning of its write step explains (``UnreportedChanges``).
    static func unreported(_ check: MigrationCheck) -> [BlockChange] {
        UnreportedChanges.of(before: check.before, writeDiagnostics: check.writeDiagnostics, changes: check.diff.changes)
    }

    static let targets: [(name: String, converter: Converter, via: Format)] = [
        ("markdown --markdown-html keep", Converter(), .markdown),
        ("markdown --markdown-html drop", Converter(options: .init(markdownHTML: .drop)), .markdown),
        ("gfm --markdown-html keep", Converter(), .gfm),
        ("gfm --markdown-html drop", Converter(options: .init(markdownHTML: .drop)), .gfm),
    ]

    @Test("Records from the samples: Markdown and GFM, with HTML kept and dropped, read back equal or reported",
          .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func corpus() throws {
        var generator = SampleCorpusGenerator(samples: try Self.samples(), seed: 22)
        #expect(generator.pieces.count > 100)
        var differences = 0
        var shown = 0
        for index in 0..<Self.recordCount {
            let record = generator.record()
            for target in Self.targets {
                let finding: String
                do {
                    let check = try target.converter.check(Array(record.utf8), from: .html, via: target.via)
                    let unreported = Self.unreported(check)
                    guard !unreported.isEmpty else { continue }
                    finding = "written \(String(decoding: check.written, as: UTF8.self).debugDescription)\nwarnings \(check.writeDiagnostics.map { "\($0.code)@\($0.block ?? -1)" })\n\(unreported)"
                } catch {
                    finding = "error: \(error.message)"
                }
                differences += 1
                if shown < 20 {
                    shown += 1
                    Issue.record("record \(index), \(target.name): \(record.debugDescription)\n\(finding)")
                }
            }
        }
        print("corpus round trip: \(Self.recordCount) records, \(differences) unreported differences")
        #expect(differences == 0)
    }

    /// The minimal shapes the corpus found, each fixed or now reported.
    static let foundShapes = [
        "<pre><li>a</li></pre>",
        "<h2>x<li>a</li>y</h2>",
        "<p style='mso-list:l0 level3 lfo1'>x</p>",
        "<ol><li><p style='mso-list:l0 level1 lfo1'>x</p></li></ol>",
        "<ul><li><dl><dt>t</dt><dd>d</dd></dl></li></ul>",
        "<ul><li><iframe title=\"t\" src=\"https://www.youtube.com/embed/a\"></iframe></li></ul>",
        "<span style=\"color:#c00\"><p style=\"text-align:right\"><span style=\"color:#000\">x</span></p></span>",
    ]

    @Test("Shapes the corpus found read as valid documents and come back from Markdown equal or reported", arguments: foundShapes)
    func foundShape(_ html: String) throws {
        for target in Self.targets {
            let check = try target.converter.check(Array(html.utf8), from: .html, via: target.via)
            #expect(check.before.invariantViolations().isEmpty)
            #expect(Self.unreported(check).isEmpty, "\(target.name): \(check.diff.changes)")
        }
    }

    @Test("An empty item with a paragraph in it is said to merge: Markdown reads the paragraph back as the item's text")
    func emptyItemMerged() throws {
        let check = try Converter().check(Array(#"{"version":1,"paragraphs":[{"type":"ULI","text":""},{"type":"P","text":"x","depth":1}]}"#.utf8), from: .markupJSON, via: .markdown)
        #expect(String(decoding: check.written, as: UTF8.self) == "-\n  x\n")
        #expect(check.writeDiagnostics.map(\.code) == ["empty-item-merged"])
        #expect(check.writeDiagnostics.first?.block == 0)
        #expect(check.after.blocks.map(\.text) == ["x"])
    }

    @Test("The same when the paragraph is written as an HTML block (an alignment), which the convert fuzz target found unreported")
    func emptyItemMergedThroughHTML() throws {
        let check = try Converter().check(Array(#"{"version":1,"paragraphs":[{"type":"ULI","text":""},{"type":"P","text":"x","depth":1,"align":"center"}]}"#.utf8), from: .markupJSON, via: .markdown)
        #expect(String(decoding: check.written, as: UTF8.self) == "-\n  <p style=\"text-align:center\">x</p>\n")
        #expect(check.writeDiagnostics.map(\.code) == ["empty-item-merged"])
        #expect(check.writeDiagnostics.first?.block == 0)
        #expect(check.after.blocks.map(\.text) == ["x"])
    }

    @Test("A merged paragraph equal to one kept in place: the diff may align either, and both read back the same (a convert fuzz finding)")
    func equalParagraphsAcrossMergedItems() throws {
        // The finding's first byte picks the HTML reader; the rest is the page.
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/list-split-equal-paragraphs")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        let paragraphs = check.before.blocks.indices.filter { check.before.blocks[$0].kind == .paragraph && check.before.blocks[$0].text == "a" }
        #expect(paragraphs == [4, 10])
        // Block 4 merges into its empty item (reported); block 10 stays a paragraph after an item with text.
        #expect(check.writeDiagnostics.contains { $0.code == "empty-item-merged" && $0.block == 3 })
        #expect(check.after.blocks.filter { $0.text == "a" }.map(\.kind) == [.orderedListItem(number: 999_999_999), .paragraph])
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }

    @Test("An empty item's paragraph inside a quote (a BQ in the item's quote) merges into it through HTML and Markdown, reported by both (a convert fuzz finding)")
    func emptyItemParagraphInQuote() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/empty-item-paragraph-in-quote")))
        for via in [Format.html, .markdown] {
            let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: via)
            let item = check.before.blocks[3], paragraph = check.before.blocks[4]
            #expect(item.kind == .unorderedListItem && item.text.isEmpty && item.quoteDepth == 1)
            #expect(paragraph.kind == .blockquote && paragraph.depth == 1 && paragraph.quoteDepth == 1)
            #expect(check.writeDiagnostics.contains { $0.code == "empty-item-merged" && $0.block == 3 }, "\(via.name)")
            #expect(check.after.blocks[3].kind == .unorderedListItem && check.after.blocks[3].text == paragraph.text)
            #expect(Self.unreported(check).isEmpty, "\(via.name): \(check.diff.changes)")
        }
    }

    @Test("An empty item with an anchor keeps its paragraph apart through Markdown: the anchor is the item's content, a blank line may follow it (a convert fuzz finding: the paragraph was written on the anchor's line and merged, unreported)")
    func anchoredEmptyItemParagraph() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/anchored-empty-item-paragraph")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        let item = check.before.blocks[2]
        #expect(item.kind == .unorderedListItem && item.text.isEmpty && item.anchor == "2")
        #expect(check.before.blocks[3].kind == .paragraph && check.before.blocks[3].depth == 1)
        #expect(String(decoding: check.written, as: UTF8.self).contains("- <a id=\"2\"></a>\n\n  ,\"ts"))
        #expect(!check.writeDiagnostics.contains { $0.code == "empty-item-merged" })
        #expect(check.diff.changes.isEmpty, "\(check.diff.changes)")
    }

    @Test("An empty item's image block merges into it through HTML and Markdown, reported by both (a convert fuzz finding)")
    func emptyItemImage() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/empty-item-image")))
        for via in [Format.html, .markdown] {
            let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: via)
            let image = try #require(check.before.blocks.firstIndex { if case .image = $0.kind { true } else { false } })
            #expect(check.before.blocks[image - 1].kind.isListItem && check.before.blocks[image - 1].text.isEmpty)
            #expect(check.writeDiagnostics.contains { $0.code == "empty-item-merged" && $0.block == image - 1 }, "\(via.name)")
            #expect(Self.unreported(check).isEmpty, "\(via.name): \(check.diff.changes)")
        }
    }

    @Test("An empty item's embed written as a link paragraph (its host refused) merges into it through HTML and Markdown, reported by both (a convert fuzz finding)")
    func emptyItemEmbedAsLink() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/empty-item-embed-as-link")))
        for via in [Format.html, .markdown] {
            let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: via)
            let embed = try #require(check.before.blocks.firstIndex { if case .embed = $0.kind { true } else { false } })
            #expect(check.before.blocks[embed - 1].kind.isListItem && check.before.blocks[embed - 1].text.isEmpty)
            #expect(check.writeDiagnostics.map(\.code).filter { $0.hasPrefix("em") } == ["embed-host-refused", "empty-item-merged"], "\(via.name)")
            #expect(check.writeDiagnostics.contains { $0.code == "empty-item-merged" && $0.block == embed - 1 }, "\(via.name)")
            #expect(Self.unreported(check).isEmpty, "\(via.name): \(check.diff.changes)")
        }
    }

    @Test("Paragraphs merged into empty items equal to later items: the diff calls a block moved that another alignment keeps in place, and the oracle does not count it (a convert fuzz finding)")
    func movedPastMergedItems() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/move-past-merged-items")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        let moved = check.diff.changes.compactMap { if case .moved(let from, _, _) = $0 { from } else { nil } }
        #expect(moved == [5])
        #expect(check.before.blocks[5].kind == .paragraph && check.before.blocks[5].depth == 1)
        #expect(!check.writeDiagnostics.contains { $0.block == 5 })
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }

    @Test("Links with an empty title after paragraphs merged into empty items: the title is none as read, so Markdown loses nothing (a convert fuzz finding: written as \"\", read back as none, unreported)")
    func emptyLinkTitle() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/empty-link-title")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        let titles = check.before.blocks.flatMap(\.markups).compactMap { if case .link(let target) = $0.kind { target.title } else { nil } }
        #expect(titles.isEmpty)
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }

    @Test("A code block written as HTML with a line of over a hundred list markers keeps them: the first is a reference, which the reader's depth clamp does not count (a convert fuzz finding: the clamp cut the line, and only the reader said so)")
    func htmlBlockLinePastDepthClamp() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/html-block-line-past-depth-clamp")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        let written = String(decoding: check.written, as: UTF8.self)
        #expect(written.contains("\n &#45; - - - "))
        #expect(!check.readBackDiagnostics.contains { $0.code == "depth-clamped" })
        #expect(check.diff.changes.isEmpty, "\(check.diff.changes)")
    }

    @Test("An empty task item's checkbox line, then a heading in the item: a blank line keeps the heading apart (a convert fuzz finding: cmark read the box as an HTML block that took in the heading as the item's text, unsaid)")
    func checkboxSwallowsHeading() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/checkbox-swallows-heading")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        #expect(String(decoding: check.written, as: UTF8.self).contains("<input type=\"checkbox\" checked disabled>\n\n  ## holding"))
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }

    @Test("A table caption's anchor reads back: the HTML writer writes it as `<caption id>`, from which the reader took no id (a convert fuzz finding: html -> html -> html lost the anchor, unsaid)")
    func captionAnchorThroughHTML() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/caption-anchor-through-html")))
        let converter = Converter(options: .init(repairsInvalidUTF8: true))
        let read = try converter.read(Array(seed.dropFirst()), from: .html).value
        #expect(read.blocks.filter { $0.kind == .tableCaption && $0.anchor != nil }.count == 2)
        let check = try converter.check(Array(seed.dropFirst()), from: .html, via: .html)
        #expect(String(decoding: check.written, as: UTF8.self).contains("<caption id=\"5f=http"))
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }

    @Test("Unnamed blocks side by side stay side by side: the oracle finds them as a run, not each at the first equal block (a paragraph equal to a merged one made it skip a block; a convert fuzz finding)")
    func equalBlocksPastMergedItems() throws {
        let seed = try #require(FileBytes.read(TestPaths.tests("FuzzSeeds/convert/equal-blocks-past-merged-items")))
        let check = try Converter(options: .init(repairsInvalidUTF8: true)).check(Array(seed.dropFirst()), from: .html, via: .markdown)
        // The diff calls block 5, which no warning names, moved; it reads back whole, in order.
        #expect(check.diff.changes.contains { if case .moved(5, _, _) = $0 { true } else { false } })
        #expect(!check.writeDiagnostics.contains { $0.block == 5 })
        #expect(Self.unreported(check).isEmpty, "\(check.diff.changes)")
    }
}
