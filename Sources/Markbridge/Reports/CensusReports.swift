import MarkbridgeJSON

extension MigrationCensus {
    /// `census: 41 of 20000 checked records lose something, 9 fail the gate (content,structure)`,
    /// then a line a class, worst first: `  content: text changed: 9 records (e.g. 17, 23, 40, 41, 96)`.
    package func censusText(gate: LossGate) -> String {
        let census = self
        var text = "census: \(census.losing) of \(census.checked) checked record\(census.checked == 1 ? "" : "s") lose\(census.losing == 1 ? "s" : "") something"
        text += ", \(census.failing) fail\(census.failing == 1 ? "s" : "") the gate (\(gate.description))\n"
        for (name, severity, entry) in census.ranked {
            let examples = entry.examples.map(TerminalText.line).joined(separator: ", ")
            text += "  \(severity.rawValue): \(name): \(entry.records) record\(entry.records == 1 ? "" : "s") (e.g. \(examples))\n"
        }
        return text
    }

    /// `{"checked":N,"losing":N,"failing":N,"gate":"content,structure","classes":{"markup COLOR removed":{"severity":"style",
    /// "records":N,"examples":["17",...]}}}`; each example is the id as the record wrote it (a string or a number), or `"file:line"`.
    package func censusJSON(gate: LossGate) -> String {
        let census = self
        let classes = census.ranked.map { name, severity, entry in
            "\(JSONStringLiteral.encode(name)):{\"severity\":\"\(severity.rawValue)\",\"records\":\(entry.records),\"examples\":[\(entry.examples.joined(separator: ","))]}"
        }
        return #"{"checked":\#(census.checked),"losing":\#(census.losing),"failing":\#(census.failing),"gate":\#(JSONStringLiteral.encode(gate.description)),"classes":{\#(classes.joined(separator: ","))}}"#
    }

    /// The census page's content: the run's details as given, then the gate and the counts,
    /// the classes worst first, and `deadLetters` by code, most first.
    package func censusPage(gate: LossGate, title: String, records: Int? = nil, deadLetters: [String: Int] = [:],
                            runDetails: [(name: String, value: String)] = [], examplePages: [String: String] = [:]) -> ReportContent {
        let grouped = DiffHTMLReport.grouped
        let deadLettered = deadLetters.values.reduce(0, +)
        var details = runDetails
        details += [("Gate", "fails on " + gate.description), ("Records", grouped(records ?? checked)), ("Checked", grouped(checked)),
                    ("Losing something", grouped(losing)), ("Failing the gate", grouped(failing)),
                    ("Dead-lettered", grouped(deadLettered))]
        var content = ReportContent(
            title: title, oldName: "", newName: "", old: Document(), new: Document(), diff: DocumentDiff(changes: []),
            census: ranked.map { CensusEntry(name: $0.name, severity: $0.severity, count: $0.entry.records, examples: $0.entry.examples) },
            notes: ["\(grouped(losing)) of \(grouped(checked)) checked records lose something, \(grouped(failing)) fail the gate (\(gate.description)); \(grouped(deadLettered)) dead-lettered."])
        content.runDetails = details
        content.examplePages = examplePages
        content.deadLetters = deadLetters.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
        return content
    }
}
