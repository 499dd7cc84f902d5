import Foundation
import Markbridge
@testable import MarkbridgeCLI
@testable import MarkbridgeMigration
import Testing

@Suite("markbridge batch --check: the census")
struct BatchCheckTests {
    /// Record `n` has a colour when n % 3 == 0, a javascript: link when n % 5 == 0, and is centred
    /// when n % 7 == 0; the rest is plain.
    static func records(_ count: Int) -> String {
        (1...count).map { n in
            var html = "<p\(n % 7 == 0 ? #" style=\"text-align:center\""# : "")>Record \(n)"
            if n % 3 == 0 { html += #" <span style=\"color:#c00\">red</span>"# }
            if n % 5 == 0 { html += #" <a href=\"javascript:go()\">go</a>"# }
            return #"{"id":\#(n),"html":"\#(html)</p>"}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test("Over a generated batch, each class of loss counts exactly its records, with the first ids as examples")
    func census() async throws {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", Self.records(300))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "--summary", "json", "-o", folder.file("out.jsonl"), "--report", folder.file("census.html"), "--jobs", "2",
                                    "--piece-bytes", "2000", input)
        #expect(result.status == 1)
        let summary = try #require(result.standardError.split(separator: "\n").last.map { Data($0.utf8) })
        let json = try #require(try JSONSerialization.jsonObject(with: summary) as? [String: Any])
        let census = try #require(json["census"] as? [String: Any])
        let classes = try #require(census["classes"] as? [String: [String: Any]])
        func ids(_ isLosing: (Int) -> Bool) -> [Int] { (1...300).filter(isLosing) }
        let expected: [String: [Int]] = [
            "diagnostic markup-dropped": ids { $0 % 3 == 0 },
            "markup COLOR removed": ids { $0 % 3 == 0 },
            "diagnostic unsafe-url": ids { $0 % 5 == 0 },
            "diagnostic alignment-dropped": ids { $0 % 7 == 0 },
            "attribute align changed": ids { $0 % 7 == 0 },
        ]
        #expect(Set(classes.keys) == Set(expected.keys))
        for (name, records) in expected {
            #expect(classes[name]?["records"] as? Int == records.count, "\(name)")
            #expect(classes[name]?["examples"] as? [Int] == Array(records.prefix(5)), "\(name)")
        }
        #expect(census["checked"] as? Int == 300)
        #expect(census["losing"] as? Int == ids { $0 % 3 == 0 || $0 % 5 == 0 || $0 % 7 == 0 }.count)
        #expect(census["failing"] as? Int == ids { $0 % 5 == 0 }.count)
        #expect(census["gate"] as? String == "content,structure")
        #expect(classes["diagnostic unsafe-url"]?["severity"] as? String == "content")
        #expect(classes["markup COLOR removed"]?["severity"] as? String == "style")
        let page = try #require(folder.read("census.html"))
        #expect(page.contains(#"<tr class="style"><td class="severity">style</td><td class="loss">markup COLOR removed</td><td class="count">100</td><td><code>3</code>, <code>6</code>, <code>9</code>, <code>12</code>, <code>15</code></td></tr>"#))
    }

    @Test("The text summary lists the classes, most records first; a format that cannot be read back is refused")
    func textSummary() async {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", Self.records(10))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "-o", folder.file("out.jsonl"), input)
        #expect(result.status == 1)
        #expect(result.standardError.hasSuffix("""
            census: 6 of 10 checked records lose something, 2 fail the gate (content,structure)
              content: diagnostic unsafe-url: 2 records (e.g. 5, 10)
              style: diagnostic markup-dropped: 3 records (e.g. 3, 6, 9)
              style: markup COLOR removed: 3 records (e.g. 3, 6, 9)
              style: attribute align changed: 1 record (e.g. 7)
              style: diagnostic alignment-dropped: 1 record (e.g. 7)

            """))
        let clean = await runBatch("--field", "html", "--from", "html", "--to", "json", "--check", "-o", folder.file("out.jsonl"),
                                   folder.write("clean.jsonl", #"{"id":1,"html":"<p>a <b>b</b></p>"}"# + "\n"))
        #expect(clean.status == 0)
        #expect(clean.standardError.hasSuffix("census: 0 of 1 checked record lose something, 0 fail the gate (content,structure)\n"))
        var command = BatchCommand(registry: FormatRegistry([.html, .writtenOnly]))
        command.standardError = { _ in }
        #expect(await command.run(["--field", "html", "--from", "html", "--to", "shout", "--check", input]) == 64)
    }

    @Test("The gate: style alone passes, content fails; --fail-on and --ignore move the line, and ignored classes leave the census")
    func gate() async throws {
        let folder = ScratchFolder()
        let styleOnly = folder.write("style.jsonl", (1...20).map { n in
            #"{"id":\#(n),"html":"<p style=\"text-align:center\">Record \#(n) <span style=\"color:#c00\">red</span></p>"}"#
        }.joined(separator: "\n") + "\n")
        let arguments = ["--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check", "-o", folder.file("out.jsonl")]
        let passes = await runBatch(arguments + [styleOnly])
        #expect(passes.status == 0)
        #expect(passes.standardError.contains("census: 20 of 20 checked records lose something, 0 fail the gate (content,structure)\n"))
        #expect(await runBatch(arguments + ["--fail-on", "style", styleOnly]).status == 1)
        #expect(await runBatch(arguments + ["--fail-on", "markup:COLOR", styleOnly]).status == 1)
        #expect(await runBatch(arguments + ["--fail-on", "markup-color-removed", "--ignore", "markup-color-removed", styleOnly]).status == 0)

        let mixed = folder.write("mixed.jsonl", Self.records(10))
        #expect(await runBatch(arguments + [mixed]).status == 1)
        let ignored = await runBatch(arguments + ["--ignore", "unsafe-url,style", "--summary", "json", mixed])
        #expect(ignored.status == 0)
        let summary = try #require(ignored.standardError.split(separator: "\n").last.map { Data($0.utf8) })
        let census = try #require((try JSONSerialization.jsonObject(with: summary) as? [String: Any])?["census"] as? [String: Any])
        #expect(census["losing"] as? Int == 0)
        #expect((census["classes"] as? [String: Any])?.isEmpty == true)
        #expect(census["gate"] as? String == "content,structure; ignoring unsafe-url,style")

        let refused = await runBatch(arguments + ["--fail-on", "stlye", mixed])
        #expect(refused.status == 64)
        #expect(refused.standardError.hasPrefix("Error: Unknown class 'stlye' for --fail-on (did you mean 'style'?"))
        let withoutCheck = await runBatch(["--field", "html", "--from", "html", "--to", "markdown", "--fail-on", "style", "-o", folder.file("out.jsonl"), mixed])
        #expect(withoutCheck.status == 64)
        #expect(withoutCheck.standardError.hasPrefix("Error: --fail-on, --ignore, --check-results, --report and --report-dir go with --check"))
    }

    @Test("--check-results lists exactly the records the census counts, each class with its severity, count and detail")
    func checkResults() async throws {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", Self.records(300))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "--summary", "json", "-o", folder.file("out.jsonl"), "--check-results", folder.file("results.jsonl"),
                                    "--jobs", "2", "--piece-bytes", "2000", "--ignore", "alignment-dropped", input)
        #expect(result.status == 1)
        let summary = try #require(result.standardError.split(separator: "\n").last.map { Data($0.utf8) })
        let census = try #require((try JSONSerialization.jsonObject(with: summary) as? [String: Any])?["census"] as? [String: Any])
        let lines = try #require(folder.read("results.jsonl")).split(separator: "\n")
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let losing = (1...300).filter { $0 % 3 == 0 || $0 % 5 == 0 || $0 % 7 == 0 }
        #expect(records.map { $0["id"] as? Int } == losing)
        #expect(records.count == census["losing"] as? Int)
        #expect(records.filter { $0["fails"] as? Bool == true }.count == census["failing"] as? Int)
        #expect(records.allSatisfy { $0["file"] as? String == input && $0["line"] as? Int == $0["id"] as? Int })
        #expect(lines[losing.firstIndex(of: 35)!] == #"{"id":35,"file":"\#(input)","line":35,"fails":true,"losses":[{"class":"diagnostic unsafe-url","key":"unsafe-url","severity":"content","count":1,"block":null,"detail":"link on <a> dropped, its text kept: scheme 'javascript:' is not allowed"},{"class":"attribute align changed","key":"attribute-align-changed","severity":"style","count":1,"block":0,"detail":"center → none"}]}"#)
        #expect(lines[0] == ##"{"id":3,"file":"\##(input)","line":3,"fails":false,"losses":[{"class":"diagnostic markup-dropped","key":"markup-dropped","severity":"style","count":1,"block":0,"detail":"COLOR 9..<12 in block 0 has no CommonMark syntax; dropped (--markdown-html drop)"},{"class":"markup COLOR removed","key":"markup-color-removed","severity":"style","count":1,"block":0,"detail":"#CC0000 over \"red\""}]}"##)

        let tree = folder.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        _ = folder.write("tree/a.html", #"<p>A <a href="javascript:x()">b</a></p>"#)
        _ = folder.write("tree/b.html", "<p>clean</p>")
        let directory = await runBatch("--from", "html", "--to", "markdown", "--input-dir", tree, "--output-dir", folder.file("out"), "--check",
                                       "--check-results", folder.file("tree-results.jsonl"))
        #expect(directory.status == 1)
        #expect(folder.read("tree-results.jsonl") == #"{"file":"a.html","fails":true,"losses":[{"class":"diagnostic unsafe-url","key":"unsafe-url","severity":"content","count":1,"block":null,"detail":"link on <a> dropped, its text kept: scheme 'javascript:' is not allowed"}]}"# + "\n")
        #expect(await runBatch("--field", "html", "--from", "html", "--check-results", folder.file("r.jsonl"), input).status == 64)
    }

    @Test("E6: the census page, the run's details, severity first, dead letters by code, numbers with separators")
    func censusPage() async throws {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", Self.records(10) + "not json\n" + #"{"id":12}"# + "\n" + "also not json\n")
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "-o", folder.file("out.jsonl"), "--dead-letter", folder.file("dead.jsonl"), "--report", folder.file("census.html"), input)
        #expect(result.status == 1)
        let page = try #require(folder.read("census.html"))
        #expect(page.contains("<tr><th>Command</th><td>markbridge batch --field html --from html --to markdown --markdown-html drop --check -o \(folder.file("out.jsonl")) --dead-letter"))
        #expect(page.contains("<tr><th>Version</th><td>markbridge \(MarkbridgeCommandLine.version)</td></tr>"))
        #expect(page.contains("<tr><th>Gate</th><td>fails on content,structure</td></tr>\n<tr><th>Records</th><td>13</td></tr>\n<tr><th>Checked</th><td>10</td></tr>\n<tr><th>Losing something</th><td>6</td></tr>\n<tr><th>Failing the gate</th><td>2</td></tr>\n<tr><th>Dead-lettered</th><td>3</td></tr>"))
        #expect(page.contains(#"<section id="dead-letters">"#))
        #expect(page.contains(#"<tbody>\#n<tr><td class="loss"><code>invalid-json</code></td><td class="count">1</td></tr>\#n<tr><td class="loss"><code>missing-field</code></td><td class="count">1</td></tr>\#n<tr><td class="loss"><code>not-an-object</code></td><td class="count">1</td></tr>\#n</tbody>"#))
        // Severity first: the content class comes before every style class, whatever the counts.
        let content = try #require(page.range(of: #"<tr class="content">"#)), style = try #require(page.range(of: #"<tr class="style">"#))
        #expect(content.lowerBound < style.lowerBound)
        #expect(page.contains("<script") == false)
        #expect(DiffHTMLReport.grouped(1_234_567) == "1,234,567" && DiffHTMLReport.grouped(999) == "999" && DiffHTMLReport.grouped(1000) == "1,000" && DiffHTMLReport.grouped(0) == "0")
        #expect(BatchCommand.shellQuoted("it's here") == #"'it'\''s here'"# && BatchCommand.shellQuoted("-o") == "-o")
    }

    @Test("--report-dir: the census links each example to its record's page, which shows both sides, the written output and the verdict")
    func reportFolder() async throws {
        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", Self.records(60))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--markdown-html", "drop", "--check",
                                    "-o", folder.file("out.jsonl"), "--report-dir", folder.file("report"), "--jobs", "2", "--piece-bytes", "600", input)
        #expect(result.status == 1)
        let index = try #require(folder.read("report/index.html"))
        // Every example of every class, and nothing else, has a page, whichever piece it was in.
        let examples: Set<Int> = [3, 6, 9, 12, 15, 5, 10, 20, 25, 7, 14, 21, 28, 35]
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.file("report/records"))
        #expect(pages.count == examples.count)
        for id in examples {
            let name = BatchReportFolder.pageName(for: String(id))
            #expect(index.contains(#"<a class="record" href="\#(name)"><code>\#(id)</code></a>"#), "\(id)")
            #expect(pages.contains(String(name.dropFirst("records/".count))), "\(id)")
        }
        let page = try #require(folder.read("report/" + BatchReportFolder.pageName(for: "35")))
        #expect(page.contains("<title>markbridge check: \(input):35 via markdown</title>"))
        #expect(page.contains(#"<section id="written">\#n<h2>Written as markdown</h2>\#n<pre class="written">Record 35 go&#10;</pre>"#))
        #expect(page.contains("Fails the gate (fails on content,structure): content 1 (diagnostic unsafe-url 1); style 2 (attribute align changed 1, diagnostic alignment-dropped 1)."))
        #expect(!page.contains("<script"))
        #expect(await runBatch("--field", "html", "--from", "html", "--report-dir", folder.file("r2"), input).status == 64)
    }
}
