import Foundation
import Testing

@Suite("markbridge batch: outputs on one path, and overlapping trees")
struct BatchPathCheckTests {
    @Test("E10: two outputs on one file (by name, link or checkpoint) or an output on an input are a usage error before anything is written")
    func twoOutputsOnePath() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n" + #"{"id":2,"html":5}"# + "\n")
        let same = folder.file("same.jsonl")
        let result = await runBatch("--field", "html", "--from", "html", "-o", same, "--dead-letter", same, input)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: -o and --dead-letter name one file ('\(same)'): each output needs a path of its own\n"))
        #expect(!FileManager.default.fileExists(atPath: same))
        _ = folder.write("real.jsonl", "kept\n")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.jsonl"), withDestinationPath: folder.file("real.jsonl"))
        let cases: [[String]] = [
            ["-o", folder.file("real.jsonl"), "--diagnostics", folder.file("link.jsonl")],
            ["-o", folder.file("a.jsonl"), "--dead-letter", folder.file("sub/../a.jsonl.checkpoint")],
            ["-o", folder.file("a.jsonl"), "--check", "--report", folder.file("./a.jsonl")],
            ["-o", input],
            ["-o", folder.file("a.jsonl"), "--dead-letter", folder.file("in.jsonl")],
        ]
        for arguments in cases {
            let refused = await runBatch(["--field", "html", "--from", "html"] + arguments + [input])
            #expect(refused.status == 64, "\(arguments): \(refused.standardError)")
        }
        #expect(folder.read("real.jsonl") == "kept\n")
        #expect(folder.read("in.jsonl")?.hasPrefix(#"{"id":1,"#) == true)
        // A device takes several streams.
        #expect(await runBatch("--field", "html", "--from", "html", "-o", "/dev/null", "--dead-letter", "/dev/null", input).status == 1)
    }

    @Test("E3: overlapping trees are refused (exit 64), however spelt; --allow-overlap never replaces an input")
    func overlappingTrees() async throws {
        let folder = ScratchFolder()
        try FileManager.default.createDirectory(atPath: folder.file("d/sub"), withIntermediateDirectories: true)
        _ = folder.write("d/b.md", "# Kept\n")
        _ = folder.write("d/b.html", "<p>B</p>")
        _ = folder.write("d/sub/c.html", "<p>C</p>")
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias"), withDestinationPath: folder.file("d"))
        let d = folder.file("d")
        for (input, output) in [(d, d), (d, folder.file("alias")), (d, d + "/out"), (d + "/sub", d), (d, folder.file("alias/new/../x")),
                                 // A folder whose name starts with a combining mark: by characters, "/\u{301}" is no slash.
                                 (d, d + "/\u{301}out")] {
            let result = await runBatch("--input-dir", input, "--output-dir", output, "--to", "markdown")
            #expect(result.status == 64, "\(input) \(output): \(result.standardError)")
            #expect(result.standardError.hasPrefix("Error: --input-dir and --output-dir overlap: "))
        }
        #expect(!FileManager.default.fileExists(atPath: d + "/out") && !FileManager.default.fileExists(atPath: d + "/x"))
        #expect(!FileManager.default.fileExists(atPath: d + "/\u{301}out"))
        // Without trees it means nothing, and says so.
        let stray = await runBatch("--field", "html", "--from", "html", "--allow-overlap", folder.file("d/b.html"))
        #expect(stray.status == 64)
        #expect(stray.standardError.hasPrefix("Error: --allow-overlap is for --input-dir and --output-dir"))
        let allowed = await runBatch("--input-dir", d, "--output-dir", d, "--to", "markdown", "--allow-overlap", "--dead-letter", folder.file("dead.jsonl"))
        #expect(allowed.status == 1)
        #expect(folder.read("d/b.md") == "# Kept\n")
        #expect(folder.read("d/sub/c.md") == "C\n")
        #expect(folder.read("dead.jsonl") == """
            {"file":"b.md","code":"output-collision","message":"'b.md' would be written where 'b.html' is; not converted"}
            {"file":"b.html","code":"would-overwrite-input","message":"'\(d)/b.md' is a file of the input tree; not overwritten"}

            """)
        // HTML to HTML in place: every output would replace its own input.
        let inPlace = await runBatch("--input-dir", d + "/sub", "--output-dir", d + "/sub", "--to", "html", "--allow-overlap")
        #expect(inPlace.status == 1)
        #expect(folder.read("d/sub/c.html") == "<p>C</p>")
    }

    @Test("An output tree inside the input tree is never read as input, however many runs")
    func outputInsideInput() async throws {
        let folder = ScratchFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        _ = folder.write("in/a.html", "<p>A</p>")
        let arguments = ["--input-dir", folder.file("in"), "--output-dir", folder.file("in/out"), "--to", "html", "--allow-overlap", "--summary", "json"]
        for _ in 0..<2 {
            let result = await runBatch(arguments)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains(#""records":1,"converted":1,"#), "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("in/out/out")))
    }
}
