import Foundation
import MarkbridgeMigration

/// The live line a batch shows on standard error when it is a terminal: records done, records
/// and megabytes a second, failures, and the time left when the input's size is known. Nothing
/// when standard error is a file or a pipe (a log wants the summary only).
struct BatchProgress {
    let totalBytes: Int?
    let report: @Sendable (String) -> Void
    private let isTerminal = isatty(2) != 0
    private let started = ContinuousClock.now
    private var lastShown = ContinuousClock.now
    private var shown = false
    /// What a resumed run had done before it started, not counted in its rates.
    private let before: MigrationCounts

    init(totalBytes: Int?, alreadyDone: MigrationCounts, report: @escaping @Sendable (String) -> Void) {
        self.totalBytes = totalBytes
        self.report = report
        before = alreadyDone
    }

    mutating func update(_ counts: MigrationCounts) {
        guard isTerminal, ContinuousClock.now - lastShown > .milliseconds(250) else { return }
        lastShown = .now
        shown = true
        let elapsed = ContinuousClock.now - started
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        let bytes = counts.inputBytes - before.inputBytes
        var line = String(format: "%d records, %.0f records/s, %.1f MB/s, %d failed", counts.records,
                          Double(counts.records - before.records) / seconds, Double(bytes) / seconds / 1_000_000, counts.deadLettered)
        if let totalBytes, totalBytes > 0 {
            let done = Double(counts.inputBytes) / Double(totalBytes)
            let left = bytes > 0 ? Double(totalBytes - counts.inputBytes) / (Double(bytes) / seconds) : 0
            line += String(format: ", %.0f%% done, %.0f s left", done * 100, left)
        }
        report("\r" + line + "\u{1B}[K")
    }

    func finish() {
        if shown { report("\r\u{1B}[K") }
    }
}
