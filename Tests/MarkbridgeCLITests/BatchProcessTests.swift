import Foundation
import Testing
import Markbridge
import MarkbridgeJSON
import MarkbridgeTestSupport

/// The `markbridge` binary the build made, run as a process: for what only a process shows
/// (being killed, its peak memory, a closed pipe).
enum BatchBinary {
    /// The release binary when there is one (the memory figures mean something there), else
    /// the debug one.
    static let path: String? = ["release", "debug"].map { TestPaths.repositoryRoot + "/.build/\($0)/markbridge" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let release = TestPaths.repositoryRoot + "/.build/release/markbridge"

    static func start(_ arguments: [String], binary: String? = nil, standardOutput: FileHandle? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary ?? path ?? "markbridge")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    static func run(_ arguments: [String], binary: String? = nil, standardOutput: FileHandle? = nil) throws -> (status: Int32, standardError: String) {
        let (process, errors) = try start(arguments, binary: binary, standardOutput: standardOutput)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

@Suite("markbridge batch as a process", .serialized, .enabled(if: BatchBinary.path != nil, "the markbridge binary is not built"))
struct BatchProcessTests {
    @Test("D4, E11: killed at random points and resumed, again and again, the output is byte for byte that of a run never stopped")
    func killAndResume() throws {
        let folder = ScratchFolder()
        var generator = HTMLCorpusGenerator(seed: 91)
        let lines = (0..<3_000).map { index in #"{"id":\#(index),"html":\#(JSONStringLiteral.encode(generator.fragment(approximateBytes: 400)))}"# }
        let input = folder.write("in.jsonl", lines.joined(separator: "\n") + "\nnot json\n")
        let common = ["batch", "--field", "html", "--from", "html", "--to", "markdown", "--piece-bytes", "8192", "--jobs", "2"]
        let whole = try BatchBinary.run(common + ["--dead-letter", folder.file("whole.dead"), "-o", folder.file("whole.jsonl"), input])
        #expect(whole.status == 1)
        let expected = try #require(folder.read("whole.jsonl"))
        var random = SeededRandom(seed: 92)
        var kills = 0
        for round in 0..<6 {
            let output = folder.file("out-\(round).jsonl")
            let arguments = common + ["--dead-letter", folder.file("out-\(round).dead"), "-o", output, input]
            let (process, _) = try BatchBinary.start(arguments)
            usleep(UInt32(20_000 + random.below(400_000)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            // Killed or not, the file under its final name is either absent or complete.
            if FileManager.default.fileExists(atPath: output) { #expect(folder.read("out-\(round).jsonl") == expected) }
            var attempts = 0
            while !FileManager.default.fileExists(atPath: output) && attempts < 20 {
                let (resumed, _) = try BatchBinary.start(arguments + ["--resume"])
                var killed = false
                if attempts < 3 {
                    usleep(UInt32(20_000 + random.below(200_000)))
                    if resumed.isRunning {
                        kill(resumed.processIdentifier, SIGKILL)
                        killed = true
                    }
                }
                resumed.waitUntilExit()
                // A resume left to run finishes: the checkpoint is the same text in every
                // process (no set printed in its hash seed's order), so it is always accepted.
                if !killed { #expect(resumed.terminationStatus == 1, "round \(round), attempt \(attempts): resume exited \(resumed.terminationStatus)") }
                attempts += 1
            }
            #expect(folder.read("out-\(round).jsonl") == expected, "round \(round)")
            #expect(folder.read("out-\(round).dead") == folder.read("whole.dead"), "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: output + ".checkpoint"))
            let temporaries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".out-\(round).") }
            #expect(temporaries.isEmpty, "round \(round): \(temporaries) left")
        }
        #expect(kills > 0, "no run was killed: the input is too small to stop a run partway")
    }

    @Test("D2: memory is bounded by the window, not the input: 100 and 400 times the window read in the same peak",
          .enabled(if: FileManager.default.isExecutableFile(atPath: BatchBinary.release), "needs the release build of markbridge"))
    func boundedMemory() throws {
        let folder = ScratchFolder()
        // Two jobs of 64 KB pieces: a window of 128 KB.
        let record = #"{"id":0,"html":"<p>A short <b>record</b> with a <a href=\"https://example.com/\">link</a>.</p>"}"# + "\n"
        let window = 2 * 65_536
        var peaks: [Int] = []
        for times in [100, 400] {
            let input = folder.write("in-\(times).jsonl", String(repeating: record, count: window * times / record.utf8.count + 1))
            let run = try BatchBinary.run(["batch", "--field", "html", "--from", "html", "--jobs", "2", "--piece-bytes", "65536",
                                           "--summary", "json", "-o", folder.file("out.jsonl"), input], binary: BatchBinary.release)
            #expect(run.status == 0, "\(run.standardError)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.standardError.utf8)) as? [String: Any])
            peaks.append(try #require(summary["peakMemoryBytes"] as? Int))
        }
        // Four times the input: the peak grows by less than the larger input's tenth.
        let largerInput = window * 400
        #expect(peaks[1] < peaks[0] + largerInput / 10, "peaks \(peaks) for inputs of \(window * 100) and \(largerInput) bytes")
        #expect(peaks[1] < largerInput, "peak \(peaks[1]) for \(largerInput) bytes of input")
    }
}
