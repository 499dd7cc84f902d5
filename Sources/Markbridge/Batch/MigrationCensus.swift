/// What a checked migration found over many records (`batch --check`, or a service's own
/// loop over ``JSONLinesMigration`` results): how many records lost something the gate counts,
/// how many of them fail it, and for each class of loss (``MigrationCheck/lossClasses``) how
/// many records and the ids of the first few. A value: censuses of parts of a run add up
/// (``add(_:)``) to the census of the whole, in input order.
public struct MigrationCensus: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable {
        public var records = 0
        /// Record ids as JSON text (the id field's value as written, or `"file:line"`), in input order.
        public var examples: [String] = []
    }

    /// How many example ids each class keeps.
    public static let examplesKept = 5

    public var checked = 0
    /// Records with a loss the gate counts (not ignored).
    public var losing = 0
    /// Records with a loss that fails the gate.
    public var failing = 0
    /// By class name (``LossClass/name``).
    public var classes: [String: Entry] = [:]

    public init() {}

    /// One record's losses, as `gate` counts them; whether the record fails it.
    @discardableResult
    public mutating func record(_ losses: [Loss], gate: LossGate, id: String) -> Bool {
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
    public mutating func add(_ other: MigrationCensus) {
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
    package static func severity(of name: String) -> LossSeverity {
        LossClass(named: name)?.severity ?? .content
    }

    /// The classes, worst severity first, then most records, then by name: the order of the decision.
    public var ranked: [(name: String, severity: LossSeverity, entry: Entry)] {
        classes.map { (name: $0.key, severity: Self.severity(of: $0.key), entry: $0.value) }.sorted {
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            if $0.entry.records != $1.entry.records { return $0.entry.records > $1.entry.records }
            return $0.name < $1.name
        }
    }
}
