import Foundation

/// `--peers`: Markbridge beside the libraries users would pick instead, on the same input as the
/// `--input FILE` mode (the file repeated to ~5 MB, times `--scale`), each side in a process of
/// its own, in interleaved rounds. The peers run in Python (`peers.py` beside this file, outside
/// the Swift target); a peer that is not installed is a row that says how to install it, never
/// a failure, so nothing here is needed by CI.
enum Peers {
    struct Row {
        /// The Markbridge path (`BenchmarkPath`), timed over the `file` corpus.
        let path: String
        /// The peer, as `peers.py` names it, and what it does.
        let peer: String
        let peerLabel: String
        /// Whether the peer reads the HTML or the Markdown Markbridge makes of it (the input of
        /// `md-to-json`, so both sides read the same bytes).
        let readsMarkdown: Bool
    }

    static let rows: [Row] = [
        Row(path: "html-parse", peer: "lexbor", peerLabel: "lexbor parse", readsMarkdown: false),
        Row(path: "html-to-json", peer: "lexbor", peerLabel: "lexbor parse", readsMarkdown: false),
        Row(path: "html-to-md", peer: "html-to-markdown", peerLabel: "HTML -> Markdown", readsMarkdown: false),
        Row(path: "md-to-json", peer: "cmark", peerLabel: "cmark md -> html", readsMarkdown: true),
    ]

    /// `peers.py`, found where this source file was compiled from.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("peers.py").path

    /// One process's figures: MB/s by the best run's wall clock, by its median, and by its CPU time.
    struct Figures {
        var best: Double
        var median: Double
        var cpu: Double
    }

    enum Outcome {
        case measured(Figures, version: String)
        case missing(String)
        case failed(String)
    }

    static func run(inputFile: String, scale: Double, rounds: Int) -> Bool {
        // The same input as the `file` corpus, written out for the peers: the HTML, and the
        // Markdown that `md-to-json` reads (the file's IR written as Markdown).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-peers-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let htmlFile = directory.appendingPathComponent("input.html").path
        let markdownFile = directory.appendingPathComponent("input.md").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            guard let sample = try Corpus.samples(.file, scale: scale, inputFile: inputFile).first,
                  let html = BenchmarkPath.all.first(where: { $0.name == "html-parse" })?.input(sample),
                  let markdown = BenchmarkPath.all.first(where: { $0.name == "md-to-json" })?.input(sample) else {
                print("error\tno input")
                return false
            }
            try Data(html).write(to: URL(fileURLWithPath: htmlFile))
            try Data(markdown).write(to: URL(fileURLWithPath: markdownFile))
            print("input: \(inputFile) repeated, \(String(format: "%.2f", Double(html.count) / 1e6)) MB of HTML, "
                  + "\(String(format: "%.2f", Double(markdown.count) / 1e6)) MB of Markdown (its IR written by Markbridge); "
                  + "\(rounds) interleaved rounds")
        } catch {
            print("error\tcannot write the peers' input: \(error)")
            return false
        }

        var ours: [String: [Figures]] = [:]
        var theirs: [String: [Outcome]] = [:]
        var failed = false
        for round in 1...rounds {
            var peersThisRound: [String: Outcome] = [:]
            for row in rows {
                let line = Runner.spawn(path: row.path, shape: Corpus.Shape.file.rawValue, scale: scale, inputFile: inputFile)
                if let figures = markbridgeFigures(line) {
                    ours[row.path, default: []].append(figures)
                } else {
                    print("error\t\(row.path): \(line)")
                    failed = true
                }
                // A peer that serves two rows (lexbor) is measured once a round.
                if peersThisRound[row.peer] == nil {
                    let outcome = measurePeer(row.peer, file: row.readsMarkdown ? markdownFile : htmlFile)
                    peersThisRound[row.peer] = outcome
                    theirs[row.peer, default: []].append(outcome)
                }
            }
            FileHandle.standardError.write(Data("markbridge-bench --peers: round \(round) of \(rounds) done\n".utf8))
        }

