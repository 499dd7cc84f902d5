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
        for file in files where !file.hasSuffix("DiagnosticCodes.swift") && !file.hasPrefix("MarkbridgeBench") {
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

    @Test("check --fail-on refuses a code Markbridge does not have, naming the nearest")
    func failOnUnknownCode() {
        let files = MemoryFileSystem(files: ["page.html": "<p>x</p>"])
        let result = run("check", "page.html", "--via", "markdown", "--fail-on", "unsafe-urls", files: files)
        // check's usage errors are trouble: exit 2.
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("Error: Unknown diagnostic code 'unsafe-urls' for --fail-on (did you mean 'unsafe-url'? `markbridge help codes` lists them)"))
        #expect(run("check", "page.html", "--via", "markdown", "--fail-on", "unsafe-url,table-flattened", files: files).exitCode == 0)
    }

    @Test("help codes lists every code with its kind and meaning")
    func helpCodes() {
        let result = run("help", "codes")
        #expect(result.exitCode == 0)
        let lines = result.standardOutputText.split(separator: "\n")
        for code in DiagnosticCode.all {
            #expect(lines.contains { $0.hasPrefix("  \(code.code) ") && $0.contains(code.summary) }, "\(code.code)")
        }
    }
}
