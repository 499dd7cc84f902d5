import Foundation
import Markbridge
import MarkbridgeTestSupport
import Testing

/// The real-shaped exports in `../shared/data/samples/` (Google Docs, Microsoft Word, a CMS
/// article), converted to every output format, against golden files in `Goldens/`: what a reader
/// of the rendered page would call the same document, pinned. With `UPDATE_GOLDENS=1` the test
/// writes the goldens instead (review the diff before committing it).
@Suite("Sample goldens")
struct SampleGoldenTests {
    static let samples = ["gdocs-clipboard", "word-export", "cms-article"]
    static let formats: [(format: Format, suffix: String)] = [(.markupJSON, "json"), (.markdown, "md"), (.gfm, "gfm.md"), (.html, "html"), (.plainText, "txt")]

    @Test("Each sample in every format, with the diagnostics of reading it", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"),
          arguments: samples)
    func golden(sample: String) throws {
        let input = try #require(FileBytes.read(TestPaths.sharedData("samples/\(sample).html")))
        var options = ConversionOptions()
        options.prettyPrinted = true
        let converter = Converter(options: options)
        let read = try converter.read(input, from: .html)
        var outputs: [(name: String, bytes: [UInt8])] = [("\(sample).diagnostics.txt", Array(read.diagnostics.map { "\($0)\n" }.joined().utf8))]
        for (format, suffix) in Self.formats {
            let written = try converter.write(read.value, to: format)
            outputs.append(("\(sample).\(suffix)", written.value + Array(written.diagnostics.map { "<!-- \($0.code) -->\n" }.joined().utf8)))
        }
        for (name, bytes) in outputs {
            let path = TestPaths.tests("MarkbridgeCLITests/Goldens/" + name)
            if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                continue
            }
            let expected = try #require(FileBytes.read(path), "missing golden \(name): run with UPDATE_GOLDENS=1")
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(name)")
        }
    }
}
