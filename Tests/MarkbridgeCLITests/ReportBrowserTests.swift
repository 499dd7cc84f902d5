import Foundation
@testable import MarkbridgeCLI
@testable import MarkbridgeMigration
import Testing

/// The `--report` page in a real browser: Debian's headless Chromium loads it, and the test reads
/// the DOM it built and the screenshot it took. `.ci/browser` installs Chromium and runs this.
@Suite("Diff report in a browser", .enabled(if: Chromium.path != nil, "chromium is not installed (.ci/browser installs it)"))
struct ReportBrowserTests {
    static let old = #"""
        {"paragraphs":[
          {"type":"H1","text":"Release notes"},
          {"type":"P","text":"The quick brown fox <script>document.title='pwned'</script> jumps.","markups":[{"type":"STRONG","start":4,"end":9}]},
          {"type":"P","text":"Click here to read more","markups":[{"type":"LINK","start":6,"end":10,"href":"https://a.example/"}]},
          {"type":"P","text":"我喜欢猫。"},
          {"type":"P","text":"Unchanged at the end."}
        ]}
        """#
    static let new = #"""
        {"paragraphs":[
          {"type":"H1","text":"Release notes"},
          {"type":"P","text":"The slow brown fox <img src=x onerror=alert(1)> jumps.","markups":[{"type":"EM","start":4,"end":8}]},
          {"type":"P","text":"Click here to read more","markups":[{"type":"LINK","start":6,"end":10,"href":"javascript:alert(1)"}]},
          {"type":"P","text":"我喜欢狗。"},
          {"type":"P","text":"A paragraph that is new."},
          {"type":"P","text":"Unchanged at the end."}
        ]}
        """#

    @Test("The page renders both sides with the changes highlighted, runs nothing, and screenshots at its size")
    func rendersInChromium() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("old.json").path, b = folder.appendingPathComponent("new.json").path
        let page = folder.appendingPathComponent("report.html").path
        try Self.old.write(toFile: a, atomically: true, encoding: .utf8)
        try Self.new.write(toFile: b, atomically: true, encoding: .utf8)
        let result = MarkbridgeCommandLine.run(["diff", a, b, "--report", page], io: .process)
        #expect(result.exitCode == 1)

        let dom = try Chromium.run(["--dump-dom", "file://" + page])
        // The title the page set, not one a script from the content set.
        #expect(dom.contains("<title>markbridge diff: \(a) → \(b)</title>"))
        #expect(!dom.contains("pwned</title>"))
        // Nothing from the documents became an element: no script, no image, no javascript: link.
        #expect(!dom.contains("<script"))
        #expect(!dom.contains("<img"))
        #expect(!dom.contains("javascript:alert"))
        // Changed words highlighted on both sides, in the cells of the changed block.
        #expect(dom.contains(#"<td class="old" id="old-1">"#))
        #expect(dom.contains("<mark>quick</mark>"))
        #expect(dom.contains("<mark>slow</mark>"))
        #expect(dom.contains("&lt;<mark>script&gt;document.title</mark>=<mark>'pwned'&lt;/script</mark>&gt;"))
        #expect(dom.contains("<mark>猫</mark>"))
        #expect(dom.contains("<mark>狗</mark>"))
        // The reader refused the javascript: link: its loss is listed under the block, and the
        // diagnostic links to the block it names.
        #expect(dom.contains("<code>LINK</code> “here” <del>removed</del>"))
        // The reader's warning is folded under the block it names, between its row and the next.
        #expect(dom.contains(##"(at /paragraphs/2/markups/0) <code class="code">[unsafe-url]</code></li>"##))
        let row = try #require(dom.range(of: #"id="new-2""#)), fold = try #require(dom.range(of: "<summary>1 warning on this block</summary>"))
        let next = try #require(dom.range(of: #"id="new-3""#))
        #expect(row.upperBound < fold.lowerBound && fold.upperBound < next.lowerBound)
        #expect(!dom.contains(#"<section id="diagnostics">"#), "every diagnostic names a block")
        #expect(dom.contains(#"<tr class="inserted"><td class="old empty"></td><td class="new" id="new-4">"#))
        #expect(dom.contains(#"<p class="summary" id="summary">4 blocks differ: 3 changed, 1 inserted.</p>"#))

        try Self.expectScreenshot(of: page, named: "diff", in: folder)
    }

    @Test("A batch check's census page and a record's page render: severity first, examples linking to pages that exist, warnings folded, nothing run")
    func censusAndRecordPagesInChromium() async throws {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", BatchCheckTests.records(60))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "-o", folder.file("out.jsonl"), "--report-dir", folder.file("report"), input)
        #expect(result.status == 1)
        let index = folder.file("report/index.html")
        let dom = try Chromium.run(["--dump-dom", "file://" + index])
        #expect(dom.contains(#"<section id="census">"#) && dom.contains(#"<section id="run">"#))
        let content = try #require(dom.range(of: #"<tr class="content">"#)), style = try #require(dom.range(of: #"<tr class="style">"#))
        #expect(content.lowerBound < style.lowerBound)
        #expect(!dom.contains("<script"))
        // Each example links to a page that is there; the browser resolved none outside the folder.
        let links = Set(dom.components(separatedBy: #"<a class="record" href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(links.count == 14)
        for link in links { #expect(FileManager.default.fileExists(atPath: folder.file("report/" + link)), "\(link)") }
        try Self.expectScreenshot(of: index, named: "census", in: URL(fileURLWithPath: folder.path))

        let record = folder.file("report/" + BatchReportFolder.pageName(for: "35"))
        let recordDOM = try Chromium.run(["--dump-dom", "file://" + record])
        #expect(recordDOM.contains(#"<section id="written">"#))
        // The writer's warning on block 0 is folded under it, closed; the HTML reader's, which
        // names no block, follows the two sides, said to be the rest.
        let fold = try #require(recordDOM.range(of: "<summary>1 warning on this block</summary>"))
        let alignment = try #require(recordDOM.range(of: "[alignment-dropped]")), rest = try #require(recordDOM.range(of: #"<section id="diagnostics">"#))
        let unsafe = try #require(recordDOM.range(of: "[unsafe-url]"))
        #expect(fold.upperBound < alignment.lowerBound && alignment.upperBound < rest.lowerBound && rest.upperBound < unsafe.lowerBound)
        #expect(recordDOM.contains(#"<p class="note">1 more under the blocks they name.</p>"#))
        #expect(!recordDOM.contains("<script") && !recordDOM.contains("javascript:go"))
        try Self.expectScreenshot(of: record, named: "record", in: URL(fileURLWithPath: folder.path))
    }

    /// Screenshots `page` at 1200 by 900 and checks it is a picture of that size with something
    /// on it. With `MARKBRIDGE_SCREENSHOTS=DIR` the picture is kept there, to be looked at.
    static func expectScreenshot(of page: String, named name: String, in folder: URL) throws {
        let screenshot = folder.appendingPathComponent("\(name).png").path
        _ = try Chromium.run(["--screenshot=" + screenshot, "--window-size=1200,900", "file://" + page])
        let png = try #require(FileManager.default.contents(atPath: screenshot))
        let size = try #require(PNGSize(png))
        #expect(size.width == 1200 && size.height == 900)
        #expect(png.count > 10_000, "a blank page compresses to far less")
        if let keep = ProcessInfo.processInfo.environment["MARKBRIDGE_SCREENSHOTS"] {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: keep + "/\(name).png")
            try FileManager.default.copyItem(atPath: screenshot, toPath: keep + "/\(name).png")
        }
    }
}

/// Headless Chromium, as the runbook runs it.
enum Chromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs Chromium headless with `arguments`; its standard output.
    static func run(_ arguments: [String]) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "chromium")
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The width and height in a PNG's header chunk, or nil if the bytes are not a PNG.
struct PNGSize {
    var width: Int
    var height: Int

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == Array("IHDR".utf8)[...] else { return nil }
        func integer(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        width = integer(16)
        height = integer(20)
    }
}
