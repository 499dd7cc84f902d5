import Foundation
import Markbridge
import MarkbridgeMigration
import Synchronization
import Testing

/// A folder of its own under the temporary directory, removed at the end.
final class Scratch {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-migration-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    func read(_ name: String) -> String? { FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) } }
}

/// `count` posts as JSON Lines, every `brokenEvery`th line no JSON at all.
private func posts(_ count: Int, brokenEvery: Int) -> String {
    (1...count).map { $0 % brokenEvery == 0 ? "not json" : #"{"id":\#($0),"html":"<p>Post <b>\#($0)</b> with <a href=\"https://example.com/\#($0)\">a link</a></p>"}"# }
        .joined(separator: "\n") + "\n"
}

@Suite("File migrations through the library")
struct FileMigrationTests {
    func migration(_ scratch: Scratch, outputs: String) throws -> FileMigration {
        let conversion = try RecordConversion(to: .markupJSON, check: RecordConversion.Check())
        let records = try JSONLinesMigration(conversion, from: .html, field: "html")
        var migration = FileMigration(.jsonLines([scratch.path + "/posts.jsonl"], records), outputs: FileMigration.Outputs(
            output: scratch.path + "/\(outputs).jsonl", deadLetters: scratch.path + "/\(outputs).dead.jsonl",
            checkResults: scratch.path + "/\(outputs).check.jsonl"))
        migration.jobs = 2
        migration.pieceBytes = 4096
        return migration
    }

    @Test("A run cancelled part way saves a checkpoint; resumed, its files are those of a run never stopped")
    func cancelAndResume() async throws {
        let scratch = try Scratch()
        try scratch.write("posts.jsonl", posts(6_000, brokenEvery: 1_000))
        let whole = try await migration(scratch, outputs: "whole").run()
        #expect(whole.counts.records == 6_000 && whole.counts.converted == 5_994 && whole.counts.deadLettered == 6)
        #expect(whole.counts.failures == ["not-an-object": 6])
        #expect(whole.counts.census.checked == 5_994)

        var stopped = try migration(scratch, outputs: "stopped")
        let seen = Mutex(0)
        let task = Task { [stopped] in
            try await stopped.run { event in
                if case .progress(let counts) = event {
                    seen.withLock { $0 = counts.records }
                    if counts.records >= 1_000 { unsafe withUnsafeCurrentTask { unsafe $0?.cancel() } }
                }
            }
        }
        let outcome = await task.result
        guard case .failure(let error as FileMigrationError) = outcome else { Issue.record("a cancelled run ended \(outcome)"); return }
        #expect(error.isCancellation)
        let reached = seen.withLock { $0 }
        #expect(reached >= 1_000 && reached < 6_000)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/stopped.jsonl.checkpoint"))
        #expect(scratch.read("stopped.jsonl") == nil, "an output under its final name is whole")

        stopped.resumes = true
        let resumed = try await stopped.run()
        #expect(!resumed.wasComplete)
        #expect(resumed.counts == whole.counts)
        for suffix in [".jsonl", ".dead.jsonl", ".check.jsonl"] {
            #expect(scratch.read("stopped" + suffix) == scratch.read("whole" + suffix), "stopped\(suffix)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/stopped.jsonl.checkpoint"))
        let again = try await stopped.run()
        #expect(again.wasComplete)
    }

    @Test("Without a dead-letter file, each failed record reaches the observer with its line and code")
    func failedRecordsObserved() async throws {
        let scratch = try Scratch()
        try scratch.write("posts.jsonl", #"{"id":1,"html":"<p>one</p>"}"# + "\nnot json\n" + #"{"id":3}"# + "\n")
        let records = try JSONLinesMigration(try RecordConversion(to: .markdown), from: .html, field: "html")
        let migration = FileMigration(.jsonLines([scratch.path + "/posts.jsonl"], records), outputs: FileMigration.Outputs(output: scratch.path + "/out.jsonl"))
        var failed: [FailedRecord] = []
        let result = try await migration.run { event in
            if case .failed(let record) = event { failed.append(record) }
        }
        #expect(result.counts.records == 3 && result.counts.deadLettered == 2 && !result.passes)
        #expect(failed.map(\.line) == [2, 3])
        #expect(failed.map(\.file) == [scratch.path + "/posts.jsonl", scratch.path + "/posts.jsonl"])
        #expect(failed.map(\.code) == ["not-an-object", "missing-field"])
        #expect(scratch.read("out.jsonl") == #"{"id":1,"html":"one\n"}"# + "\n")
    }

    @Test("A folder's tree is converted into a mirror tree; a bad file is a dead letter; resumed, done files are skipped")
    func folderTree() async throws {
        let scratch = try Scratch()
        try scratch.write("in/a.html", "<p>A <b>b</b></p>")
        try scratch.write("in/sub/c.html", "<h2>C</h2>")
        try Data([0x3C, 0x70, 0x3E, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: scratch.path + "/in/bad.html"))
        try scratch.write("in/notes.rtf", "{\\rtf1 no reader}")
        var migration = FileMigration(.folder(input: scratch.path + "/in", output: scratch.path + "/out", conversion: try RecordConversion(to: .markdown)))
        var failed: [FailedRecord] = []
        let result = try await migration.run { event in
            if case .failed(let record) = event { failed.append(record) }
        }
        #expect(scratch.read("out/a.md") == "A **b**\n")
        #expect(scratch.read("out/sub/c.md") == "## C\n")
        #expect(failed.map(\.file) == ["bad.html"] && failed.first?.line == nil)
        #expect(failed.map(\.code) == ["invalid-utf8"])
        #expect(result.counts.converted == 2 && result.counts.deadLettered == 1 && result.counts.skippedFiles == 1)
        migration.resumes = true
        let resumed = try await migration.run()
        #expect(resumed.counts.alreadyDone == 2 && resumed.counts.converted == 0)
    }

    @Test("Two outputs on one path, or an output on an input, are refused before anything is written")
    func pathChecks() throws {
        let scratch = try Scratch()
        try scratch.write("posts.jsonl", "{}\n")
        let records = try JSONLinesMigration(try RecordConversion(to: .markdown), from: .html, field: "html")
        let input = scratch.path + "/posts.jsonl"
        let onInput = FileMigration(.jsonLines([input], records), outputs: FileMigration.Outputs(output: input))
        #expect(throws: FileMigrationError.self) { try onInput.validate() }
        let twice = FileMigration(.jsonLines([input], records), outputs: FileMigration.Outputs(output: scratch.path + "/o", deadLetters: scratch.path + "/o"))
        do {
            try twice.validate()
            Issue.record("two outputs on one path were taken")
        } catch {
            #expect(error.description == "output and deadLetters name one file ('\(scratch.path)/o'): each output needs a path of its own")
        }
        var overlapping = FileMigration(.folder(input: scratch.path, output: scratch.path + "/out", conversion: try RecordConversion(to: .markdown)))
        #expect(throws: FileMigrationError.self) { try overlapping.validate() }
        overlapping.allowsOverlap = true
        try overlapping.validate()
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/o"))
    }
}
