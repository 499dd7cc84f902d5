import Foundation
import Testing

@Suite("markbridge batch --input-dir")
struct BatchDirectoryTests {
    /// A small CMS export: nested folders, a hidden folder, a file of no readable format, two
    /// files that would make the same output, one file that does not convert, and a link out.
    private func tree() throws -> ScratchFolder {
        let folder = ScratchFolder()
        for sub in ["in/posts/2026", "in/.git", "in/pages"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        _ = folder.write("in/index.html", "<h1>Home</h1><p>Welcome <b>in</b>.</p>")
        _ = folder.write("in/index.htm", "<p>An older copy.</p>")
        _ = folder.write("in/posts/2026/first.html", #"<p>Red <span style="color:red">text</span>.</p>"#)
        _ = folder.write("in/pages/about.md", "# About\n\nUs.\n")
        _ = folder.write("in/notes.rtf", "not converted")
        _ = folder.write("in/.git/config", "[core]")
        _ = FileManager.default.createFile(atPath: folder.file("in/posts/bad.html"), contents: Data([0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00]))
        try FileManager.default.createSymbolicLink(atPath: folder.file("in/posts/outside"), withDestinationPath: "/etc")
        return folder
    }

    @Test("The tree is mirrored with new extensions; failures are dead letters; the rest is skipped and counted")
    func mirror() async throws {
        let folder = try tree()
        let result = await runBatch("--input-dir", folder.file("in"), "--output-dir", folder.file("out"), "--to", "markdown",
                                    "--dead-letter", folder.file("dead.jsonl"), "--summary", "json", "--jobs", "2")
        #expect(result.status == 1)
        // index.htm comes before index.html in path order, so it is the one converted.
        #expect(folder.read("out/index.md") == "An older copy.\n")
        #expect(folder.read("out/posts/2026/first.md") == "Red <span style=\"color:#FF0000\">text</span>.\n")
        #expect(folder.read("out/pages/about.md") == "# About\n\nUs.\n")
        let written = FileManager.default.enumerator(atPath: folder.file("out"))?.allObjects as? [String] ?? []
        #expect(Set(written.filter { $0.hasSuffix(".md") }) == ["index.md", "posts/2026/first.md", "pages/about.md"])
        #expect(folder.read("dead.jsonl") == """
            {"file":"index.html","code":"output-collision","message":"'index.html' would be written where 'index.htm' is; not converted"}
            {"file":"posts/bad.html","code":"not-utf8","message":"does not convert: at 1:1: input is UTF-16LE, not UTF-8: it begins with a UTF-16LE byte-order mark; convert it first (for example `iconv -f UTF-16LE -t UTF-8`)"}

            """)
        #expect(result.standardError.contains(#""records":5,"converted":3,"deadLettered":2,"blankLines":0,"skippedFiles":1,"alreadyDone":0,"#))
    }

    @Test("--resume converts only what is not done; output is the same as one uninterrupted run")
    func resume() async throws {
        let folder = try tree()
        let arguments = ["--input-dir", folder.file("in"), "--output-dir", folder.file("out"), "--to", "json"]
        _ = await runBatch(arguments)
        let first = try #require(folder.read("out/pages/about.json"))
        try FileManager.default.removeItem(atPath: folder.file("out/pages/about.json"))
        let again = await runBatch(arguments + ["--resume", "--summary", "json"])
        #expect(again.standardError.contains(#""records":3,"converted":1,"deadLettered":2,"#))
        #expect(again.standardError.contains(#""alreadyDone":2,"#))
        #expect(folder.read("out/pages/about.json") == first)
    }

    @Test("Usage: the two folders go together, and JSON Lines options are refused")
    func usage() async {
        #expect(await runBatch("--input-dir", "in", "--to", "markdown").status == 64)
        #expect(await runBatch("--input-dir", "in", "--output-dir", "out", "--field", "html").status == 64)
        #expect(await runBatch("--input-dir", "/nonexistent-folder", "--output-dir", "/tmp/x").status == 74)
    }
}

@Suite("markbridge batch --timeout-per-record")
struct BatchTimeoutTests {
    @Test("D3: a record that takes too long is a dead letter, and the records around it convert")
    func timeout() async throws {
        let folder = ScratchFolder()
        let big = "<p>" + String(repeating: "word <b>bold</b> ", count: 400_000) + "</p>"
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>small</p>"}"# + "\n" + #"{"id":2,"html":"\#(big)"}"# + "\n"
                                 + #"{"id":3,"html":"<p>after</p>"}"# + "\n")
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--timeout-per-record", "0.2",
                                    "--max-record-bytes", "100000000", "-o", folder.file("out.jsonl"), "--dead-letter", folder.file("dead.jsonl"), input)
        #expect(result.status == 1)
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":"small\n"}"# + "\n" + #"{"id":3,"html":"after\n"}"# + "\n")
        let dead = try #require(folder.read("dead.jsonl"))
        #expect(dead.hasPrefix(#"{"file":"\#(input)","line":2,"byteOffset":31,"id":2,"code":"timeout","message":"'html' does not convert: "#))
        #expect(await runBatch("--field", "html", "--from", "html", "--timeout-per-record", "0", input).status == 64)
    }
}
