import Foundation
import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
@testable import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// The GFM spec's extension examples (`example table`, `strikethrough`, `autolink`, and the
/// task list examples, which the spec marks `disabled` since its own runner leaves that
/// extension off), read with `--from gfm` and written with our HTML writer. Two figures: the IR
/// our HTML reader makes of that is the IR it makes of cmark-gfm's own rendering of the example
/// (with the same four extensions), and of the spec's expected HTML. Each example that differs
/// from cmark-gfm is listed with its reason in `Conformance/gfm-exceptions.txt`.
@Suite("GFM spec extensions", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"),
       .enabled(if: GFMAvailability.hasLibrary, "cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev)"),
       .enabled(if: GFMWriterTests.cmarkGFM != nil, "cmark-gfm is not installed (apt-get install cmark-gfm)"))
struct GFMSpecTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let number: Int
        let extensionName: String
        let markdown: String
        let html: String
        var testDescription: String { "example \(number) (\(extensionName))" }
    }

    static let extensionNames: Set<String> = ["table", "strikethrough", "autolink", "tasklist"]

    static let examples: [Example] = {
        guard let text = try? String(contentsOfFile: TestPaths.sharedData("gfm-spec.txt"), encoding: .utf8) else { return [] }
        let fence = String(repeating: "`", count: 32)
        var examples: [Example] = []
        var number = 0
        var section = ""
        var lines = text.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            if line.hasPrefix("#") { section = line }
            guard line.hasPrefix(fence + " example") else { continue }
            number += 1
            var name = line.dropFirst(fence.count + " example".count).trimmingCharacters(in: .whitespaces)
            // The task list examples are the spec's only disabled ones.
            if name == "disabled" && section.contains("Task list items") { name = "tasklist" }
            var markdown: [String] = [], html: [String] = [], inHTML = false
            while let body = lines.popFirst(), body != fence {
                if body == "." && !inHTML { inHTML = true; continue }
                if inHTML { html.append(body) } else { markdown.append(body) }
            }
            guard extensionNames.contains(name) else { continue }
            func untab(_ lines: [String]) -> String { lines.joined(separator: "\n").replacingOccurrences(of: "→", with: "\t") }
            examples.append(Example(number: number, extensionName: name, markdown: untab(markdown) + "\n", html: untab(html)))
        }
        return examples
    }()

    static let exceptions: [Int: String] = {
        guard let text = try? String(contentsOfFile: TestPaths.tests("MarkbridgeMarkdownTests/Conformance/gfm-exceptions.txt"), encoding: .utf8) else { return [:] }
        var out: [Int: String] = [:]
        for line in text.components(separatedBy: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let parts = line.components(separatedBy: "  # ")
            if let number = Int(parts[0].trimmingCharacters(in: .whitespaces)) { out[number] = parts.dropFirst().joined() }
        }
        return out
    }()

    /// cmark-gfm's rendering with the four extensions `--from gfm` reads.
    static func oracle(_ markdown: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GFMWriterTests.cmarkGFM))
        process.arguments = GFMLibrary.extensionNames.flatMap { ["--extension", $0] }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// HTML as the IR: what our HTML reader makes of it, URLs percent-decoded (cmark-gfm
    /// encodes them; the IR keeps them as written).
    static func ir(_ html: String) throws -> Document {
        GFMWriterTests.normalizingURLs(try HTMLReader().read(html).value)
    }

    static func ours(_ markdown: String) throws -> String {
        let read = try MarkdownReader(options: .init(dialect: .gfm)).read(markdown)
        #expect(read.value.invariantViolations().isEmpty)
        return String(decoding: try HTMLWriter().write(read.value).value, as: UTF8.self)
    }

    @Test("The spec's extension examples are there: 8 table, 2 strikethrough, 11 autolink, 2 task list")
    func loaded() {
        let counts = Dictionary(grouping: Self.examples, by: \.extensionName).mapValues(\.count)
        #expect(counts == ["table": 8, "strikethrough": 2, "autolink": 11, "tasklist": 2])
    }

    @Test("Each example reads as cmark-gfm renders it, but for those listed; the rates are printed")
    func conformance() throws {
        var matchesOracle = 0, matchesSpec = 0
        var unexpected: [String] = [], unexpectedPasses: [Int] = []
        for example in Self.examples {
            let ours = try Self.ir(try Self.ours(example.markdown))
            let oracle = try Self.ir(try Self.oracle(example.markdown))
            let isMatch = ours == oracle
            if isMatch { matchesOracle += 1 }
            if ours == (try Self.ir(example.html)) { matchesSpec += 1 }
            let listed = Self.exceptions[example.number] != nil
            if !isMatch && !listed { unexpected.append("\(example.testDescription):\n\(example.markdown)ours:   \(ours.blocks)\noracle: \(oracle.blocks)") }
            if isMatch && listed { unexpectedPasses.append(example.number) }
        }
        let count = Self.examples.count
        func percent(_ value: Int) -> String { String(format: "%.1f", Double(value) * 100 / Double(max(count, 1))) }
        print("GFM spec extensions (table, strikethrough, autolink, tasklist): IR equal to cmark-gfm's rendering \(matchesOracle) of \(count) (\(percent(matchesOracle))%); to the spec's HTML \(matchesSpec) of \(count) (\(percent(matchesSpec))%)")
        #expect(count == 23)
        #expect(unexpected.isEmpty, "\(unexpected.count) examples differ and are not listed:\n\(unexpected.joined(separator: "\n"))")
        #expect(unexpectedPasses.isEmpty, "listed but now equal; remove them: \(unexpectedPasses)")
    }
}
