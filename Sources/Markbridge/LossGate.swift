import MarkbridgeIR

/// What a migration will not accept: the classes of loss that fail a check (`failOn`), and those
/// not counted at all (`ignoring`, which wins). By default content and structure fail, style and
/// info are counted but pass, so a run that only drops CSS is safe to run and one that loses a
/// word or a link is not.
///
/// ```swift
/// let gate = try LossGate(failOn: "content,structure,markup:COLOR", ignoring: "dropped-style")
/// if gate.fails(check) { ... }
/// ```
public struct LossGate: Hashable, Sendable {
    public var failOn: [LossSelector]
    public var ignoring: [LossSelector]

    public init(failOn: [LossSelector] = [.severity(.content), .severity(.structure)], ignoring: [LossSelector] = []) {
        self.failOn = failOn
        self.ignoring = ignoring
    }

    /// The gate a command line spells: each a comma-separated list of selectors (``LossSelector/init(parsing:)``);
    /// nil keeps the default.
    public init(failOn: String?, ignoring: String?) throws(LossSelector.ParseError) {
        self.init()
        if let failOn { self.failOn = try LossSelector.list(failOn, option: "--fail-on") }
        if let ignoring { self.ignoring = try LossSelector.list(ignoring, option: "--ignore") }
    }

    /// Content and structure fail; nothing is ignored.
    public static let `default` = LossGate()

    /// Every class fails: any warning or any difference (the gate of `diff`, as diff(1) has it).
    public static let anyLoss = LossGate(failOn: LossSeverity.allCases.map { .severity($0) })

    /// Whether a loss of this class is counted (not ignored).
    public func counts(_ lossClass: LossClass) -> Bool {
        !ignoring.contains { $0.matches(lossClass) }
    }

    /// Whether a loss of this class fails the gate.
    public func fails(_ lossClass: LossClass) -> Bool {
        counts(lossClass) && failOn.contains { $0.matches(lossClass) }
    }

    /// The losses counted, in their order.
    public func counted(_ losses: [Loss]) -> [Loss] {
        losses.filter { counts($0.lossClass) }
    }

    /// Whether any of the losses fails the gate.
    public func fails(_ losses: [Loss]) -> Bool {
        losses.contains { fails($0.lossClass) }
    }

    /// Whether the check fails the gate.
    public func fails(_ check: MigrationCheck) -> Bool {
        fails(check.losses)
    }

    /// `content,structure` or `content,structure; ignoring dropped-style`: for a report's run details.
    public var description: String {
        let failing = failOn.isEmpty ? "none" : failOn.map(\.description).joined(separator: ",")
        return ignoring.isEmpty ? failing : failing + "; ignoring " + ignoring.map(\.description).joined(separator: ",")
    }
}

/// A set of loss classes, as `--fail-on` and `--ignore` name them.
public enum LossSelector: Hashable, Sendable, CustomStringConvertible {
    /// Every class of this severity.
    case severity(LossSeverity)
    /// One class: a diagnostic code, or a class of difference.
    case lossClass(LossClass)
    /// Every class about a markup type (`markup:COLOR`).
    case markup(String)
    /// Every warning's code (`warnings`).
    case warnings
    /// Every class of difference between before and after (`diff`).
    case differences

    public func matches(_ lossClass: LossClass) -> Bool {
        switch self {
        case .severity(let severity): lossClass.severity == severity
        case .lossClass(let selected): lossClass == selected
        case .markup(let type): lossClass.markupType == type
        case .warnings: lossClass.isDiagnostic
        case .differences: !lossClass.isDiagnostic
        }
    }

    public var description: String {
        switch self {
        case .severity(let severity): severity.rawValue
        case .lossClass(let lossClass): lossClass.key
        case .markup(let type): "markup:\(type)"
        case .warnings: "warnings"
        case .differences: "diff"
        }
    }

    /// Why a selector was refused, with the nearest one Markbridge has.
    public struct ParseError: Error, Hashable, Sendable {
        public var message: String
    }

    /// One selector: a severity (`content`, `structure`, `style`, `info`), a diagnostic code
    /// (`dropped-style`), a class by key or name (`text-changed`, `markup COLOR removed`),
    /// `markup:TYPE`, `warnings` or `diff`.
    public init(parsing text: String) throws(ParseError) {
        try self.init(text, option: nil)
    }

    private init(_ text: String, option: String?) throws(ParseError) {
        let unknown = option.map { "' for \($0)" } ?? "'"
        if let severity = LossSeverity(rawValue: text) {
            self = .severity(severity)
        } else if text == "warnings" {
            self = .warnings
        } else if text == "diff" {
            self = .differences
        } else if text.hasPrefix("markup:") {
            let type = String(text.dropFirst("markup:".count)).uppercased()
            guard MarkupKind.Tag(name: type) != nil else {
                let types = MarkupKind.Tag.allCases.map(\.name).joined(separator: ", ")
                throw ParseError(message: "Unknown markup type '\(text.dropFirst("markup:".count))' in '\(text)\(unknown) (expected one of \(types))")
            }
            self = .markup(type)
        } else if let lossClass = LossClass(named: text) {
            self = .lossClass(lossClass)
        } else {
            let nearest = Self.nearest(to: text).map { "did you mean '\($0)'? " } ?? ""
            throw ParseError(message: "Unknown class '\(text)\(unknown) (\(nearest)expected a severity: content, structure, style, info; "
                + "a diagnostic code or a class such as text-changed, markup-link-removed, markup:COLOR; warnings, diff or none; "
                + "`markbridge help codes` lists them)")
        }
    }

    /// A comma-separated list; `none` is the empty list.
    static func list(_ value: String, option: String) throws(ParseError) -> [LossSelector] {
        let items = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: " ") }
        guard !items.contains(where: \.isEmpty) else {
            throw ParseError(message: "\(option) needs classes, comma-separated (severities, diagnostic codes, classes, warnings, diff or none), not '\(value)'")
        }
        if items == ["none"] { return [] }
        var selectors: [LossSelector] = []
        for item in items {
            selectors.append(try LossSelector(item, option: option))
        }
        return selectors
    }

    /// Every word a selector can be spelt with, for suggestions.
    private static let spellings: [String] =
        LossSeverity.allCases.map(\.rawValue) + ["warnings", "diff", "none"] + LossClass.allCases.map(\.key)
        + MarkupKind.Tag.allCases.map { "markup:\($0.name)" }

    /// The spelling closest to `text` by edit distance, if one is within a third of it.
    static func nearest(to text: String) -> String? {
        let characters = Array(text)
        var best: (String, Int)?
        for spelling in spellings {
            let distance = editDistance(characters, Array(spelling))
            if distance < best?.1 ?? .max { best = (spelling, distance) }
        }
        guard let best, best.1 <= max(1, characters.count / 3) else { return nil }
        return best.0
    }

    /// Edits (insertions, deletions, substitutions, and swaps of neighbours) from `a` to `b`.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                row[j] = min(previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), row[j - 1] + 1, previous[j] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], beforePrevious[j - 2] + 1) }
            }
            beforePrevious = previous
            previous = row
        }
        return previous[b.count]
    }
}

private extension Substring {
    func trimmingCharacters(in space: Character) -> String {
        String(drop { $0 == space }.reversed().drop { $0 == space }.reversed())
    }
}
