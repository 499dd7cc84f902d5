import Foundation
import Testing
import MarkbridgeTestSupport

/// Peak memory of `markbridge convert` per byte of input, on each path, from the peak resident
/// set of the process over two sizes of one generated corpus: the difference of the peaks over
/// the difference of the sizes, so that what the process holds whatever the input (the runtime,
/// code, tables) cancels out. Before #21.4, Markdown to JSON grew by 9 to 13 bytes a byte
/// (cmark's tree of the whole input beside the document), HTML to JSON by 4.7.
///
/// The peak is `ru_maxrss` as GNU time reads it (`wait4`) for a child it forked itself: Linux
/// carries the peak of the process image an `exec` replaces into the new one, so a child this
/// test process spawned directly would report at least this process's own size.
private let gnuTime = "/usr/bin/time"

@Suite("markbridge convert: peak memory per input byte, as a process", .serialized,
       .enabled(if: BatchBinary.path != nil, "the markbridge binary is not built"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: gnuTime), "GNU time (/usr/bin/time) is absent"))
struct ConversionMemoryTests {
    /// Each path and the most its peak may grow per input byte: the release build measured
    /// 4.06, 3.83, 3.47, 3.47, 3.53 and 3.75 (before #21.4: 6.2, 5.8, 5.0, 4.6, 9.0 and 10.4).
    /// The bounds are the promise (4 bytes a byte, 4.5 for HTML's tree beside the document),
    /// not the last measurement: a peak moves by a few percent with the allocator's arenas.
    static let paths: [(from: String, to: String, bound: Double)] = [
        ("html", "json", 4.5), ("html", "markdown", 4.5), ("json", "json", 4),
        ("json", "markdown", 4), ("markdown", "json", 4), ("markdown", "markdown", 4),
    ]

    static let extensions = ["markdown": "md", "html": "html", "json": "json"]

    /// The peak resident set of the binary run with `arguments`, in bytes, and its exit status.
    static func peak(_ arguments: [String], in folder: ScratchFolder) throws -> (bytes: Int, status: Int32) {
        let binary = try #require(BatchBinary.path)
        let report = folder.file("peak")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gnuTime)
        process.arguments = ["-f", "%M", "-o", report, binary] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // GNU time gives kilobytes, after a line of its own when the command failed.
        let kilobytes = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "GNU time wrote \(text.debugDescription)")
        return (kilobytes * 1024, process.terminationStatus)
    }

    /// The corpus in each input format, at about `bytes` of HTML: prose at the density of real
    /// articles, turned into Markdown and JSON by the binary itself.
    static func inputs(bytes: Int, in folder: ScratchFolder, name: String) throws -> [String: String] {
        var generator = ProseCorpusGenerator(seed: 21)
        let html = folder.write("\(name).html", generator.fragment(approximateBytes: bytes))
        var files = ["html": html]
        for format in ["markdown", "json"] {
            let file = folder.file("\(name).\(extensions[format]!)")
            #expect(try peak(["convert", "--to", format, html, "-o", file], in: folder).status == 0)
            files[format] = file
        }
        return files
    }

    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test("A24: each path's peak grows by at most 4 to 4.5 bytes per input byte, between 3 MB and 9 MB inputs")
    func peakPerInputByte() throws {
        let folder = ScratchFolder()
        let small = try Self.inputs(bytes: 3_000_000, in: folder, name: "small")
        let large = try Self.inputs(bytes: 9_000_000, in: folder, name: "large")
        for path in Self.paths {
            var peaks: [Int] = []
            var sizes: [Int] = []
            for inputs in [small, large] {
                let input = try #require(inputs[path.from])
                let run = try Self.peak(["convert", "--from", path.from, "--to", path.to, input, "-o", folder.file("out")], in: folder)
                #expect(run.status == 0, "\(path.from) to \(path.to)")
                peaks.append(run.bytes)
                sizes.append(try Self.size(input))
            }
            let growth = Double(peaks[1] - peaks[0]) / Double(sizes[1] - sizes[0])
            #expect(sizes[1] > 2 * sizes[0], "\(path.from) inputs of \(sizes) bytes")
            print("peak growth, \(path.from) to \(path.to): \(growth) bytes a byte (peaks \(peaks) for \(sizes) bytes)")
            #expect(growth < path.bound, "\(path.from) to \(path.to): peaks \(peaks) for \(sizes) bytes of input: \(growth) a byte")
        }
    }
}
