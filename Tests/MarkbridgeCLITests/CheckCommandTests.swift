import Markbridge
import MarkbridgeCLI
import MarkbridgeTestSupport
import Testing

@Suite("markbridge check")
struct CheckCommandTests {
    static let page = #"""
        <h1>Title</h1>
        <p style="text-align:center">Centred <span style="color:red">red</span> text.</p>
        <p>A <a href="javascript:alert(1)">bad link</a>.</p>
        """#

    @Test("What a migration to Markdown without HTML loses, in full: each step's diagnostics, the diff, the verdict")
    func text() {
        let files = MemoryFileSystem(files: ["page.html": Self.page])
        let result = run("check", "page.html", "--via", "markdown", "--markdown-html", "drop", files: files)
        #expect(result.exitCode == 1)
        #expect(result.standardOutputText == """
            page.html:3:6: warning: link on <a> dropped, its text kept: scheme 'javascript:' is not allowed [unsafe-url]
            page.html as markdown: warning: alignment of block 1 has no CommonMark syntax; dropped (--markdown-html drop) [alignment-dropped]
            page.html as markdown: warning: COLOR 8..<11 in block 1 has no CommonMark syntax; dropped (--markdown-html drop) [markup-dropped]
            --- page.html (read)
            +++ page.html via markdown (read back)
            @@ block 1 -> 1 (P) @@
            Centred red text.
              align: center -> (none)
              COLOR "red" removed
            1 block differs: 1 changed
            Fails the gate (fails on content,structure): content 1 (diagnostic unsafe-url 1); style 4 (attribute align changed 1, diagnostic alignment-dropped 1, diagnostic markup-dropped 1, markup COLOR removed 1).

