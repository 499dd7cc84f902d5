import MarkbridgeJSON

/// A diff for tools (`--format json`): one JSON object, stable in its field names and order,
/// documented in the README's `markbridge diff` section. Offsets are UTF-16 code units into each side's
/// block text, as in markup JSON; block indices are from 0, as in its `/paragraphs/N` pointers.
package struct DiffJSONReport {
    package init() {}

    /// `markbridge diff --format json`: the diff, then each loss the gate counts with its severity
    /// and whether the gate fails, then what reading each side reported (`side` `old` or `new`).
    package func render(_ diff: DocumentDiff, oldName: String, newName: String, gate: LossGate, diagnostics: [ReportDiagnostic]) -> String {
        let losses = gate.counted(diff.losses)
        let entries = diagnostics.map { item in
            DiagnosticStyle.jsonObject(item.diagnostic, fileName: item.fileName, leading: [("side", quoted(item.side?.rawValue ?? ""))])
        }
        return object(diff, oldName: oldName, newName: newName, extra: [
            field("lost", gate.fails(losses) ? "true" : "false"), field("gate", quoted(gate.description)),
            field("losses", "[" + losses.map(CheckJSONReport.object).joined(separator: ",") + "]"),
            field("diagnostics", "[" + entries.joined(separator: ",") + "]"),
        ]) + "\n"
    }

    /// The diff as one JSON object, without the line break that ends the command's output;
    /// `extra` fields after its own.
    package func object(_ diff: DocumentDiff, oldName: String, newName: String, extra: [String] = []) -> String {
        let counts = DiffCounts(diff)
        var fields = [
            field("version", "1"),
            field("old", quoted(oldName)),
            field("new", quoted(newName)),
            field("same", diff.isEmpty ? "true" : "false"),
            field("summary", object([
                field("changed", "\(counts.changed)"), field("inserted", "\(counts.inserted)"),
                field("deleted", "\(counts.deleted)"), field("moved", "\(counts.moved)"),
            ])),
        ]
        fields.append(field("changes", "[" + diff.changes.map(change).joined(separator: ",") + "]"))
        return object(fields + extra)
    }

    private func change(_ change: BlockChange) -> String {
        switch change {
        case .inserted(let index, let block):
            return object([field("change", quoted("inserted")), field("new", place(index, block)), field("text", quoted(block.text)), blockAttributes(block)])
        case .deleted(let index, let block):
            return object([field("change", quoted("deleted")), field("old", place(index, block)), field("text", quoted(block.text)), blockAttributes(block)])
        case .moved(let from, let to, let block):
            return object([field("change", quoted("moved")), field("old", place(from, block)), field("new", place(to, block)),
                           field("text", quoted(block.text)), blockAttributes(block)])
        case .changed(let from, let to, let details):
            return object([
                field("change", quoted("changed")),
                field("old", place(from, details.old)),
                field("new", place(to, details.new)),
                field("moved", details.isMoved ? "true" : "false"),
                field("text", "[" + details.text.map(edit).joined(separator: ",") + "]"),
                field("markups", "[" + details.markups.map(markup).joined(separator: ",") + "]"),
                field("attributes", "[" + details.attributes.map(attribute).joined(separator: ",") + "]"),
            ])
        }
    }

    /// `"attributes":{"src":"…","alt":"…"}`: a whole block's attributes, as markup JSON names them.
    private func blockAttributes(_ block: Block) -> String {
        field("attributes", object(DocumentDiff.attributes(of: block).map { field($0.name, quoted($0.value)) }))
    }

    private func place(_ index: Int, _ block: Block) -> String {
        object([field("index", "\(index)"), field("pointer", quoted("/paragraphs/\(index)")), field("type", quoted(DiffTextReport.typeName(block)))])
    }

    private func edit(_ edit: TextEdit) -> String {
        object([field("old", range(edit.old)), field("new", range(edit.new)), field("removed", quoted(edit.removed)), field("added", quoted(edit.added))])
    }

    private func markup(_ markup: MarkupChange) -> String {
        var fields = [field("change", quoted(markup.kind.rawValue)), field("type", quoted(markup.name))]
        if let old = markup.oldRange { fields.append(field("old", range(old))) }
        if let new = markup.newRange { fields.append(field("new", range(new))) }
        fields.append(field("text", quoted(markup.text)))
        if let attribute = markup.attribute {
            fields += [field("attribute", quoted(attribute)), field("from", quoted(markup.oldValue ?? "")), field("to", quoted(markup.newValue ?? ""))]
        }
        return object(fields)
    }

    private func attribute(_ change: AttributeChange) -> String {
        object([field("name", quoted(change.name)), field("from", quoted(change.old)), field("to", quoted(change.new))])
    }

    private func range(_ range: TextRange) -> String {
        object([field("start", "\(range.start)"), field("end", "\(range.end)")])
    }

    private func field(_ name: String, _ value: String) -> String { "\"\(name)\":\(value)" }
    private func object(_ fields: [String]) -> String { "{" + fields.joined(separator: ",") + "}" }
    private func quoted(_ text: String) -> String { JSONStringLiteral.encode(text) }
}
