/// How a report is rendered: what `markbridge check`, `diff` and `batch --check` print and write.
public enum ReportFormat: Sendable, CaseIterable {
    /// For people: diagnostics as compilers print them, the changes, the verdict. Control
    /// characters from the documents are escaped, so it is safe to print to a terminal.
    case text
    /// For tools: one JSON object, stable in its field names and order (see the README).
    case json
    /// One self-contained page, safe to open on hostile content: every string escaped or
    /// written through the HTML writer with the URL policy, scripts forbidden by its
    /// Content-Security-Policy, nothing fetched.
    case html
}

extension MigrationCheck {
    /// The check as `markbridge check` reports it; `input` names the document, `target` the
    /// format it was checked through, `gate` judges what was lost; `color` paints text for a
    /// terminal.
    public func report(_ format: ReportFormat, input: String, via target: Format, gate: LossGate = .default, color: Bool = false) -> String {
        let names = CheckNames(input: input, target: target.name)
        switch format {
        case .text: return CheckTextReport(usesColor: color, names: names).render(self, gate: gate)
        case .json: return CheckJSONReport(names: names).render(self, gate: gate)
        case .html: return DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(CheckReportContent.make(self, names: names, gate: gate))
        }
    }
}

extension DocumentDiff {
    /// The diff of `old` and `new` (the documents it was made from) as `markbridge diff` reports
    /// it, each side named; `gate` says which losses the JSON counts.
    public func report(_ format: ReportFormat, old: Document, new: Document, oldName: String, newName: String,
                       gate: LossGate = .anyLoss, color: Bool = false) -> String {
        switch format {
        case .text: return DiffTextReport(usesColor: color).render(self, oldName: oldName, newName: newName)
        case .json: return DiffJSONReport().render(self, oldName: oldName, newName: newName, gate: gate, diagnostics: [])
        case .html:
            return DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(ReportContent(
                title: "markbridge diff: \(oldName) → \(newName)", oldName: oldName, newName: newName, old: old, new: new, diff: self))
        }
    }
}

extension MigrationCensus {
    /// The census as `batch --check` reports it: the summary's census lines (`text`), its JSON
    /// summary's `census` object (`json`), or the census page (`html`, titled `title`).
    public func report(_ format: ReportFormat, gate: LossGate, title: String = "markbridge census") -> String {
        switch format {
        case .text: return censusText(gate: gate)
        case .json: return censusJSON(gate: gate)
        case .html: return DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(censusPage(gate: gate, title: title))
        }
    }
}
