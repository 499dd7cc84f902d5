import Markbridge

/// `batch --check --report`: the census as a page.
enum BatchCensusReport {
    static func write(_ counts: BatchCounts, gate: LossGate, to path: String, title: String) throws(BatchIOError) {
        let census = counts.census
        let content = ReportContent(
            title: title, oldName: "", newName: "", old: Document(), new: Document(), diff: DocumentDiff(changes: []),
            census: census.ranked.map { CensusEntry(name: $0.name, severity: $0.severity, count: $0.entry.records, examples: $0.entry.examples) },
            notes: ["\(census.losing) of \(census.checked) checked records lose something, \(census.failing) fail the gate (\(gate.description)); \(counts.deadLettered) dead-lettered."])
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
