import Foundation
import Markbridge
import MarkbridgeJSON
import MarkbridgeMigration

/// How a batch ends, in either mode: the summary on standard error.
extension BatchCommand {
    /// A word as a POSIX shell would take it back: bare when it is safe, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./:=,@%+".unicodeScalars.contains($0)) }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The process's peak resident memory (Linux's VmHWM), for the JSON summary; 0 where unknown.
    static func peakMemoryBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }

    /// One line, for people (`--summary text`) or for tools (`--summary json`).
    func summary(_ counts: MigrationCounts, elapsed: Duration, asJSON: Bool, gate: LossGate? = nil) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(counts.records) / seconds : 0
        let megabytes = seconds > 0 ? Double(counts.inputBytes) / seconds / 1_000_000 : 0
        if asJSON {
            func object(_ counts: [String: Int]) -> String {
                "{" + counts.sorted { $0.key < $1.key }.map { "\(JSONStringLiteral.encode($0.key)):\($0.value)" }.joined(separator: ",") + "}"
            }
            let census = gate.map { #","census":\#(counts.census.censusJSON(gate: $0))"# } ?? ""
            return #"{"records":\#(counts.records),"converted":\#(counts.converted),"deadLettered":\#(counts.deadLettered),"blankLines":\#(counts.blankLines),"skippedFiles":\#(counts.skippedFiles),"alreadyDone":\#(counts.alreadyDone),"failures":\#(object(counts.failures)),"diagnostics":\#(object(counts.diagnostics))\#(census),"inputBytes":\#(counts.inputBytes),"seconds":\#(String(format: "%.3f", seconds)),"peakMemoryBytes":\#(Self.peakMemoryBytes())}"# + "\n"
        }
        var line = "markbridge batch: \(counts.records) record\(counts.records == 1 ? "" : "s"), \(counts.converted) converted, \(counts.deadLettered) dead-lettered"
        if !counts.failures.isEmpty { line += " (\(MigrationCounts.listing(counts.failures)))" }
        if counts.blankLines > 0 { line += ", \(counts.blankLines) blank line\(counts.blankLines == 1 ? "" : "s") skipped" }
        if counts.skippedFiles > 0 { line += ", \(counts.skippedFiles) file\(counts.skippedFiles == 1 ? "" : "s") of no readable format skipped" }
        if counts.alreadyDone > 0 { line += ", \(counts.alreadyDone) already done (--resume)" }
        if !counts.diagnostics.isEmpty { line += "; diagnostics: \(MigrationCounts.listing(counts.diagnostics))" }
        line += String(format: "; %.2f s, %.0f records/s, %.1f MB/s", seconds, rate, megabytes)
        line += "\n"
        if let gate { line += counts.census.censusText(gate: gate) }
        return line
    }
}
