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

/// What `batch --check` found: how many records lost something the gate counts, how many of
/// them fail it, and for each class of loss (``MigrationCheck/lossClasses``) how many records
/// and the ids of the first few.
struct BatchCensus: Codable, Hashable, Sendable {
    struct Entry: Codable, Hashable, Sendable {
        var records = 0
        /// Record ids as JSON text (the id field's value as written, or `"file:line"`), in input order.
        var examples: [String] = []
    }

    /// How many example ids each class keeps.
    static let examplesKept = 5

    var checked = 0
    /// Records with a loss the gate counts (not `--ignore`d).
    var losing = 0
    /// Records with a loss that fails the gate (`--fail-on`).
    var failing = 0
    var classes: [String: Entry] = [:]

    /// One record's losses, as `gate` counts them; whether the record fails it.
    @discardableResult
    mutating func record(_ losses: [Loss], gate: LossGate, id: String) -> Bool {
        checked += 1
        let counted = Set(gate.counted(losses).map(\.lossClass))
        guard !counted.isEmpty else { return false }
        losing += 1
        let fails = counted.contains(where: gate.fails)
        if fails { failing += 1 }
        for lossClass in counted {
            classes[lossClass.name, default: Entry()].records += 1
            if classes[lossClass.name]!.examples.count < Self.examplesKept { classes[lossClass.name]!.examples.append(id) }
        }
        return fails
    }

    /// Pieces are added in input order, so the first examples stay the first.
    mutating func add(_ other: BatchCensus) {
        checked += other.checked
        losing += other.losing
        failing += other.failing
        for (name, entry) in other.classes {
            var merged = classes[name] ?? Entry()
            merged.records += entry.records
            merged.examples = Array((merged.examples + entry.examples).prefix(Self.examplesKept))
            classes[name] = merged
        }
    }

    /// The severity of a class the census holds by name (a caller's own code counts as content).
    static func severity(of name: String) -> LossSeverity {
        LossClass(named: name)?.severity ?? .content
    }

    /// The classes, worst severity first, then most records, then by name: the order of the decision.
    var ranked: [(name: String, severity: LossSeverity, entry: Entry)] {
        classes.map { (name: $0.key, severity: Self.severity(of: $0.key), entry: $0.value) }.sorted {
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            if $0.entry.records != $1.entry.records { return $0.entry.records > $1.entry.records }
            return $0.name < $1.name
        }
    }
}