            """)
    }

    @Test("With HTML kept the same page loses only what reading it lost; --fail-on chooses what counts")
    func failOn() {
        let files = MemoryFileSystem(files: ["page.html": Self.page])
        let kept = run("check", "page.html", "--via", "markdown", files: files)
        #expect(kept.exitCode == 1)
        #expect(kept.standardOutputText.hasSuffix("Fails the gate (fails on content,structure): content 1 (diagnostic unsafe-url 1).\n"))
        #expect(run("check", "page.html", "--via", "markdown", "--fail-on", "diff", files: files).exitCode == 0)
        #expect(run("check", "page.html", "--via", "markdown", "--fail-on", "unsafe-url", files: files).exitCode == 1)
        let dropped = run("check", "page.html", "--via", "markdown", "--markdown-html", "drop", "--fail-on", "unsafe-url", files: files)
        #expect(dropped.exitCode == 1)
        #expect(run("check", "page.html", "--via", "markdown", "--markdown-html", "drop", "--fail-on", "none", files: files).exitCode == 0)
        let clean = MemoryFileSystem(files: ["clean.md": "# Title\n\nSome *text*.\n"])
        #expect(run("check", "clean.md", "--via", "json", files: clean) == CommandResult(exitCode: 0, standardOutput: Array("Nothing lost.\n".utf8)))
    }

    @Test("As JSON: each diagnostic with its step and place, then the diff")
    func json() {
        let files = MemoryFileSystem(files: ["page.html": Self.page])
        let result = run("check", "page.html", "--via", "markdown", "--markdown-html", "drop", "--format", "json", files: files)
        #expect(result.exitCode == 1)
        let text = result.standardOutputText
        #expect(text.hasPrefix(#"{"version":1,"file":"page.html","via":"markdown","lost":true,"gate":"content,structure","losses":[{"class":"diagnostic unsafe-url","key":"unsafe-url","severity":"content","block":null,"detail":"link on <a> dropped, its text kept: scheme 'javascript:' is not allowed"},"#))
        #expect(text.contains(##"{"class":"markup COLOR removed","key":"markup-color-removed","severity":"style","block":1,"detail":"#FF0000 over \"red\""}],"diagnostics":[{"step":"read","file":"page.html","line":3,"column":6,"##))
        #expect(text.contains(#"{"step":"write","file":"page.html as markdown","block":1,"severity":"warning","code":"alignment-dropped","#))
        #expect(text.contains(#""diff":{"version":1,"old":"page.html (read)","new":"page.html via markdown (read back)","same":false,"#))
    }

    @Test("A format that cannot be read back cannot be checked")
    func writtenOnly() {
        let registry = FormatRegistry([.html, .writtenOnly])
        let result = MarkbridgeCommandLine.run(["check", "page.html", "--via", "shout"], io: MemoryFileSystem(files: ["page.html": "<p>x</p>"]).io, registry: registry)
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("Error: Cannot check a conversion to 'shout' (expected a format that is written and read back: html)\n"))
        #expect(run("check", "page.html", files: MemoryFileSystem(files: ["page.html": "<p>x</p>"])).exitCode == 2)
    }

    /// Each sample, via Markdown (HTML kept, then dropped) and via JSON: the diagnostic codes of
    /// the steps after reading, with counts, and the diff's summary. Reading's own losses are
    /// the HTML reader's tests' business; these are what the migration adds.
    static let expectedLosses: [(sample: String, via: String, dropsHTML: Bool, losses: [String: Int], diff: String)] = [
        ("article-ru.html", "markdown", false, [:], "0 0 0 0"),
        ("article-ru.html", "markdown", true, ["write emphasis-dropped": 1, "write markup-dropped": 4], "4 0 0 0"),
        ("article-ru.html", "json", false, [:], "0 0 0 0"),
        ("cms-article.html", "markdown", false, [:], "0 0 0 0"),
        // Without HTML: the image caption goes, the frame and the video become links, the
        // table's rows and the definition list's terms and definitions paragraphs, and the
        // heading's anchor (its id) goes.
        ("cms-article.html", "markdown", true, ["write anchor-dropped": 1, "write block-dropped": 1, "write embed-dropped": 2, "write table-flattened": 1,
                                                "write flattened-definition-list": 1], "11 0 1 0"),
        ("cms-article.html", "json", false, [:], "0 0 0 0"),
        ("consent-ja.html", "markdown", true, ["write emphasis-dropped": 1, "write line-break-dropped": 1, "write markup-dropped": 2], "1 0 0 0"),
        ("consent-zh.html", "markdown", true, ["write emphasis-dropped": 1, "write line-break-dropped": 1, "write markup-dropped": 2], "1 0 0 0"),
        ("gdocs-clipboard.html", "markdown", false, [:], "0 0 0 0"),
        ("gdocs-clipboard.html", "markdown", true, ["write markup-dropped": 4, "write table-flattened": 1], "5 0 0 0"),
        ("gdocs-clipboard.html", "json", false, [:], "0 0 0 0"),
        ("tolerant.html", "markdown", true, ["write line-break-dropped": 1], "1 0 0 0"),
        ("word-export.html", "markdown", true, ["write alignment-dropped": 1, "write markup-dropped": 1], "2 0 0 0"),
        ("word-export.html", "json", false, [:], "0 0 0 0"),
        // Its STRONG ends and its EM begins on a space, which JSON keeps and Markdown cannot mark.
        ("overlapping-markups.json", "markdown", false, ["write markup-range-adjusted": 2], "1 0 0 0"),
        ("overlapping-markups.json", "markdown", true, ["write emphasis-dropped": 1, "write markup-range-adjusted": 2], "1 0 0 0"),
        ("overlapping-markups.json", "json", false, [:], "0 0 0 0"),
    ]

    @Test("The shared samples: what each migration loses, exactly", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func samples() throws {
        for expected in Self.expectedLosses {
            let bytes = try #require(FileBytes.read(TestPaths.sharedData("samples/" + expected.sample)))
            var options = ConversionOptions()
            options.markdownHTML = expected.dropsHTML ? .drop : .keep
            let source: Format = expected.sample.hasSuffix(".json") ? .markupJSON : .html
            let target: Format = expected.via == "json" ? .markupJSON : .markdown
            let check = try Converter(options: options).check(bytes, from: source, via: target)
            var losses: [String: Int] = [:]
            for diagnostic in check.writeDiagnostics { losses["write " + diagnostic.code, default: 0] += 1 }
            for diagnostic in check.readBackDiagnostics { losses["read-back " + diagnostic.code, default: 0] += 1 }
            var counts = [0, 0, 0, 0]
            for change in check.diff.changes {
                switch change {
                case .changed: counts[0] += 1
                case .inserted: counts[1] += 1
                case .deleted: counts[2] += 1
                case .moved: counts[3] += 1
                }
            }
            let label = "\(expected.sample) via \(expected.via)\(expected.dropsHTML ? " (HTML dropped)" : "")"
            #expect(losses == expected.losses, "\(label)")
            #expect(counts.map(String.init).joined(separator: " ") == expected.diff, "\(label)")
        }
    }
}
