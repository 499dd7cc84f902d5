import Foundation
import Testing
import Markbridge
import MarkbridgeTestSupport

/// Whole conversions in linear time, by the ratio of the time for 2n to the time for n, on the
/// shapes that repeat a small block many times: a step that re-copies or re-scans what is
/// already built (the caption that copied every finished block) shows as a ratio near 4.
@Suite("Conversions: linear time on repeated blocks, output bounded per input byte", .serialized)
struct ConversionScalingTests {
    static let repeatedBlocks: [(name: String, unit: String)] = [
        ("captions", "<figcaption>c</figcaption>"),
        ("figures with an image and a caption", #"<figure><img src="https://e.x/a.png"><figcaption>c</figcaption></figure>"#),
        ("figures with only a caption", "<figure><figcaption>c</figcaption></figure>"),
        ("one-row tables", "<table><tr><td>a</td><td>b</td></tr></table>"),
        ("rows of one table", "<tr><td>a</td><td>b</td></tr>"),
        ("definition lists", "<dl><dt>a</dt><dd>b</dd></dl>"),
        ("lists", "<ul><li>a</li></ul>"),
        ("items holding a quote", "<li><p>a</p><blockquote>q</blockquote></li>"),
        ("quotes", "<blockquote>a</blockquote>"),
        ("headings holding a block", "<h1>a<p>b</p></h1>"),
        ("code blocks", "<pre>a</pre>"),
        ("embeds", #"<iframe src="https://www.youtube.com/embed/x"></iframe>"#),
        ("images", #"<img src="https://e.x/a.png">"#),
        ("cells holding paragraphs", "<td><p>a</p><p>b</p></td>"),
        ("rules", "<hr>"),
        ("links and bold", ##"<p><a href="#x">a</a> <b>b</b></p>"##),
    ]

    static let targets: [Format] = [.markupJSON, .markdown, .html]

    @Test("E5: doubling the repetitions at most 2.5x's the time", arguments: repeatedBlocks.indices)
    func repeated(shape: Int) throws {
        let (name, unit) = Self.repeatedBlocks[shape]
        let small = Array(String(repeating: unit, count: 1_500).utf8)
        let large = Array(String(repeating: unit, count: 3_000).utf8)
        for target in Self.targets {
            var failure: (any Error)?
            let ratios = LinearTime.ratios(small: small, large: large, runs: 2) { bytes in
                do { _ = try Converter().convert(bytes, from: .html, to: target) } catch { failure = error }
            }
            #expect(failure == nil, "\(name) to \(target.name): \(String(describing: failure))")
            #expect(ratios.contains { $0 < 2.5 }, "\(name) to \(target.name): time ratios for 2n against n were \(ratios)")
        }
    }

    /// A CMS article (figures, captions, lists, quotes, links) repeated past 10 MB, against half of it.
    @Test("A CMS-like corpus over 10 MB converts in linear time", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func cmsCorpus() throws {
        let article = try #require(FileBytes.read(TestPaths.sharedData("samples/cms-article.html")))
        let copies = 10_500_000 / article.count + 1
        let large = Array(repeating: article, count: copies).flatMap { $0 }
        let small = Array(large.prefix(large.count / 2))
        #expect(large.count > 10_000_000)
        var failure: (any Error)?
        let ratios = LinearTime.ratios(small: small, large: large, runs: 1) { bytes in
            do { _ = try Converter().convert(bytes, from: .html, to: .markupJSON) } catch { failure = error }
        }
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(ratios.contains { $0 < 2.5 }, "time ratios for 2n against n were \(ratios)")
    }

    /// Formatting left open before many blocks is repeated in each of them; the readers carry at
    /// most one markup (HTML: reopen one element) per 4 input bytes, and report the rest.
    @Test("E7: formatting reopened across many blocks: output bounded per input byte, reported", arguments: [
        "<b><i><u><s><em><strong><code><font><small><big><tt><strike><nobr>",
        "<p><b><i><u><s><em><strong><code><font><small><big><tt><strike><nobr>x</p>",
    ])
    func amplification(opening: String) throws {
        let input = Array((opening + String(repeating: "<p>x", count: 30_000)).utf8)
        for (target, bound) in [(Format.markupJSON, 12), (.markdown, 4), (.html, 4)] {
            let result = try Converter().convert(input, from: .html, to: target)
            #expect(result.value.count <= bound * input.count, "\(target.name): \(result.value.count) bytes out of \(input.count)")
            #expect(result.diagnostics.contains { $0.code == "formatting-limit" && $0.message.contains("room for") },
                    "\(target.name): \(result.diagnostics.map(\.description))")
        }
        // The text is all there, only the formatting ends early.
        let text = try Converter().convert(input, from: .html, to: .plainText)
        #expect(String(decoding: text.value, as: UTF8.self).filter { $0 == "x" }.count == 30_000 + (opening.hasSuffix("x</p>") ? 1 : 0))
    }

    @Test("Formatting carried over a realistic number of blocks is kept in every block")
    func carriedWithinBudget() throws {
        let input = "<b>" + String(repeating: "<p>a paragraph of ordinary length</p>", count: 2_000)
        let document = try Converter().read(Array(input.utf8), from: .html).value
        #expect(document.blocks.count == 2_000)
        #expect(document.blocks.allSatisfy { $0.markups == [Markup(.strong, start: 0, end: 30)] })
    }
}
