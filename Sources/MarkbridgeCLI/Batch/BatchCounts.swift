import Markbridge

/// What a batch did, counted: records by outcome, failures and diagnostics by code. Added up
/// piece by piece, kept in the checkpoint, reported in the summary.
struct BatchCounts: Codable, Hashable, Sendable {
    var records = 0
    var converted = 0
    var deadLettered = 0
    var blankLines = 0
    /// Directory mode: files whose extension names no readable format, and (`--resume`) files
    /// whose output was there already.
    var skippedFiles = 0
    var alreadyDone = 0
    var inputBytes = 0
    var failures: [String: Int] = [:]
    var diagnostics: [String: Int] = [:]
    /// With `--check`: the records that lost something, and by class of loss.
    var census = MigrationCensus()

    mutating func add(_ other: BatchCounts) {
        records += other.records
        converted += other.converted
        deadLettered += other.deadLettered
        blankLines += other.blankLines
        skippedFiles += other.skippedFiles
        alreadyDone += other.alreadyDone
        inputBytes += other.inputBytes
        failures.merge(other.failures, uniquingKeysWith: +)
        diagnostics.merge(other.diagnostics, uniquingKeysWith: +)
        census.add(other.census)
    }

    /// `code n, code n`, most frequent first (ties by code), for the summary line.
    static func listing(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
