import Foundation
import Testing
import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// Linear time, by the ratio of the time for 2n to the time for n (never absolute times): a
/// quadratic parser takes four times as long, a linear one about twice.
@Suite("HTML parser: linear time on hostile shapes", .serialized)
struct ParserScalingTests {
    static let shapes: [(String, @Sendable (Int) -> String)] = [
        ("nested <b>", { String(repeating: "<b>", count: $0) + "x" }),
        ("nested <div>", { String(repeating: "<div>", count: $0) + "x" }),
        ("nested <b><i> then <div>s (Outlook)", { String(repeating: "<b><i>", count: $0 / 2) + "x" + String(repeating: "<div>", count: $0 / 2) }),
        ("siblings", { String(repeating: "<p>a</p>", count: $0) }),
        ("nested <span> then stray end tags", { String(repeating: "<span>", count: $0) + String(repeating: "</x>", count: $0) }),
        ("misnested formatting with attributes", { (0..<$0).map { "<p><b id=\($0)>x" }.joined() }),
        ("foster-parented text around cells", { "<table>" + String(repeating: "<td>x</td>a", count: $0) }),
        ("unclosed comment", { "<!--" + String(repeating: "a", count: $0 * 10) }),
        ("'<' runs", { String(repeating: "<", count: $0 * 4) + "\u{0}" }),
        ("CDATA-like runs", { String(repeating: "a <![CDATA[", count: $0 / 2) }),
        ("tabs in a paragraph", { "<p>" + String(repeating: "\t", count: $0 * 4) + "</p>" }),
        ("NUL, space, tabs, vertical tab", { "\u{0} " + String(repeating: "\t", count: $0 * 4) + "\u{B}" }),
        ("processing-instruction-like runs", { String(repeating: "a <? ", count: $0 / 2) }),
        ("bogus-comment-like runs", { String(repeating: "a <!A", count: $0 / 2) }),
        ("one element, many attributes", { "<p " + (0..<$0).map { "a\($0)=1" }.joined(separator: " ") + ">" }),
        ("repeated <html> tags, each adding an attribute", { "<p>x</p>" + (0..<$0).map { "<html a\($0)=1>" }.joined() }),
    ]

    @Test("A1, A2, A21, A22, A24: doubling the input at most 2.5x's the time", arguments: shapes.indices)
    func linear(shape: Int) throws {
        let (name, make) = Self.shapes[shape]
        // A parse that throws stops early and would time as linear: it fails the test instead.
        var failure: (any Error)?
        let ratios = LinearTime.ratios(small: Array(make(10_000).utf8), large: Array(make(20_000).utf8)) { bytes in
            do {
                _ = try HTMLParser().parseFragment(bytes)
            } catch {
                failure = error
            }
        }
        #expect(failure == nil, "\(name): the parse threw")
        #expect(ratios.contains { $0 < 2.5 }, "\(name): time ratios for 2n against n were \(ratios)")
    }

    @Test("A1, A2, A24: 100,000 nested <b> and <div>, and 100,000 siblings, parse without a crash")
    func hundredThousand() throws {
        for input in [String(repeating: "<b>", count: 100_000) + "x", String(repeating: "<div>", count: 100_000) + "x",
                      String(repeating: "<p>a</p>", count: 100_000)] {
            let parsed = try HTMLParser().parseFragment(Array(input.utf8))
            #expect(parsed.value.html5libDump().contains("x\"") || input.hasPrefix("<p>"))
        }
    }
}
