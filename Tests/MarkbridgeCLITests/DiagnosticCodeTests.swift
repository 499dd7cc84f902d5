import Foundation
import Markbridge
import MarkbridgeTestSupport
import Testing

/// The registry of codes against the sources: every code the code reports is listed, every
/// listed code is reported somewhere, so neither can drift from the other.
@Suite("Diagnostic codes")
struct DiagnosticCodeTests {
    /// Codes as the sources raise them: `.warning("x"`, `.note("x"`, `diagnose("x"`,
    /// `code: "x"` (or `code: test ? "x" : ...`), `failure("x"`, a batch's `deadLetter("x"`.
    static func codesInSources() throws -> Set<String> {
        let root = TestPaths.repositoryRoot + "/Sources"
        let pattern = try NSRegularExpression(pattern: #"(\.warning\(|\.note\(|diagnose\(|failure\(|deadLetter\(|deadLetter\((?:path: )?[a-z]+, |code: |code: [a-zA-Z]+ \? )"([a-z0-9]+(-[a-z0-9]+)*)""#)
        var codes: Set<String> = []
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files where !file.hasSuffix("DiagnosticCodes.swift") && !file.hasSuffix("Markbridge/Codes.swift") && !file.hasPrefix("MarkbridgeBench") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 2), in: text) { codes.insert(String(text[range])) }
            }
        }
        // The diff's attribute names pass through a helper named `note` too.
        codes.remove("type")
        return codes
    }

    @Test("Every code the sources report is in the registry, and every registered code is reported")
    func registryMatchesSources() throws {
        let used = try Self.codesInSources()
        let registered = Set(DiagnosticCode.all.map(\.code))
        #expect(used.subtracting(registered).sorted() == [], "reported but not registered")
        #expect(registered.subtracting(used).sorted() == [], "registered but never reported")
        #expect(DiagnosticCode.all.count == registered.count, "a code listed twice")
    }

    @Test("Codes are enums with a category: errors never count as loss, diagnostics never as bad input")
    func categories() throws {
        for code in ErrorCode.allCases { #expect(code.category != .loss, "\(code)") }
        let besideResults: Set<DiagnosticCode.Category> = [.loss, .overLimit, .refusedByPolicy]
        for code in DiagnosticCodeName.allCases { #expect(besideResults.contains(code.category), "\(code)") }
        #expect(DiagnosticCode.all.count == ErrorCode.allCases.count + DiagnosticCodeName.allCases.count)
        #expect(DiagnosticCode.named("timeout")?.category == .stopped)
    }

    @Test("A service maps what a conversion throws and reports by category, exhaustively")
    func categoriesOfRealOutcomes() throws {
        func status(_ error: ConversionError) -> Int {
            switch error.category {
            case .badInput: 400
            case .overLimit: 413
            case .refusedByPolicy: 403
            case .stopped: 503
            case .unavailable: 500
            case .loss: 200
            }
        }
        let converter = Converter(options: .init(limits: ConversionLimits(maxInputBytes: 64)))
        do { _ = try converter.convert(#"{"paragraphs":[}"#, from: .markupJSON, to: .html); Issue.record("read") } catch {
            #expect(error.errorCode == .invalidJSON)
            #expect(status(error) == 400)
        }
        do { _ = try converter.convert(String(repeating: "a", count: 100), from: .markdown, to: .html); Issue.record("read") } catch {
            #expect(error.errorCode == .inputTooLarge)
            #expect(status(error) == 413)
        }
        #expect(ConversionError(code: "a-code-of-my-own", message: "").category == .badInput)
        let read = try Converter().convert(#"<p style="font-size:9px"><a href="javascript:x">a</a></p>"#, from: .html, to: .markdown)
        #expect(read.diagnostics.map(\.codeName) == [.droppedStyle, .unsafeURL])
        #expect(read.diagnostics.map(\.category) == [.loss, .refusedByPolicy])
    }

    @Test("check --fail-on refuses a code Markbridge does not have, naming the nearest")
    func failOnUnknownCode() {
        let files = MemoryFileSystem(files: ["page.html": "<p>x</p>"])
        let result = run("check", "page.html", "--via", "markdown", "--fail-on", "unsafe-urls", files: files)
        // check's usage errors are trouble: exit 2.
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("Error: Unknown class 'unsafe-urls' for --fail-on (did you mean 'unsafe-url'? expected a severity: content, structure, style, info;"))
        #expect(run("check", "page.html", "--via", "markdown", "--fail-on", "unsafe-url,table-flattened", files: files).exitCode == 0)
    }

    @Test("help codes lists every code with its kind and meaning")
    func helpCodes() {
        let result = run("help", "codes")
        #expect(result.exitCode == 0)
        let lines = result.standardOutputText.split(separator: "\n")
        for code in DiagnosticCode.all {
            #expect(lines.contains { $0.hasPrefix("  \(code.code) ") && $0.contains(code.summary) && $0.contains(" \(code.severity?.rawValue ?? "") ") }, "\(code.code)")
        }
    }
}
