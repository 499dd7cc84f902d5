import Foundation
import Markbridge
import MarkbridgeJSON
import MarkbridgeTestSupport

/// `markbridge batch` measured as a whole process, the way a migration runs it: a JSON Lines
/// file of generated prose records (~2 KB of HTML each, at the density of real articles) in,
/// a file out, with --jobs 1 and 2, and with four times the records to show the peak flat.
/// `batch-short-to-json` runs records of one block each (a paragraph, heading or list, about
/// 500 bytes of HTML: a comment, a caption, a bio), five times as many: where a record's own
/// work is small, what each record costs besides its text shows.
enum BatchBenchmark {
    struct Case {
        var name: String
        var target: String
        var records: Int
        var jobs: Int
        /// About how many bytes of HTML each record holds.
        var recordBytes = defaultRecordBytes
    }

    static let defaultRecordBytes = 2_000
    /// Any block reaches it: one block a record.
    static let shortRecordBytes = 1

    static func cases(scale: Double) -> [Case] {
        let records = max(100, Int(20_000 * scale))
        return [
            Case(name: "batch-html-to-json", target: "json", records: records, jobs: 1),
            Case(name: "batch-html-to-json", target: "json", records: records, jobs: 2),
            Case(name: "batch-html-to-md", target: "markdown", records: records, jobs: 1),
            Case(name: "batch-html-to-md", target: "markdown", records: records, jobs: 2),
            // Four times the records: the peak must not grow with the input.
            Case(name: "batch-html-to-json", target: "json", records: records * 4, jobs: 2),
            Case(name: "batch-short-to-json", target: "json", records: records * 5, jobs: 1, recordBytes: shortRecordBytes),
            Case(name: "batch-short-to-json", target: "json", records: records * 5, jobs: 2, recordBytes: shortRecordBytes),
        ]
    }

    /// The batch paths, each once, in the order they run: what `--path` takes and the usage lists.
    static var names: [String] {
        var names: [String] = []
        for batchCase in cases(scale: 1) where !names.contains(batchCase.name) { names.append(batchCase.name) }
        return names
    }

    /// The JSON Lines corpus: `records` lines of `{"id":N,"title":...,"html":...}`, the HTML
    /// about `recordBytes` long.
    static func corpus(records: Int, recordBytes: Int = defaultRecordBytes) -> [UInt8] {
        var prose = ProseCorpusGenerator(seed: Corpus.seed)
        var out: [UInt8] = []
        out.reserveCapacity(records * (recordBytes + 300))
        for index in 0..<records {
            let html = prose.fragment(approximateBytes: recordBytes)
            out += #"{"id":\#(index),"title":"Record \#(index)","html":\#(JSONStringLiteral.encode(html))}"#.utf8
            out.append(0x0A)
        }
        return out
    }

    /// The `markbridge` binary built beside this one.
    static var markbridge: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("markbridge").path
    }

    /// One case, over the corpus file `input`, run from a child of the bench that holds nothing
    /// else: a process starts as a copy of its parent, so its peak (`RUSAGE_CHILDREN`) would
    /// count whatever the parent held. A tab-separated line (name, jobs, records, bytes,
    /// seconds, peak bytes), or a line beginning with `error`.
    static func measure(_ batchCase: Case, input: String) -> String {
        guard FileManager.default.isExecutableFile(atPath: markbridge) else {
            return "error\tno markbridge binary beside the bench (swift build -c release --product markbridge)"
        }
        let output = input + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let inputBytes = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.intValue ?? 0
        let process = Process()
        process.executableURL = URL(fileURLWithPath: markbridge)
        process.arguments = ["batch", "--field", "html", "--from", "html", "--to", batchCase.target, "--into", "body",
                             "--jobs", "\(batchCase.jobs)", "-o", output, input]
        process.standardError = FileHandle.nullDevice
        let start = Measurement.now()
        do {
            try process.run()
        } catch {
            return "error\tcannot start markbridge: \(error)"
        }
        process.waitUntilExit()
        let seconds = Measurement.now() - start
        guard process.terminationStatus == 0 else { return "error\tmarkbridge batch exited \(process.terminationStatus)" }
        var usage = rusage()
        unsafe getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return [batchCase.name, "\(batchCase.jobs)", "\(batchCase.records)", "\(inputBytes)", "\(seconds)", "\(usage.ru_maxrss * 1024)"]
            .joined(separator: "\t")
    }

    /// Runs every case: each corpus written once, by a child of its own, then each case measured
    /// in a child of its own.
    static func runAll(only: String?, scale: Double) -> (lines: [String], failed: Bool) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-batch-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var corpora: [String: String] = [:]
        var lines: [String] = []
        var failed = false
        for (index, batchCase) in cases(scale: scale).enumerated() where only == nil || only == batchCase.name {
            let key = "\(batchCase.records)-\(batchCase.recordBytes)"
            let input = corpora[key] ?? folder.appendingPathComponent("in-\(key).jsonl").path
            if corpora[key] == nil {
                _ = FileManager.default.createFile(atPath: input, contents: nil)
                let written = runChild(["--corpus", "jsonl", "--scale", "\(Double(batchCase.records) / 20_000)", "--record-bytes", "\(batchCase.recordBytes)"],
                                       output: FileHandle(forWritingAtPath: input))
                corpora[key] = input
                if written.hasPrefix("error") { return ([written], true) }
            }
            let line = runChild(["--batch-child", "\(index)", "--batch-input", input, "--scale", "\(scale)"], output: nil)
            if line.hasPrefix("error") { failed = true }
            lines.append(format(line))
        }
        return (lines, failed)
    }

    /// Runs this program with `arguments`; what it printed, unless its output goes to `output`.
    private static func runChild(_ arguments: [String], output: FileHandle?) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = output ?? pipe
        do {
            try process.run()
        } catch {
            return "error\tcannot start child: \(error)"
        }
        let data = output == nil ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        try? output?.close()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let header = "\npath                jobs  records   input MB  docs/s    MB/s    peak RSS"

    static func format(_ line: String) -> String {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 6, let records = Double(fields[2]), let bytes = Double(fields[3]), let seconds = Double(fields[4]),
              let peak = Double(fields[5]) else { return line }
        func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count) }
        return pad(fields[0], 20) + pad(fields[1], 6) + pad(fields[2], 10) + pad(String(format: "%.1f", bytes / 1e6), 10)
            + pad(String(format: "%.0f", records / seconds), 10) + pad(String(format: "%.1f", bytes / 1e6 / seconds), 8)
            + String(format: "%.1f MB", peak / 1e6)
    }
}
