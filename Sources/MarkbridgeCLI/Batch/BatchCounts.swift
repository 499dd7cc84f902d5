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
    var census = BatchCensus()

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

/// What `batch --check` found: how many records lost something, and for each class of loss
/// (``MigrationCheck/losses``) how many records and the ids of the first few.
struct BatchCensus: Codable, Hashable, Sendable {
    struct Entry: Codable, Hashable, Sendable {
        var records = 0
        /// Record ids as JSON text (the id field's value as written, or `"file:line"`), in input order.
        var examples: [String] = []
    }

    /// How many example ids each class keeps.
    static let examplesKept = 5

    var checked = 0
    var losing = 0
    var classes: [String: Entry] = [:]

    mutating func record(_ losses: [String], id: String) {
        checked += 1
        guard !losses.isEmpty else { return }
        losing += 1
        for loss in losses {
            classes[loss, default: Entry()].records += 1
            if classes[loss]!.examples.count < Self.examplesKept { classes[loss]!.examples.append(id) }
        }
    }

    /// Pieces are added in input order, so the first examples stay the first.
    mutating func add(_ other: BatchCensus) {
        checked += other.checked
        losing += other.losing
        for (name, entry) in other.classes {
            var merged = classes[name] ?? Entry()
            merged.records += entry.records
            merged.examples = Array((merged.examples + entry.examples).prefix(Self.examplesKept))
            classes[name] = merged
        }
    }

    /// The classes, most records first (ties by name).
    var ranked: [(name: String, entry: Entry)] {
        classes.map { (name: $0.key, entry: $0.value) }.sorted { $0.entry.records != $1.entry.records ? $0.entry.records > $1.entry.records : $0.name < $1.name }
    }
}
