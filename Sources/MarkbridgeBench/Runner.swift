import Foundation
import Markbridge

/// Runs one measurement in this process, or spawns a child to do it.
enum Runner {
    /// Times `path` over the corpus `shape`: repeats until at least a second has passed (and at
    /// least 3 runs), and reports the best run, the steadiest figure on a shared machine.
    /// `runs` fixes the number of repetitions instead (for counting instructions with `perf stat`).
    static func measure(path name: String, shape shapeName: String, scale: Double, runs fixedRuns: Int? = nil, inputFile: String? = nil) -> String {
        guard let path = BenchmarkPath.all.first(where: { $0.name == name }),
              let shape = Corpus.Shape(rawValue: shapeName) else {
            return "error\tunknown path or shape \(name) \(shapeName)"
        }
        do {
            let inputs = try Corpus.samples(shape, scale: scale, inputFile: inputFile).map(path.input)
            let runs = try inputs.map(path.prepare)
            let inputBytes = inputs.reduce(0) { $0 + $1.count }
            // One small conversion first, untimed and before the peak is reset: what a process
            // sets up once (tables built on first use, code paged in) is not the conversion's.
            if let warmUp = try? Corpus.samples(.small, scale: 0.0001).first.map(path.input) {
                _ = try? path.prepare(warmUp)()
            }
            Measurement.resetPeak()
            let baseline = Measurement.statusBytes("VmRSS")
            var best = Double.infinity
            var bestCPU = Double.infinity
            var times: [Double] = []
            var total = 0.0
            var repetitions = 0
            var outputBytes = 0
            var firstPeak = 0
            var faultsAfterFirstRun = 0
            while fixedRuns.map({ repetitions < $0 }) ?? (repetitions < 3 || total < 1.0) {
                let start = Measurement.now()
                let startCPU = Measurement.cpuNow()
                outputBytes = 0
                for run in runs { outputBytes += try run() }
                let elapsed = Measurement.now() - start
                bestCPU = min(bestCPU, Measurement.cpuNow() - startCPU)
                best = min(best, elapsed)
                times.append(elapsed)
                total += elapsed
                repetitions += 1
                if repetitions == 1 {
                    firstPeak = Measurement.statusBytes("VmHWM")
                    faultsAfterFirstRun = Measurement.minorFaults()
                }
            }
            // Page faults a run after the first takes: near zero when the allocator keeps the
            // heap between runs; thousands when glibc trims it and each run faults it back in,
            // which moves the wall clock by several percent with no change in the work done.
            let faultsPerRun = repetitions > 1 ? "\((Measurement.minorFaults() - faultsAfterFirstRun) / (repetitions - 1))" : "-"
            // Two peaks: of the first run (one conversion of each input, as a fresh process
            // does), and of all runs, which is higher where the allocator's heap fragments over
            // repeated conversions (glibc raises its mmap threshold after large frees).
            let peak = Measurement.statusBytes("VmHWM")
            let largestInput = inputs.map(\.count).max() ?? 0
            let median = times.sorted()[times.count / 2]
            // Fields 12 and 13 (median wall-clock seconds, best CPU seconds) came later: the
            // CPU time of a run is what a shared machine's other processes do not inflate.
            // Field 14 is the page faults of each run after the first ("-" for a single run).
            return [name, shapeName, "\(inputs.count)", "\(inputBytes)", "\(outputBytes)", "\(best)",
                    "\(peak - baseline)", "\(peak)", "\(largestInput)", "\(repetitions)", "\(firstPeak - baseline)",
                    "\(median)", "\(bestCPU)", faultsPerRun].joined(separator: "\t")
        } catch {
            return "error\t\(name) \(shapeName): \(error)"
        }
    }

    static func spawn(path: String, shape: String, scale: Double, inputFile: String? = nil) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--child", path, shape, "--scale", "\(scale)"] + (inputFile.map { ["--input", $0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return "error\tcannot start child: \(error)"
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let header = pad(["path", "corpus", "docs", "input MB", "MB/s", "docs/s", "peak: 1st run, all", "peak/input", "runs", "faults/run"])

    static func format(_ line: String) -> String {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count >= 11, let docs = Double(fields[2]), let bytes = Double(fields[3]),
              let seconds = Double(fields[5]), let peak = Double(fields[6]), let largest = Double(fields[8]),
              let firstPeak = Double(fields[10]) else {
            return line
        }
        let megabytes = bytes / 1_000_000
        // Memory is judged against the largest single input: small documents are converted one at a time.
        let scale = largest > 0 ? 1 / max(bytes, largest) : 0
        return pad([fields[0], fields[1], fields[2], String(format: "%.2f", megabytes),
                    String(format: "%.1f", megabytes / seconds), String(format: "%.0f", docs / seconds),
                    String(format: "%.1f / %.1f MB", firstPeak / 1_000_000, peak / 1_000_000),
                    String(format: "%.2fx / %.2fx", firstPeak * scale, peak * scale), fields[9],
                    fields.count > 13 ? fields[13] : "-"])
    }

    private static func pad(_ columns: [String]) -> String {
        let widths = [14, 12, 7, 9, 8, 9, 20, 16, 6, 10]
        return zip(columns, widths).map { column, width in
            column.count >= width ? column + " " : column + String(repeating: " ", count: width - column.count)
        }.joined()
    }
}