        print("")
        print(pad(["path", "Markbridge MB/s", "peer", "peer MB/s", "ratio", "by CPU time: MB/s, ratio"]))
        for row in rows {
            let mine = ours[row.path] ?? []
            let outcomes = theirs[row.peer] ?? []
            let measured = outcomes.compactMap { outcome -> (Figures, String)? in
                if case .measured(let figures, let version) = outcome { return (figures, version) }
                return nil
            }
            let ourColumn = mine.isEmpty ? "error" : spread(mine.map(\.best))
            guard !measured.isEmpty else {
                var reason = "peer not measured"
                for outcome in outcomes {
                    if case .missing(let install) = outcome { reason = "peer not installed (\(install))" }
                    if case .failed(let message) = outcome { reason = "peer failed: \(message)" }
                }
                print(pad([row.path, ourColumn, row.peerLabel, reason, "", ""]))
                continue
            }
            let peerBest = measured.map(\.0.best)
            let ratio = median(mine.map(\.best)) / median(peerBest)
            let cpuRatio = median(mine.map(\.cpu)) / median(measured.map(\.0.cpu))
            let cpuColumn = mine.isEmpty ? "" : String(format: "%.0f / %.0f, %.2fx", median(mine.map(\.cpu)), median(measured.map(\.0.cpu)), cpuRatio)
            print(pad([row.path, ourColumn, "\(row.peerLabel) (\(measured[0].1))", spread(peerBest),
                       mine.isEmpty ? "" : String(format: "%.2fx", ratio), cpuColumn]))
        }
        print("""

            MB/s: the median over rounds of each process's best run (min-max over rounds in brackets),
            wall clock; Markbridge at least 3 runs and 1 s in a child process (`--child PATH file`),
            each peer at least 5 runs and 1 s in a Python process of its own (\(script)),
            both after one untimed warm-up. The last column: the same by CPU time (Markbridge's
            MB/s / the peer's, and their ratio), which a shared machine's other processes do not
            inflate as they do the wall clock.
            """)
        return !failed
    }

    /// The `--child` line's figures as MB/s, or nil for an error line.
    static func markbridgeFigures(_ line: String) -> Figures? {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count >= 13, let bytes = Double(fields[3]), let best = Double(fields[5]),
              let median = Double(fields[11]), let cpu = Double(fields[12]) else { return nil }
        return Figures(best: bytes / 1e6 / best, median: bytes / 1e6 / median, cpu: bytes / 1e6 / cpu)
    }

    /// Runs `python3 peers.py PEER FILE` and reads its one line.
    static func measurePeer(_ peer: String, file: String) -> Outcome {
        guard FileManager.default.isReadableFile(atPath: script) else {
            return .failed("\(script) not found (the bench reads it from its source folder)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, peer, file]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .missing("python3, then pip install selectolax html-to-markdown")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 127 { return .missing("python3 not found") }
        let fields = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\t").map(String.init)
        if fields.first == "missing", fields.count >= 3 { return .missing(fields[2]) }
        guard fields.first == "ok", fields.count >= 10, let bytes = Double(fields[3]), let best = Double(fields[5]),
              let median = Double(fields[6]), let cpu = Double(fields[9]) else {
            return .failed("exit \(process.terminationStatus), '\(fields.joined(separator: " "))'")
        }
        return .measured(Figures(best: bytes / 1e6 / best, median: bytes / 1e6 / median, cpu: bytes / 1e6 / cpu), version: fields[2])
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// "146 (131-152)": the median, and the range when there was more than one round.
    static func spread(_ values: [Double]) -> String {
        let middle = String(format: "%.1f", median(values))
        guard values.count > 1, let low = values.min(), let high = values.max() else { return middle }
        return middle + String(format: " (%.0f-%.0f)", low, high)
    }

    private static func pad(_ columns: [String]) -> String {
        let widths = [14, 18, 46, 18, 8, 24]
        let line = zip(columns, widths).map { column, width in
            column.count >= width ? column + " " : column + String(repeating: " ", count: width - column.count)
        }.joined()
        return String(line.reversed().drop(while: { $0 == " " }).reversed())
    }
}
