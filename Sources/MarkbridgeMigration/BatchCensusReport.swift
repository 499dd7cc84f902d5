import Markbridge

/// `batch --check --report`: the census as a page.
enum BatchCensusReport {
    static func write(_ counts: MigrationCounts, gate: LossGate, to path: String, title: String, runDetails: [(name: String, value: String)] = [],
                      examplePages: [String: String] = [:]) throws(FileMigrationError) {
        let content = counts.census.censusPage(gate: gate, title: title, records: counts.records, deadLetters: counts.failures,
                                               runDetails: runDetails, examplePages: examplePages)
        let file = try BatchFile(path: path)
        do throws(FileMigrationError) {
            try file.write(Array(DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(content).utf8))
            try file.finish()
        } catch {
            file.abandon()
            throw error
        }
    }
}
