import Foundation
import Testing
@testable import MarkbridgeMarkdown
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// The GFM reader holds to the CommonMark reader's guards, which it shares (size limit,
/// UTF-8 check, depth clamp, complexity guard), and answers cmark's pathological shapes, the
/// extensions' own (wide and long tables, tildes, bare URLs) and random mutations of GFM in
/// linear time, without trapping, every document satisfying the invariants. Part of the
/// hostile-input suite, which runs its tests one at a time.
extension MarkdownHostileInputTests {
    static func gfm(_ input: String) throws(ConversionError) -> Diagnosed<Document> {
        try MarkdownReader(options: .init(dialect: .gfm)).read(input)
    }

    static let gfmShapes: [(String, @Sendable (Int) -> String)] = [
        ("a wide table", { String(repeating: "| a ", count: $0) + "|\n" + String(repeating: "| - ", count: $0) + "|\n" + String(repeating: "| b ", count: $0) + "|\n" }),
        ("a long table", { "| a | b |\n| - | - |\n" + String(repeating: "| c | d |\n", count: $0) }),
        ("rows shorter than the header", { String(repeating: "| a ", count: 100) + "|\n" + String(repeating: "| - ", count: 100) + "|\n" + String(repeating: "x\n", count: $0) }),
        ("tilde runs", { String(repeating: "~~a ", count: $0) }),
        ("strike openers and closers", { String(repeating: "~a~~", count: $0) }),
        ("bare URLs", { String(repeating: "www.a.com/(", count: $0) }),
        ("email-like words", { String(repeating: "a@b.", count: $0) }),
        ("task boxes", { String(repeating: "- [ ] - [x] ", count: $0) + "a" }),
    ]

    @Test("GFM's own shapes: four times the input at most 8x the time, and read", .enabled(if: GFMAvailability.hasLibrary),
          arguments: gfmShapes.indices)
    func gfmLinear(shape: Int) throws {
        let (name, make) = Self.gfmShapes[shape]
        let read = try Self.gfm(make(16_000))
        #expect(read.value.invariantViolations().isEmpty, "\(name)")
        let ratios = LinearTime.ratios(small: Array(make(4_000).utf8), large: Array(make(16_000).utf8), limit: LinearTime.fourTimesBound, tries: 5) { bytes in
            _ = try? MarkdownReader(options: .init(dialect: .gfm)).read(bytes)
        }
        #expect(ratios.contains { $0 < LinearTime.fourTimesBound }, "\(name): ratios \(ratios)")
    }

    @Test("The CommonMark reader's guards guard GFM: size, UTF-8, the depth clamp, the complexity guard", .enabled(if: GFMAvailability.hasLibrary))
    func gfmGuards() throws {
        #expect(throws: ConversionError.self) { try MarkdownReader(options: .init(maxInputBytes: 4, dialect: .gfm)).read("| a |\n") }
        do {
            _ = try MarkdownReader(options: .init(maxInputBytes: 4, dialect: .gfm)).read("| a |\n")
        } catch {
            #expect(error.code == "input-too-large")
        }
        do {
            _ = try MarkdownReader(options: .init(dialect: .gfm)).read([0x7C, 0xFF, 0x7C])
            Issue.record("invalid UTF-8 was read")
        } catch {
            #expect(error.code == "invalid-utf8")
        }
        // A table too wide for cmark-gfm's quadratic column handling is read as its text.
        let wide = try Self.gfm("x\n\n" + String(repeating: "| a ", count: 1_001) + "|\n" + String(repeating: "| - ", count: 1_001) + "|\n")
        #expect(wide.diagnostics.map(\.code) == ["table-too-wide"])
        #expect(wide.diagnostics.first?.location.map { [$0.line, $0.column] } == [4, 1])
        #expect(wide.value.blocks.count == 2 && wide.value.blocks[1].kind == .paragraph)
        #expect(wide.value.blocks[1].text.utf8.count(where: { $0 == UInt8(ascii: "|") }) == 2 * 1_002)
        let narrow = try Self.gfm(String(repeating: "| a ", count: 1_000) + "|\n" + String(repeating: "| - ", count: 1_000) + "|\n")
        #expect(narrow.diagnostics.isEmpty)
        #expect(narrow.value.blocks.first?.tableCells.count == 1_000)
        for (name, make) in Self.guardShapes {
            do {
                _ = try Self.gfm(make(40_000))
                Issue.record("\(name) was read")
            } catch {
                #expect(error.code == "markdown-too-complex", "\(name)")
            }
        }
        for (name, make) in Self.clampedShapes {
            let read = try Self.gfm("Intro\n\n" + make(40_000))
            #expect(read.value.invariantViolations().isEmpty, "\(name)")
            #expect(read.diagnostics.filter { $0.code == "depth-clamped" }.count == 1, "\(name)")
        }
    }

    @Test("Random mutations of GFM never trap, and every read satisfies the invariants", .enabled(if: GFMAvailability.hasLibrary))
    func gfmFuzz() {
        let fragments = ["| a | b |\n", "| - | :-: |\n", "|", "\\|", "~~", "~", "- [ ] ", "- [x] ", "1. [X] ", "> ", "www.e.com ", "https://x.y/z ",
                         "a@b.cc ", "`|`", "<u>", "</u>", "<input type=\"checkbox\" checked>", "\n\n", "\n", "   ", "**", "_", "[", "](", ")", "é", "\u{0}", "\t"]
        var random = SeededRandom(seed: 22)
        var read = 0
        for _ in 0..<2_000 {
            var input = ""
            for _ in 0..<random.below(40) { input += random.pick(fragments) }
            guard let document = try? Self.gfm(input).value else { continue }
            read += 1
            let violations = document.invariantViolations()
            if !violations.isEmpty {
                Issue.record("\(input.debugDescription): \(violations)")
                return
            }
        }
        #expect(read > 1_900)
    }
}
