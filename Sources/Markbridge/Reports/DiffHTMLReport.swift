import MarkbridgeHTML

/// What a report page shows: two documents side by side, what differs between them, the
/// diagnostics raised on the way, and for a batch check the census of what records lost.
package struct ReportContent {
    package var title: String
    package var oldName: String
    package var newName: String
    package var old: Document
    package var new: Document
    package var diff: DocumentDiff
    package var diagnostics: [ReportDiagnostic] = []
    package var census: [CensusEntry] = []
    /// Lines for the summary at the top, after the diff's own.
    package var notes: [String] = []
    /// How the run went, for a batch: the command, the version, when, the inputs, the gate, the counts.
    package var runDetails: [(name: String, value: String)] = []
    /// A batch's dead letters by error code, most first.
    package var deadLetters: [(code: String, records: Int)] = []
    /// For a check, what the target's writer produced (`markdown`, its text), shown after the two sides.
    package var written: (format: String, text: String)?
    /// For a census, the page of each example record that has one (its id, as JSON text, to a
    /// path relative to the census page).
    package var examplePages: [String: String] = [:]

    package init(title: String, oldName: String, newName: String, old: Document, new: Document, diff: DocumentDiff,
                 diagnostics: [ReportDiagnostic] = [], census: [CensusEntry] = [], notes: [String] = [],
                 written: (format: String, text: String)? = nil) {
        self.title = title
        self.oldName = oldName
        self.newName = newName
        self.old = old
        self.new = new
        self.diff = diff
        self.diagnostics = diagnostics
        self.census = census
        self.notes = notes
        self.written = written
    }
}

/// A diagnostic as the report lists it: the file it is about and which side's block it points at.
package struct ReportDiagnostic {
    package enum Side: String {
        case old, new
    }

    package var fileName: String
    package var diagnostic: Diagnostic
    /// The side whose blocks the diagnostic's block index or `/paragraphs/N` pointer counts.
    package var side: Side?

    package init(fileName: String, diagnostic: Diagnostic, side: Side?) {
        self.fileName = fileName
        self.diagnostic = diagnostic
        self.side = side
    }
}

/// One class of loss over a batch: its name, how many records, and a few of their ids.
package struct CensusEntry {
    package var name: String
    package var severity: LossSeverity
    package var count: Int
    package var examples: [String]

    package init(name: String, severity: LossSeverity, count: Int, examples: [String]) {
        self.name = name
        self.severity = severity
        self.count = count
        self.examples = examples
    }
}

