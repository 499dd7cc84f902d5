import Markbridge

/// What a migration did, counted: records by outcome, failures and diagnostics by code. Added
/// up piece by piece, kept in the checkpoint, reported in the summary and in each progress event.
public struct MigrationCounts: Codable, Hashable, Sendable {
    public package(set) var records = 0
    public package(set) var converted = 0
    public package(set) var deadLettered = 0
    public package(set) var blankLines = 0
    /// Directory mode: files whose extension names no readable format, and (`--resume`) files
    /// whose output was there already.
    public package(set) var skippedFiles = 0
    public package(set) var alreadyDone = 0
    public package(set) var inputBytes = 0
    public package(set) var failures: [String: Int] = [:]
    public package(set) var diagnostics: [String: Int] = [:]
    /// With `--check`: the records that lost something, and by class of loss.
    public package(set) var census = MigrationCensus()

    public init() {}

    package mutating func add(_ other: MigrationCounts) {
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
    package static func listing(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
