import MarkbridgeJSON

/// `--fail-on`: which diagnostics, and whether a difference, count as something lost.
/// How a check's three documents are named: the input, the written output, its reading back.
package struct CheckNames {
    package var input: String
    package var target: String

    package init(input: String, target: String) {
        self.input = input
        self.target = target
    }

    package var written: String { "\(input) as \(target)" }
    package var before: String { "\(input) (read)" }
    package var after: String { "\(input) via \(target) (read back)" }
}

/// A check for people: each step's diagnostics as compilers print them, the diff between before
/// and after, and a verdict.
package struct CheckTextReport {
    package var usesColor: Bool
    package var names: CheckNames

    package init(usesColor: Bool, names: CheckNames) {
        self.usesColor = usesColor
        self.names = names
    }

    package func render(_ check: MigrationCheck, gate: LossGate) -> String {
        var out = ""
        for diagnostic in check.readDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.input) }
        for diagnostic in check.writeDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        for diagnostic in check.readBackDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        out += DiffTextReport(usesColor: usesColor).render(check.diff, oldName: names.before, newName: names.after)
        out += Self.verdict(check.losses, gate: gate) + "\n"
        return out
    }

    /// `Fails the gate (content,structure): content 2 (markup LINK removed 1, text changed 1); style 1 (diagnostic
    /// dropped-style 1).`, `Passes the gate (…): …`, or `Nothing lost.`, then what `--ignore` kept out.
    package static func verdict(_ losses: [Loss], gate: LossGate) -> String {
        let counted = gate.counted(losses)
        let ignored = losses.count - counted.count
        var sentence: String
        if counted.isEmpty {
            sentence = "Nothing lost."
        } else {
            let failing = gate.fails(counted)
            let bySeverity = LossSeverity.allCases.compactMap { severity -> String? in
                let ofSeverity = counted.filter { $0.severity == severity }
                guard !ofSeverity.isEmpty else { return nil }
                return "\(severity.rawValue) \(ofSeverity.count) (\(tally(ofSeverity)))"
            }
            let failOn = gate.failOn.isEmpty ? "none" : gate.failOn.map(\.description).joined(separator: ",")
            sentence = (failing ? "Fails" : "Passes") + " the gate (fails on \(failOn)): " + bySeverity.joined(separator: "; ") + "."
        }
        if ignored > 0 {
            sentence += " Not counted (--ignore): \(tally(losses.filter { !gate.counts($0.lossClass) }))."
        }
        return sentence
    }

    /// `markup LINK removed 1, text changed 2`: each class with how many times it occurs, worst first.
    package static func tally(_ losses: [Loss]) -> String {
        Dictionary(grouping: losses, by: \.lossClass).sorted { $0.key < $1.key }.map { "\($0.key.name) \($0.value.count)" }.joined(separator: ", ")
    }
}

/// A check for tools: `{"version":1,"file":…,"via":…,"lost":…,"diagnostics":[…],"diff":{…}}`, each
/// diagnostic with the step that raised it (`read`, `write`, `read-back`) first.
package struct CheckJSONReport {
    package var names: CheckNames

    package init(names: CheckNames) {
        self.names = names
    }

    package func render(_ check: MigrationCheck, gate: LossGate) -> String {
        let steps: [(String, String, [Diagnostic])] = [
            ("read", names.input, check.readDiagnostics), ("write", names.written, check.writeDiagnostics),
            ("read-back", names.written, check.readBackDiagnostics),
        ]
        let diagnostics = steps.flatMap { step, file, diagnostics in
            diagnostics.map { DiagnosticStyle.jsonObject($0, fileName: file, leading: [("step", JSONStringLiteral.encode(step))]) }
        }
        return "{\"version\":1,\"file\":\(JSONStringLiteral.encode(names.input)),\"via\":\(JSONStringLiteral.encode(names.target)),"
            + "\"lost\":\(gate.fails(check)),\"gate\":\(JSONStringLiteral.encode(gate.description)),"
            + "\"losses\":[\(gate.counted(check.losses).map(Self.object).joined(separator: ","))],"
            + "\"diagnostics\":[\(diagnostics.joined(separator: ","))],"
            + "\"diff\":\(DiffJSONReport().object(check.diff, oldName: names.before, newName: names.after))}\n"
    }
}

package extension CheckJSONReport {
    /// `{"class":"markup LINK removed","key":"markup-link-removed","severity":"content","block":0,"detail":"https://a/ over \"a\""}`
    static func object(_ loss: Loss) -> String {
        "{\"class\":\(JSONStringLiteral.encode(loss.lossClass.name)),\"key\":\(JSONStringLiteral.encode(loss.lossClass.key)),"
            + "\"severity\":\"\(loss.severity.rawValue)\",\"block\":\(loss.block.map(String.init) ?? "null"),"
            + "\"detail\":\(JSONStringLiteral.encode(loss.detail))}"
    }
}

/// A check as a report page: the document before on the left, read back on the right.
package enum CheckReportContent {
    package static func make(_ check: MigrationCheck, names: CheckNames, gate: LossGate) -> ReportContent {
        let diagnostics = check.readDiagnostics.map { ReportDiagnostic(fileName: names.input, diagnostic: $0, side: .old) }
            + check.writeDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .old) }
            + check.readBackDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .new) }
        return ReportContent(
            title: "markbridge check: \(names.input) via \(names.target)", oldName: names.before, newName: names.after,
            old: check.before, new: check.after, diff: check.diff, diagnostics: diagnostics,
            notes: [CheckTextReport.verdict(check.losses, gate: gate)],
            written: (names.target, String(decoding: check.written, as: UTF8.self)))
    }
}
