import Foundation
import Testing

/// A small tmpfs mounted for one test, where a write soon fails with "No space left on device".
/// Needs root and a kernel that lets it mount (a container may not).
final class FullDisk {
    let path: String
    private let mounted: Bool

    static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FullDisk(bytes: 65_536)
        return probe.mounted
    }()

    init(bytes: Int) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-full-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        mounted = FullDisk.run(["/bin/mount", "-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
    }

    deinit {
        if mounted { _ = FullDisk.run(["/bin/umount", path]) }
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Every file under the mount whose name says it is a temporary file.
    func temporaryFiles() -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".partial") || $0.hasSuffix(".tmp") }
    }

    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite("markbridge batch on a full disk", .serialized, .enabled(if: FullDisk.isAvailable, "needs root and a tmpfs mount"))
struct BatchDiskFullTests {
    /// An input tree whose outputs are far larger than the disk.
    private func tree(_ folder: ScratchFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("in/sub"), withIntermediateDirectories: true)
        let page = "<p>" + String(repeating: "Some <b>bold</b> text. ", count: 2_000) + "</p>"
        for index in 0..<12 { _ = folder.write("in/\(index % 2 == 0 ? "" : "sub/")page\(index).html", page) }
        return folder.file("in")
    }

    @Test("D6, E12: directory mode, outputs that fill the disk stop the run with exit 74, and no temporary file is left")
    func directoryOutputs() async throws {
        let folder = ScratchFolder()
        let input = try tree(folder)
        let disk = FullDisk(bytes: 131_072)
        let result = await runBatch("--input-dir", input, "--output-dir", disk.file("out"), "--to", "markdown", "--jobs", "2",
                                    "--dead-letter", disk.file("dead.jsonl"))
        #expect(result.status == 74)
        #expect(result.standardError.contains("No space left on device"), "\(result.standardError)")
        #expect(disk.temporaryFiles().isEmpty, "left: \(disk.temporaryFiles())")
        #expect(!FileManager.default.fileExists(atPath: disk.file("dead.jsonl")))
    }

    @Test("D6, E12: directory mode, a dead-letter file on a full device is exit 74 too")
    func directoryDeadLetters() async throws {
        let folder = ScratchFolder()
        let input = try tree(folder)
        _ = FileManager.default.createFile(atPath: folder.file("in/bad.html"), contents: Data([0xFF, 0xFE, 0x3C, 0x00]))
        let result = await runBatch("--input-dir", input, "--output-dir", folder.file("out"), "--to", "markdown", "--dead-letter", "/dev/full")
        #expect(result.status == 74)
        #expect(result.standardError.hasPrefix("Error: cannot write '/dev/full': No space left on device"), "\(result.standardError)")
    }

    @Test("D6, E12: JSON Lines, an output that fills the disk is exit 74, and its temporary files are removed")
    func jsonLinesOutput() async throws {
        let folder = ScratchFolder()
        let record = #"{"html":"<p>\#(String(repeating: "text ", count: 2_000))</p>"}"# + "\n"
        let input = folder.write("in.jsonl", String(repeating: record, count: 100))
        let disk = FullDisk(bytes: 131_072)
        let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "-o", disk.file("out.jsonl"),
                                    "--dead-letter", disk.file("dead.jsonl"), input)
        #expect(result.status == 74)
        #expect(result.standardError.contains("No space left on device"), "\(result.standardError)")
        #expect(disk.temporaryFiles().isEmpty, "left: \(disk.temporaryFiles())")
        #expect(!FileManager.default.fileExists(atPath: disk.file("out.jsonl")))
    }
}
