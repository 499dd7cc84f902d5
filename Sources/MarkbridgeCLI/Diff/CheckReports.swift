import Markbridge
import MarkbridgeJSON

/// `--fail-on`: which diagnostics, and whether a difference, count as something lost.
struct FailOn {
    var anyWarning = false
    var anyDifference = false
    var codes: Set<String> = []

    init(_ value: String) throws(UsageError) {
        let items = value.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw UsageError(message: "--fail-on needs classes, comma-separated (warnings, diff, none, or diagnostic codes), not '\(value)'")
        }
        for item in items {
            switch item {
            case "warnings": anyWarning = true
            case "diff": anyDifference = true
            case "none": break
            default:
                guard !item.isEmpty, item.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
                    throw UsageError(message: "Unknown class '\(item)' for --fail-on (expected warnings, diff, none or diagnostic codes such as unsafe-url)")
                }
                guard DiagnosticCode.named(item)?.kind == .diagnostic else {
                    let nearest = Self.nearest(to: item).map { "did you mean '\($0)'? " } ?? ""
                    throw UsageError(message: "Unknown diagnostic code '\(item)' for --fail-on (\(nearest)`markbridge help codes` lists them)")
                }
                codes.insert(item)
            }
        }
    }

    /// The diagnostic code closest to `item` by edit distance, if one is within a third of it.
    static func nearest(to item: String) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var previous = row[0]
                row[0] = i + 1
                for (j, y) in b.enumerated() {
                    let substitution = previous + (x == y ? 0 : 1)
                    previous = row[j + 1]
                    row[j + 1] = min(substitution, row[j] + 1, row[j + 1] + 1)
                }
            }
            return row[b.count]
        }
        let characters = Array(item)
        let ranked = DiagnosticCode.all.filter { $0.kind == .diagnostic }.map { ($0.code, distance(characters, Array($0.code))) }
        guard let best = ranked.min(by: { $0.1 < $1.1 }), best.1 <= max(1, item.count / 3) else { return nil }
        return best.0
    }

    func counts(_ diagnostic: Diagnostic) -> Bool {
        (anyWarning && diagnostic.severity == .warning) || codes.contains(diagnostic.code)
    }

    /// Whether `check` lost something, as counted here.
    func isLost(_ check: MigrationCheck) -> Bool {
        (anyDifference && !check.diff.isEmpty) || check.diagnostics.contains(where: counts)
    }
}

/// How a check's three documents are named: the input, the written output, its reading back.
struct CheckNames {
    var input: String
    var target: String

    var written: String { "\(input) as \(target)" }
    var before: String { "\(input) (read)" }
    var after: String { "\(input) via \(target) (read back)" }
}

/// A check for people: each step's diagnostics as compilers print them, the diff between before
/// and after, and a verdict.
struct CheckTextReport {
    var usesColor: Bool
    var names: CheckNames

    func render(_ check: MigrationCheck, lost: Bool) -> String {
        var out = ""
        for diagnostic in check.readDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.input) }
        for diagnostic in check.writeDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        for diagnostic in check.readBackDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        out += DiffTextReport(usesColor: usesColor).render(check.diff, oldName: names.before, newName: names.after)
        out += verdict(check, lost: lost) + "\n"
        return out
    }

    /// `Lost: 2 diagnostics (markup-dropped 1, unsafe-url 1); 1 block differs.` or `Nothing lost.`
    func verdict(_ check: MigrationCheck, lost: Bool) -> String {
        let warnings = check.diagnostics.filter { $0.severity == .warning }
        guard lost || !warnings.isEmpty || !check.diff.isEmpty else { return "Nothing lost." }
        var parts: [String] = []
        if !warnings.isEmpty {
            let byCode = Dictionary(grouping: warnings, by: \.code).map { ($0.key, $0.value.count) }.sorted { $0.0 < $1.0 }
            parts.append("\(warnings.count) warning\(warnings.count == 1 ? "" : "s") (" + byCode.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")")
        }
        if !check.diff.isEmpty {
            let count = check.diff.changes.count
            parts.append("\(count) block\(count == 1 ? "" : "s") differ\(count == 1 ? "s" : "") after reading back")
        }
        return (lost ? "Lost: " : "Not counted as lost (--fail-on): ") + parts.joined(separator: "; ") + "."
    }
}

/// A check for tools: `{"version":1,"file":…,"via":…,"lost":…,"diagnostics":[…],"diff":{…}}`, each
/// diagnostic with the step that raised it (`read`, `write`, `read-back`) first.
struct CheckJSONReport {
    var names: CheckNames

    func render(_ check: MigrationCheck, lost: Bool) -> String {
        let steps: [(String, String, [Diagnostic])] = [
            ("read", names.input, check.readDiagnostics), ("write", names.written, check.writeDiagnostics),
            ("read-back", names.written, check.readBackDiagnostics),
        ]
        let diagnostics = steps.flatMap { step, file, diagnostics in
            diagnostics.map { DiagnosticStyle.jsonObject($0, fileName: file, leading: [("step", JSONStringLiteral.encode(step))]) }
        }
        return "{\"version\":1,\"file\":\(JSONStringLiteral.encode(names.input)),\"via\":\(JSONStringLiteral.encode(names.target)),"
            + "\"lost\":\(lost),\"diagnostics\":[\(diagnostics.joined(separator: ","))],"
            + "\"diff\":\(DiffJSONReport().object(check.diff, oldName: names.before, newName: names.after))}\n"
    }
}

/// A check as a report page: the document before on the left, read back on the right.
enum CheckReportContent {
    static func make(_ check: MigrationCheck, names: CheckNames, lost: Bool) -> ReportContent {
        let diagnostics = check.readDiagnostics.map { ReportDiagnostic(fileName: names.input, diagnostic: $0, side: .old) }
            + check.writeDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .old) }
            + check.readBackDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .new) }
        return ReportContent(
            title: "markbridge check: \(names.input) via \(names.target)", oldName: names.before, newName: names.after,
            old: check.before, new: check.after, diff: check.diff, diagnostics: diagnostics,
            notes: [CheckTextReport(usesColor: false, names: names).verdict(check, lost: lost)])
    }
}
