import Markbridge

/// `batch --check --report`: the census as a page.
enum BatchCensusReport {
    static func write(_ counts: BatchCounts, gate: LossGate, to path: String, title: String, runDetails: [(name: String, value: String)] = [],
                      examplePages: [String: String] = [:]) throws(BatchIOError) {
        let census = counts.census
        let grouped = DiffHTMLReport.grouped
        var details = runDetails
        details += [("Gate", "fails on " + gate.description), ("Records", grouped(counts.records)), ("Checked", grouped(census.checked)),
                    ("Losing something", grouped(census.losing)), ("Failing the gate", grouped(census.failing)),
                    ("Dead-lettered", grouped(counts.deadLettered))]
        var content = ReportContent(
            title: title, oldName: "", newName: "", old: Document(), new: Document(), diff: DocumentDiff(changes: []),
            census: census.ranked.map { CensusEntry(name: $0.name, severity: $0.severity, count: $0.entry.records, examples: $0.entry.examples) },
            notes: ["\(grouped(census.losing)) of \(grouped(census.checked)) checked records lose something, \(grouped(census.failing)) fail the gate (\(gate.description)); \(grouped(counts.deadLettered)) dead-lettered."])
        content.runDetails = details
        content.examplePages = examplePages
        content.deadLetters = counts.failures.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
        let file = try BatchFile(path: path)
        do throws(BatchIOError) {
            try file.write(Array(DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(content).utf8))
            try file.finish()
        } catch {
            file.abandon()
            throw error
        }
    }
}