/// The `--report` page: one self-contained HTML file, safe to open on hostile content. Every
/// string from the documents is escaped or goes through our HTML writer with the URL policy; a
/// Content-Security-Policy forbids scripts and fetching anything (images show as their alt text);
/// the styles are inline.
package struct DiffHTMLReport {
    package var urlPolicy: URLPolicy

    package init(urlPolicy: URLPolicy) {
        self.urlPolicy = urlPolicy
    }

    /// The policy on the page, whatever the conversion allowed: absolute web and mail links
    /// only, since a relative or protocol-relative link would resolve against wherever the
    /// report file lies (`//host/x` is a file share on some systems).
    package static let linkPolicy = URLPolicy(allowsRelativeURLs: false)

    package func render(_ content: ReportContent) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(content.title))</title>
        <style>\(Self.styles)</style>
        </head>
        <body>
        <header>
        <h1>\(escape(content.title))</h1>

        """
        let counts = DiffCounts(content.diff)
        out += "<p class=\"summary\" id=\"summary\">"
        if content.census.isEmpty {
            out += content.diff.isEmpty ? "No differences." : escape(DiffTextReport(usesColor: false).summary(content.diff)) + "."
        } else {
            out += "\(Self.grouped(content.census.count)) class\(content.census.count == 1 ? "" : "es") of loss."
        }
        out += "</p>\n"
        if content.census.isEmpty {
            out += "<ul class=\"counts\">"
            for (name, count) in [("changed", counts.changed), ("inserted", counts.inserted), ("deleted", counts.deleted), ("moved", counts.moved)] {
                out += "<li class=\"\(name)\">\(count) \(name)</li>"
            }
            out += "<li class=\"diagnostics\">\(content.diagnostics.count) diagnostic\(content.diagnostics.count == 1 ? "" : "s")</li></ul>\n"
        }
        for note in content.notes { out += "<p class=\"note\">\(escape(note))</p>\n" }
        out += "</header>\n"
        if !content.runDetails.isEmpty { out += runDetails(content.runDetails) }
        if !content.census.isEmpty { out += census(content.census, pages: content.examplePages) }
        if !content.deadLetters.isEmpty { out += deadLetters(content.deadLetters) }
        // A diagnostic that names a block is folded under that block's row; the rest follow the
        // two sides, so that the first change is never below a page of warnings.
        let folded = FoldedDiagnostics(content.diagnostics, oldCount: content.old.blocks.count, newCount: content.new.blocks.count)
        if !content.old.blocks.isEmpty || !content.new.blocks.isEmpty { out += sides(content, folded: folded) }
        if !folded.unplaced.isEmpty { out += diagnostics(folded.unplaced, foldedCount: content.diagnostics.count - folded.unplaced.count) }
        if let written = content.written {
            out += "<section id=\"written\">\n<h2>Written as \(escape(written.format))</h2>\n<pre class=\"written\">\(escape(written.text))</pre>\n</section>\n"
        }
        out += "</body>\n</html>\n"
        return out
    }

    // MARK: Sections

    private func census(_ entries: [CensusEntry], pages: [String: String]) -> String {
        var out = "<section id=\"census\">\n<h2>What records lose</h2>\n<table class=\"census\">\n<thead><tr><th>Severity</th><th>Loss</th><th>Records</th><th>For example</th></tr></thead>\n<tbody>\n"
        for entry in entries {
            out += "<tr class=\"\(entry.severity.rawValue)\"><td class=\"severity\">\(entry.severity.rawValue)</td><td class=\"loss\">\(escape(entry.name))</td><td class=\"count\">\(Self.grouped(entry.count))</td><td>"
            out += entry.examples.map { id in
                let code = "<code>\(escape(id))</code>"
                return pages[id].map { "<a class=\"record\" href=\"\(escape($0))\">\(code)</a>" } ?? code
            }.joined(separator: ", ")
            out += "</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    private func runDetails(_ details: [(name: String, value: String)]) -> String {
        var out = "<section id=\"run\">\n<h2>The run</h2>\n<table class=\"run\">\n<tbody>\n"
        for (name, value) in details { out += "<tr><th>\(escape(name))</th><td>\(escape(value))</td></tr>\n" }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    private func deadLetters(_ letters: [(code: String, records: Int)]) -> String {
        var out = "<section id=\"dead-letters\">\n<h2>Dead letters by code</h2>\n<table class=\"census\">\n<thead><tr><th>Code</th><th>Records</th></tr></thead>\n<tbody>\n"
        for (code, records) in letters {
            out += "<tr><td class=\"loss\"><code>\(escape(code))</code></td><td class=\"count\">\(Self.grouped(records))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// `1,234,567`: digits in groups of three, as a report's reader counts them.
    package static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var out = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    /// The diagnostics no block row holds: of the whole input, or of a block not shown.
    private func diagnostics(_ diagnostics: [(index: Int, item: ReportDiagnostic)], foldedCount: Int) -> String {
        var out = "<section id=\"diagnostics\">\n<h2>Diagnostics</h2>\n"
        if foldedCount > 0 {
            out += "<p class=\"note\">\(Self.grouped(foldedCount)) more under the blocks they name.</p>\n"
        }
        out += "<ol class=\"diagnostics\">\n"
        for (index, item) in diagnostics { out += diagnosticItem(item, index: index) }
        return out + "</ol>\n</section>\n"
    }

    private func diagnosticItem(_ item: ReportDiagnostic, index: Int) -> String {
        let diagnostic = item.diagnostic
        let place = diagnostic.location.map { "\(item.fileName):\($0.line):\($0.column)" } ?? item.fileName
        let pointer = diagnostic.location?.jsonPointer.map { " (at \($0))" } ?? ""
        return "<li class=\"diagnostic \(diagnostic.severity.rawValue)\" id=\"diagnostic-\(index)\">"
            + "<span class=\"place\">\(escape(place))</span> <span class=\"severity\">\(diagnostic.severity.rawValue)</span>: "
            + "\(escape(diagnostic.message))\(escape(pointer)) <code class=\"code\">[\(escape(diagnostic.code))]</code></li>\n"
    }

    /// The row under a block's that holds its diagnostics, closed: a count and the worst severity.
    private func foldedRow(_ diagnostics: [(index: Int, item: ReportDiagnostic)]) -> String {
        guard !diagnostics.isEmpty else { return "" }
        let warnings = diagnostics.filter { $0.item.diagnostic.severity == .warning }.count
        let summary = warnings > 0
            ? "\(Self.grouped(warnings)) warning\(warnings == 1 ? "" : "s")" + (diagnostics.count > warnings ? ", \(Self.grouped(diagnostics.count - warnings)) more" : "")
            : "\(Self.grouped(diagnostics.count)) note\(diagnostics.count == 1 ? "" : "s")"
        var out = "<tr class=\"folded\"><td colspan=\"2\"><details><summary>\(summary) on this block</summary><ol class=\"diagnostics\">\n"
        for (index, item) in diagnostics { out += diagnosticItem(item, index: index) }
        return out + "</ol></details></td></tr>\n"
    }

    /// The block a diagnostic is about: a writer's block index, or a `/paragraphs/N` pointer.
    package static func block(of diagnostic: Diagnostic) -> Int? {
        if let block = diagnostic.block { return block }
        guard let pointer = diagnostic.location?.jsonPointer, pointer.hasPrefix("/paragraphs/") else { return nil }
        return Int(pointer.dropFirst("/paragraphs/".count).prefix { $0.isNumber })
    }

    /// Both documents, block against block, in the alignment's order.
    private func sides(_ content: ReportContent, folded: FoldedDiagnostics) -> String {
        var out = "<table class=\"sides\">\n<colgroup><col class=\"old\"><col class=\"new\"></colgroup>\n"
        out += "<thead><tr><th>\(escape(content.oldName))</th><th>\(escape(content.newName))</th></tr></thead>\n<tbody>\n"
        for row in ReportRows(content.diff, oldCount: content.old.blocks.count, newCount: content.new.blocks.count).rows {
            defer { out += foldedRow(folded.of(row)) }
            switch row {
            case .same(let oldIndex, let newIndex):
                out += "<tr class=\"same\">" + cell(.old, oldIndex, content.old.blocks[oldIndex], marks: [])
                    + cell(.new, newIndex, content.new.blocks[newIndex], marks: []) + "</tr>\n"
            case .changed(let oldIndex, let newIndex, let details), .movedAndChanged(let oldIndex, let newIndex, let details):
                let oldMarks = details.text.map(\.old) + details.markups.compactMap(\.oldRange)
                let newMarks = details.text.map(\.new) + details.markups.compactMap(\.newRange)
                // A moved block shows its old self here again, beside the new, so the details read
                // against both; its old place has a row of its own.
                let oldCell = details.isMoved
                    ? "<td class=\"old\"><span class=\"index\">\(oldIndex) \(escape(DiffTextReport.typeName(details.old))) · moved from here</span>"
                        + rendered(details.old, marks: oldMarks) + "</td>"
                    : cell(.old, oldIndex, details.old, marks: oldMarks)
                out += "<tr class=\"changed\">" + oldCell
                    + cell(.new, newIndex, details.new, marks: newMarks, label: details.isMoved ? "moved from block \(oldIndex)" : nil) + "</tr>\n"
                out += "<tr class=\"details\"><td colspan=\"2\"><ul>"
                for attribute in details.attributes {
                    out += "<li class=\"attribute\">\(escape(attribute.name)): <del>\(escape(value(attribute.old)))</del> → <ins>\(escape(value(attribute.new)))</ins></li>"
                }
                for markup in details.markups { out += "<li class=\"markup \(markup.kind.rawValue)\">\(describe(markup))</li>" }
                for edit in details.text {
                    out += "<li class=\"text\">"
                    if !edit.removed.isEmpty { out += "<del>\(escape(edit.removed))</del>" }
                    if !edit.removed.isEmpty && !edit.added.isEmpty { out += " → " }
                    if !edit.added.isEmpty { out += "<ins>\(escape(edit.added))</ins>" }
                    out += "</li>"
                }
                out += "</ul></td></tr>\n"
            case .onlyOld(let index, let movedTo):
                let label = movedTo.map { "moved to block \($0)" } ?? "deleted"
                out += "<tr class=\"\(movedTo == nil ? "deleted" : "moved")\">" + cell(.old, index, content.old.blocks[index], marks: [], label: label)
                    + "<td class=\"new empty\"></td></tr>\n"
            case .onlyNew(let index, let movedFrom):
                let label = movedFrom.map { "moved from block \($0)" } ?? "inserted"
                out += "<tr class=\"\(movedFrom == nil ? "inserted" : "moved")\"><td class=\"old empty\"></td>"
                    + cell(.new, index, content.new.blocks[index], marks: [], label: label) + "</tr>\n"
            }
        }
        return out + "</tbody>\n</table>\n"
    }

    private func cell(_ side: ReportDiagnostic.Side, _ index: Int, _ block: Block, marks: [TextRange], label: String? = nil) -> String {
        var out = "<td class=\"\(side.rawValue)\" id=\"\(side.rawValue)-\(index)\"><span class=\"index\">\(index) \(escape(DiffTextReport.typeName(block)))"
        if let label { out += " · \(escape(label))" }
        out += "</span>"
        out += rendered(block, marks: marks)
        return out + "</td>"
    }

    /// The block through our HTML writer, with the diff's highlights as `<mark>`. The block's own
    /// highlights become a background colour, so that a `<mark>` on the page is always the diff's.
    private func rendered(_ block: Block, marks: [TextRange]) -> String {
        var shown = block
        shown.markups = block.markups.map { markup in
            markup.kind == .highlight ? Markup(.background(Self.ownHighlight), markup.range) : markup
        }
        let length = block.text.utf16.count
        for range in marks where !range.isEmpty && range.start >= 0 && range.end <= length {
            shown.markups.append(Markup(.highlight, range))
        }
        shown.depth = 0
        shown.quoteDepth = 0
        let indent = block.depth > 0 || block.quoteDepth > 0
            ? " style=\"margin-left:\(Double(min(block.depth + block.quoteDepth, 12)) * 1.5)em\"" : ""
        let writer = HTMLWriter(options: .init(standalone: false, urlPolicy: urlPolicy))
        guard let html = try? writer.write(Document(blocks: [shown]).canonicalized()) else {
            return "<div class=\"unrenderable\"\(indent)>\(escape(block.text))</div>"
        }
        return "<div class=\"block\"\(indent)>" + String(decoding: html.value, as: UTF8.self) + "</div>"
    }

    private static let ownHighlight = CSSColor(red: 0xFF, green: 0xF3, blue: 0x9A)

    private func describe(_ markup: MarkupChange) -> String {
        let subject = "<code>\(escape(markup.name))</code> “\(escape(markup.text))”"
        switch markup.kind {
        case .removed: return "\(subject) <del>removed</del>"
        case .added: return "\(subject) <ins>added</ins>"
        case .changed:
            return "\(subject) \(escape(markup.attribute ?? "value")): <del>\(escape(value(markup.oldValue ?? "")))</del> → <ins>\(escape(value(markup.newValue ?? "")))</ins>"
        }
    }

    private func value(_ text: String) -> String { text.isEmpty ? "(none)" : text }

    private func escape(_ text: String) -> String { HTMLEscaping.attribute(text) }

    private static let styles = """
    body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
    header,section{padding:12px 20px;border-bottom:1px solid #d0d7de}
    h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:0 0 8px}
    .counts{list-style:none;padding:0;margin:0;display:flex;gap:14px}
    .counts .changed{color:#9a6700}.counts .inserted{color:#1a7f37}.counts .deleted{color:#cf222e}.counts .moved{color:#0969da}
    table.sides{width:100%;border-collapse:collapse;table-layout:fixed}
    table.sides th{position:sticky;top:0;background:#f6f8fa;text-align:left;padding:6px 10px;border-bottom:1px solid #d0d7de}
    table.sides td{vertical-align:top;padding:4px 10px;border-bottom:1px solid #eaeef2;overflow-wrap:anywhere}
    td.old{border-right:1px solid #d0d7de}
    .index{display:block;font-size:11px;color:#656d76}
    tr.changed td{background:#fff8c5}tr.inserted td.new{background:#dafbe1}tr.deleted td.old{background:#ffebe9}
    tr.moved td{background:#ddf4ff}td.empty{background:#f6f8fa!important}
    td.old mark{background:#ffcecb;box-shadow:inset 0 -2px #cf222e}td.new mark{background:#aceebb;box-shadow:inset 0 -2px #1a7f37}
    tr.details td{font-size:13px;background:#fffdf0;padding-left:24px}tr.details ul{margin:0;padding-left:16px}
    tr.folded td{font-size:13px;padding:2px 8px 2px 24px;color:#57606a}tr.folded summary{cursor:pointer}
    del{background:#ffcecb;text-decoration:none;box-shadow:inset 0 -2px #cf222e}ins{background:#aceebb;text-decoration:none;box-shadow:inset 0 -2px #1a7f37}
    ol.diagnostics{margin:0;padding-left:24px;font-size:13px}.diagnostic .place{font-family:ui-monospace,monospace}
    .diagnostic.warning .severity{color:#cf222e}table.census{border-collapse:collapse}
    table.census td,table.census th{border:1px solid #d0d7de;padding:3px 8px;text-align:left}
    pre.written{white-space:pre-wrap;background:#f6f8fa;border:1px solid #d0d7de;padding:8px;margin:0 16px 16px}
    table.census td.count{text-align:right;font-variant-numeric:tabular-nums}table.run th{text-align:left;padding:2px 12px 2px 0;color:#57606a;font-weight:normal}
    tr.content td.severity{color:#fff;background:#cf222e}tr.structure td.severity{color:#fff;background:#bc4c00}tr.style td.severity{background:#fff8c5}tr.info td.severity{color:#57606a}
    .block img{max-width:100%}pre{white-space:pre-wrap}
    """
}

/// The report's diagnostics by the block each names (a writer's block index, or a
/// `/paragraphs/N` pointer, on the side it counts), each with its place in the full list.
package struct FoldedDiagnostics {
    private var byBlock: [ReportDiagnostic.Side: [Int: [(index: Int, item: ReportDiagnostic)]]] = [:]
    /// Those that name no block shown.
    private(set) var unplaced: [(index: Int, item: ReportDiagnostic)] = []

    package init(_ diagnostics: [ReportDiagnostic], oldCount: Int, newCount: Int) {
        for (index, item) in diagnostics.enumerated() {
            if let side = item.side, let block = DiffHTMLReport.block(of: item.diagnostic), block >= 0, block < (side == .old ? oldCount : newCount) {
                byBlock[side, default: [:]][block, default: []].append((index, item))
            } else {
                unplaced.append((index, item))
            }
        }
    }

    /// The diagnostics of the blocks a row shows, old side first.
    package func of(_ row: ReportRows.Row) -> [(index: Int, item: ReportDiagnostic)] {
        let (old, new) = row.blocks
        return (old.flatMap { byBlock[.old]?[$0] } ?? []) + (new.flatMap { byBlock[.new]?[$0] } ?? [])
    }
}
