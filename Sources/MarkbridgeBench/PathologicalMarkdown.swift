import Foundation
import Markbridge

/// cmark's own pathological inputs (`test/pathological_tests.py` in commonmark/cmark) at the
/// suite's sizes, and the shapes the linked cmark takes quadratic time on, each converted from
/// Markdown to markup JSON: every one must be read in under 4 s (cmark's own limit) or refused
/// in under half a second.
enum PathologicalMarkdown {
    static let readLimit = 4.0
    static let refusalLimit = 0.5

    static let shapes: [(name: String, make: @Sendable () -> String)] = [
        ("nested strong emph", { String(repeating: "*a **a ", count: 65_000) + "b" + String(repeating: " a** a*", count: 65_000) }),
        ("many emph closers with no openers", { String(repeating: "a_ ", count: 65_000) }),
        ("many emph openers with no closers", { String(repeating: "_a ", count: 65_000) }),
        ("many link closers with no openers", { String(repeating: "a]", count: 65_000) }),
        ("many link openers with no closers", { String(repeating: "[a", count: 65_000) }),
        ("mismatched openers and closers", { String(repeating: "*a_ ", count: 50_000) }),
        ("openers and closers multiple of 3", { "a**b" + String(repeating: "c* ", count: 50_000) }),
        ("link openers and emph closers", { String(repeating: "[ a_", count: 50_000) }),
        ("hard link/emph case", { "**x [a*b**c*](d)" }),
        ("nested brackets", { String(repeating: "[", count: 50_000) + "a" + String(repeating: "]", count: 50_000) }),
        ("nested block quotes", { String(repeating: "> ", count: 50_000) + "a" }),
        ("deeply nested lists", { (0..<1_000).map { String(repeating: "  ", count: $0) + "* a\n" }.joined() }),
        ("U+0000 in input", { "abc\u{0}de\u{0}" }),
        ("backticks", { (1..<10_000).map { "e" + String(repeating: "`", count: $0) }.joined() }),
        ("unclosed links A", { String(repeating: "[a](<b", count: 50_000) }),
        ("unclosed links B", { String(repeating: "[a](b", count: 50_000) }),
        ("many references", { (1..<(50_000 * 16)).map { "[\($0)]: u\n" }.joined() + String(repeating: "[0] ", count: 50_000) }),
        ("pattern ![[]() repeated", { String(repeating: "![[]()", count: 160_000) }),
        ("nested items, a quote and a fence, then blank lines", { String(repeating: " -", count: 40_000) + " > ```" + String(repeating: "\n", count: 40_000) }),
        ("nested items then blank lines", { String(repeating: " -", count: 40_000) + " a" + String(repeating: "\n", count: 40_000) }),
        ("items nested by indentation, then blank lines", { (0..<1_000).map { String(repeating: "  ", count: $0) + "- a\n" }.joined() + String(repeating: "\n", count: 20_000) }),
        ("emphasis in a deep quote", { String(repeating: ">", count: 100_000) + String(repeating: "a*", count: 100_000) }),
        ("emphasis in a deep quote, markers spaced", { String(repeating: "> ", count: 100_000) + String(repeating: "a*", count: 100_000) }),
        ("emphasis in deeply nested items", { String(repeating: "- ", count: 50_000) + String(repeating: "a*", count: 100_000) }),
    ]

    static let header = "pathological Markdown -> markup JSON\tbytes\tseconds\toutcome"

    /// Runs every shape and prints a line for each; false when one took longer than its limit.
    static func runAll() -> Bool {
        print(header)
        var passed = true
        for shape in shapes {
            let input = Array(shape.make().utf8)
            let start = Measurement.now()
            let outcome: String
            let limit: Double
            do {
                let converted = try Converter().convert(input, from: .markdown, to: .markupJSON)
                let codes = Set(converted.diagnostics.map(\.code)).sorted()
                outcome = "read" + (codes.isEmpty ? "" : " (\(codes.joined(separator: ", ")))")
                limit = readLimit
            } catch {
                outcome = "refused (\(error.code))"
                limit = refusalLimit
            }
            let seconds = Measurement.now() - start
            let verdict = seconds < limit ? "" : "\tTOO SLOW (limit \(limit) s)"
            if seconds >= limit { passed = false }
            print("\(shape.name)\t\(input.count)\t\(String(format: "%.3f", seconds))\t\(outcome)\(verdict)")
        }
        return passed
    }
}
