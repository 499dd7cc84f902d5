import Foundation
import Testing
@testable import MarkbridgeCLI
@testable import MarkbridgeMigration
import Markbridge

/// Links planted where batch writes: beside a named output, and inside an output tree.
@Suite("markbridge batch: planted links are never followed")
struct BatchPlantedLinkTests {
    private func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }

    @Test("E2: a link planted at the old temporary and checkpoint names is replaced or passed over, never written through")
    func linkBesideOutput() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n")
        let victim = folder.write("victim", "precious\n")
        for name in ["out.jsonl.partial", "out.jsonl.checkpoint", "out.jsonl.checkpoint.tmp", "dead.jsonl.partial"] {
            try FileManager.default.createSymbolicLink(atPath: folder.file(name), withDestinationPath: victim)
        }
        let result = await runBatch("--field", "html", "--from", "html", "--to", "text", "-o", folder.file("out.jsonl"),
                                    "--dead-letter", folder.file("dead.jsonl"), input)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(folder.read("victim") == "precious\n")
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":"a\n"}"# + "\n")
        #expect(isSymbolicLink(folder.file("out.jsonl.partial")))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".partial") && $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    @Test("E2: --resume opens only the partial file its checkpoint names, and never through a link")
    func resumeRefusesLink() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n")
        let victim = folder.write("victim", "precious\n")
        let arguments = ["--field", "html", "--from", "html", "-o", folder.file("out.jsonl"), input]
        // A checkpoint the run would write, but naming a planted link as its partial file.
        let plan = try BatchCommand.Plan(ParsedArguments(arguments, specs: BatchCommand.specs), registry: .standard)
        let partial = ".out.jsonl.0123456789abcdef.partial"
        try FileManager.default.createSymbolicLink(atPath: folder.file(partial), withDestinationPath: victim)
        let checkpoint = BatchCheckpoint(settings: plan.migration.settings, inputs: try BatchCheckpoint.inputs([input]), finishedDigests: [], position: BatchPosition(file: 0, offset: 0, line: 1),
                                         outputBytes: 0, deadLetterBytes: 0, diagnosticsBytes: 0,
                                         partials: .init(output: partial), counts: MigrationCounts())
        try checkpoint.save(for: folder.file("out.jsonl"))
        let result = await runBatch(arguments + ["--resume"])
        #expect(result.status == 74)
        #expect(result.standardError.contains("Too many levels of symbolic links") || result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(folder.read("victim") == "precious\n")
    }

    @Test("E2: directory mode, a linked folder or file inside the output tree is a dead letter, and what it points to is untouched")
    func linksInOutputTree() async throws {
        let folder = ScratchFolder()
        for sub in ["in/posts", "out", "elsewhere"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        _ = folder.write("in/index.html", "<p>Home</p>")
        _ = folder.write("in/posts/a.html", "<p>A</p>")
        _ = folder.write("in/b.html", "<p>B</p>")
        let victim = folder.write("victim", "precious\n")
        try FileManager.default.createSymbolicLink(atPath: folder.file("out/posts"), withDestinationPath: folder.file("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("out/index.md"), withDestinationPath: victim)
        let result = await runBatch("--input-dir", folder.file("in"), "--output-dir", folder.file("out"), "--to", "markdown",
                                    "--dead-letter", folder.file("dead.jsonl"))
        #expect(result.status == 1)
        #expect(folder.read("victim") == "precious\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("elsewhere")).isEmpty)
        #expect(isSymbolicLink(folder.file("out/index.md")) && isSymbolicLink(folder.file("out/posts")))
        #expect(folder.read("out/b.md") == "B\n")
        let out = folder.file("out")
        #expect(folder.read("dead.jsonl") == """
            {"file":"index.html","code":"output-is-link","message":"'\(out)/index.md' is a symbolic link; not written through it"}
            {"file":"posts/a.html","code":"output-is-link","message":"'\(out)/posts' in the output tree is a symbolic link; not written through it"}

            """)
    }

    @Test("E2: directory mode, a folder whose name starts with a combining mark, under a linked folder: not written through the link")
    func linkAboveCombiningMarkFolder() async throws {
        // By characters, "posts/\u{301}new" holds no slash after "posts", so the folder was one
        // name to mkdirat and openat, whose kernel walk followed the link at "posts".
        let folder = ScratchFolder()
        for sub in ["in/posts/\u{301}new", "out", "elsewhere"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        _ = folder.write("in/posts/\u{301}new/a.html", "<p>A</p>")
        try FileManager.default.createSymbolicLink(atPath: folder.file("out/posts"), withDestinationPath: folder.file("elsewhere"))
        let result = await runBatch("--input-dir", folder.file("in"), "--output-dir", folder.file("out"), "--to", "markdown",
                                    "--dead-letter", folder.file("dead.jsonl"))
        #expect(result.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("elsewhere")).isEmpty)
        let out = folder.file("out")
        #expect(folder.read("dead.jsonl") == """
            {"file":"posts/\u{301}new/a.html","code":"output-is-link","message":"'\(out)/posts' in the output tree is a symbolic link; not written through it"}

            """)
    }
}

@Suite("markbridge batch --resume: the input's content")
struct BatchResumeContentTests {
    /// A checkpoint as a run stopped after the first line would leave it, and its partial file.
    /// `digest` is the digest the run started with: an earlier build's was FNV-1a.
    private func stoppedRun(_ folder: ScratchFolder, input: String, first: String, digest start: BatchDigest = BatchDigest()) throws -> [String] {
        let arguments = ["--field", "html", "--from", "html", "--to", "text", "-o", folder.file("out.jsonl"), input]
        let plan = try BatchCommand.Plan(ParsedArguments(arguments, specs: BatchCommand.specs), registry: .standard)
        let partial = ".out.jsonl.00000000000000aa.partial"
        let written = #"{"id":1,"html":"one\n"}"# + "\n"
        _ = folder.write(partial, written)
        var digest = start
        digest.add(Array((first + "\n").utf8))
        let position = BatchPosition(file: 0, offset: first.utf8.count + 1, line: 2, digest: digest)
        var counts = MigrationCounts()
        counts.records = 1
        counts.converted = 1
        try BatchCheckpoint(settings: plan.migration.settings, inputs: try BatchCheckpoint.inputs([input]), finishedDigests: [], position: position,
                            outputBytes: written.utf8.count, deadLetterBytes: 0, diagnosticsBytes: 0, partials: .init(output: partial), counts: counts)
            .save(for: folder.file("out.jsonl"))
        return arguments + ["--resume"]
    }

    @Test("E9: a checkpoint an earlier build saved (its digest FNV-1a) still resumes over unchanged bytes, and still refuses an edit")
    func earlierBuildsCheckpoint() async throws {
        let first = #"{"id":1,"html":"<p>one</p>"}"#, second = #"{"id":2,"html":"<p>two</p>"}"#
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", first + "\n" + second + "\n")
        let arguments = try stoppedRun(folder, input: input, first: first, digest: .legacyFNV1a())
        let saved = try #require(folder.read("out.jsonl.checkpoint"))
        #expect(saved.contains(#""digest":{"value":"#), "\(saved)")
        let resumed = await runBatch(arguments)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":"one\n"}"# + "\n" + #"{"id":2,"html":"two\n"}"# + "\n")

        let edited = ScratchFolder()
        let editedInput = edited.write("in.jsonl", first + "\n" + second + "\n")
        let editedArguments = try stoppedRun(edited, input: editedInput, first: first, digest: .legacyFNV1a())
        _ = edited.write("in.jsonl", #"{"id":1,"html":"<p>ONE</p>"}"# + "\n" + second + "\n")
        #expect(await runBatch(editedArguments).status == 74)
        // Read with the new function, the bytes would not match the saved FNV-1a digest either:
        // what the test shows is that the old one is used, since the unchanged input resumed.
    }

    @Test("E9: a resume over unchanged bytes goes on; a same-size edit of what was read is refused, never kept stale")
    func sameSizeEdit() async throws {
        let first = #"{"id":1,"html":"<p>one</p>"}"#, second = #"{"id":2,"html":"<p>two</p>"}"#
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", first + "\n" + second + "\n")
        let resumed = await runBatch(try stoppedRun(folder, input: input, first: first))
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":"one\n"}"# + "\n" + #"{"id":2,"html":"two\n"}"# + "\n")

        let edited = ScratchFolder()
        let editedInput = edited.write("in.jsonl", first + "\n" + second + "\n")
        let arguments = try stoppedRun(edited, input: editedInput, first: first)
        _ = edited.write("in.jsonl", #"{"id":1,"html":"<p>ONE</p>"}"# + "\n" + second + "\n")
        let refused = await runBatch(arguments)
        #expect(refused.status == 74)
        #expect(refused.standardError == "Error: the input '\(editedInput)' is not what the checkpoint beside '\(edited.file("out.jsonl"))' was made from (its first 29 bytes changed); remove the checkpoint to start over\n")
        #expect(!FileManager.default.fileExists(atPath: edited.file("out.jsonl")))
        // An edit past what was read is no staleness: the resume reads it.
        let later = ScratchFolder()
        let laterInput = later.write("in.jsonl", first + "\n" + second + "\n")
        let laterArguments = try stoppedRun(later, input: laterInput, first: first)
        _ = later.write("in.jsonl", first + "\n" + #"{"id":2,"html":"<p>TWO</p>"}"# + "\n")
        #expect(await runBatch(laterArguments).status == 0)
        #expect(later.read("out.jsonl") == #"{"id":1,"html":"one\n"}"# + "\n" + #"{"id":2,"html":"TWO\n"}"# + "\n")
    }
}
