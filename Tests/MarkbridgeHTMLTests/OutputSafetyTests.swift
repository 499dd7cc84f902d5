@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeText
import MarkbridgeTestSupport

/// No `<script>` content and no unsafe URL reaches any output, whatever the input.
@Suite("HTML reader: nothing unsafe gets through")
struct OutputSafetyTests {
    static let payloads = [
        "<script>alert('S1')</script>", "<a href=\"javascript:alert('S2')\">x</a>", "<img src=x onerror=\"alert('S3')\">",
        "<a href=\" jav&#x09;ascript:alert('S4')\">y</a>", "<iframe src=\"javascript:alert('S5')\"></iframe>",
        "<svg><a xlink:href=\"javascript:alert('S6')\">z</a><script>alert('S7')</script></svg>",
        "<style>body{background:url(javascript:alert('S8'))}</style>", "<a href=\"vbscript:msgbox('S9')\">w</a>",
        "<object data=\"javascript:alert('S10')\"></object>", "<a href=\"data:text/html,<script>alert('S11')</script>\">v</a>",
    ]

    @Test("Generated HTML with hostile payloads: no payload in JSON, HTML or text output")
    func hostile() throws {
        var generator = HTMLCorpusGenerator(seed: 11)
        var random = SeededRandom(seed: 12)
        for _ in 0..<100 {
            // Payloads go between blocks, where they are parsed as the markup they are (inside an
            // attribute value they would only be text, which is harmless and kept).
            var lines = generator.fragment(approximateBytes: 600).split(separator: "\n").map(String.init)
            for _ in 0..<3 { lines.insert(random.pick(Self.payloads), at: random.below(lines.count + 1)) }
            let html = lines.joined(separator: "\n")
            let document = try HTMLReader(options: .init(parser: .init(repairsInvalidUTF8: true))).read(html).value
            let outputs = [try MarkupJSONWriter().write(document).value, try HTMLWriter().write(document).value, try PlainTextWriter().write(document).value]
            for output in outputs.map({ String(decoding: $0, as: UTF8.self) }) {
                #expect(!output.contains("alert("), "\(output)")
                #expect(!output.lowercased().contains("javascript:"))
                #expect(!output.lowercased().contains("vbscript:"))
                #expect(!output.contains("<script"))
                #expect(!output.contains("onerror"))
            }
        }
    }
}
