import Foundation
import Testing
@testable import MarkbridgeMarkdown
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// The two shapes on which the linked cmark (0.30.2) takes quadratic time: nesting opened on one
/// line is cut to the IR's depth before parsing and read, flattened and reported; what is left
/// (stray image openers, nesting built a line at a time) is refused before parsing, in linear
/// time, with an error that names it. Real documents stay far below the budget, and the
/// shapes' near misses are still read. Part of the hostile-input suite, which runs its tests one
/// at a time: timing tests beside heavy ones measure the machine.
extension MarkdownHostileInputTests {
    static let guardShapes: [(String, @Sendable (Int) -> String)] = [
        ("![[]() repeated (cmark's pathological test)", { String(repeating: "![[]()", count: $0) }),
        ("image openers, then links on the next line", { String(repeating: "![", count: $0) + "\n" + String(repeating: "[]()", count: $0) }),
        ("a link inside every unclosed image's alt text", { String(repeating: "![a [b](c) ", count: $0) }),
    ]

    /// Nesting opened on one line: each is read, its markers past the IR's depth cut first.
    static let clampedShapes: [(String, @Sendable (Int) -> String)] = [
        ("nested list items, a quote and a fence, then blank lines (GHSA-66g8-4hjf-77xh)", { String(repeating: " -", count: $0) + " > ```" + String(repeating: "\n", count: $0) }),
        ("nested list items then blank lines", { String(repeating: " -", count: $0) + " a" + String(repeating: "\n", count: $0) }),
        ("ordered items nested on one line then blank lines", { String(repeating: "1. ", count: $0) + "a" + String(repeating: "\n", count: $0) }),
        ("a quote of nested items continued by '>' lines", { "> " + String(repeating: " -", count: $0) + " a" + String(repeating: "\n>", count: $0) }),
        ("emphasis in a deep quote", { String(repeating: ">", count: $0) + String(repeating: "a*", count: $0) }),
        ("emphasis in a deep quote, markers spaced", { String(repeating: "> ", count: $0) + String(repeating: "a*", count: $0) }),
        ("emphasis in deeply nested items", { String(repeating: "- ", count: $0) + String(repeating: "a*", count: $0) }),
    ]

    /// Nesting built a line at a time costs input quadratic in the depth, so it has no
    /// linear-time test; at size it is refused like the rest.
    static let indentedNesting = (0..<1_000).map { String(repeating: "  ", count: $0) + "- a\n" }.joined() + String(repeating: "\n", count: 20_000)

    /// The scan stops where the budget runs out, often within the first kilobytes, so a refusal
    /// can take microseconds, where a busy machine's noise decides a ratio: under a millisecond
    /// for the larger input passes too (cmark alone takes seconds on these shapes).
    @Test("B1 (exception): cmark's quadratic shapes, four times the input at most 8x the time (refused quickly, not parsed slowly)", arguments: guardShapes.indices)
    func guardLinear(shape: Int) {
        let (name, make) = Self.guardShapes[shape]
        let large = Array(make(80_000).utf8)
        let ratios = LinearTime.ratios(small: Array(make(20_000).utf8), large: large, limit: LinearTime.fourTimesBound, tries: 5) { bytes in
            _ = try? MarkdownReader().read(bytes)
        }
        let start = LinearTime.threadSeconds()
        _ = try? MarkdownReader().read(large)
        let largeSeconds = LinearTime.threadSeconds() - start
        #expect(ratios.contains { $0 < LinearTime.fourTimesBound } || largeSeconds < 0.001, "\(name): ratios \(ratios), \(largeSeconds) s for the larger input")
    }

    @Test("B1 (exception): cmark's quadratic shapes at size are refused as too complex", arguments: guardShapes.indices.map(Optional.some) + [nil])
    func guardRefused(shape: Int?) throws {
        let (name, input) = shape.map { (Self.guardShapes[$0].0, Self.guardShapes[$0].1(40_000)) } ?? ("items nested by indentation, then blank lines", Self.indentedNesting)
        do {
            _ = try MarkdownReader().read(input)
            Issue.record("\(name) was read")
        } catch {
            #expect(error.code == "markdown-too-complex", "\(name)")
        }
    }

    @Test("The errors name the shape, where it starts, and what to do")
    func guardMessages() throws {
        #expect(throws: ConversionError(code: "markdown-too-complex",
            message: "Markdown refused: 5824 image openers ('![') from here on stay open in one paragraph while links close after them, on which the linked cmark (\(CmarkVersion.string)) takes quadratic time; escape the '!' (as '\\!') or close the images",
            at: SourceLocation(line: 3, column: 1, byteOffset: 5))) {
            try MarkdownReader().read("# T\n\n" + String(repeating: "![[]()", count: 20_000))
        }
        #expect(throws: ConversionError(code: "markdown-too-complex",
            message: "Markdown refused: list items or quotes nested 2000 columns deep on this line stay open across 12093 blank lines, on which the linked cmark (\(CmarkVersion.string)) takes quadratic time; flatten the nesting or remove the blank lines",
            at: SourceLocation(line: 1001, column: 1, byteOffset: 1_001_000))) {
            try MarkdownReader().read("a\n" + Self.indentedNesting)
        }
    }

    @Test("Near misses are read: the same shapes small, images that close, escaped openers, nesting without blank lines")
    func guardNearMisses() throws {
        let accepted = [
            String(repeating: "![[]()", count: 500),
            String(repeating: "![a [b](c) d](e.png) ", count: 20_000),
            String(repeating: "\\![[]()", count: 20_000),
            String(repeating: " -", count: 40_000) + " a\nb\n",
            String(repeating: "> ", count: 50_000) + "a\n" + String(repeating: "b\n", count: 50_000),
            String(repeating: "- a\n\n", count: 100_000),
        ]
        for markdown in accepted {
            #expect(throws: Never.self) { try MarkdownReader().read(markdown) }
        }
    }

    @Test("Real documents stay below a hundredth of the budget: the CommonMark spec, generated documents",
          .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func guardRealDocuments() throws {
        var inputs = [try #require(FileBytes.read(TestPaths.sharedData("commonmark-spec.txt")))]
        var generator = DocumentGenerator(seed: 5, profile: .realistic)
        for _ in 0..<20 { inputs.append(try MarkdownWriter().write(generator.document(blockCount: 400)).value) }
        for bytes in inputs {
            let estimate = MarkdownComplexityGuard.Estimate(bytes, stoppingPast: .max)
            let budget = MarkdownComplexityGuard.budget(forInputOf: bytes.count)
            #expect(estimate.exceeded == nil)
            #expect(estimate.containers.cost * 100 < budget, "container estimate \(estimate.containers.cost) of \(budget)")
            #expect(estimate.brackets.cost * 100 < budget, "bracket estimate \(estimate.brackets.cost) of \(budget)")
        }
    }
}
