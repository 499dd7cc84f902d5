/// A migration's dry run on one document: read it, write it in the target format, read that
/// back, and see what did not survive: the diagnostics of the three steps and the difference
/// between the document before and after.
public struct MigrationCheck: Sendable {
    /// The document as read from the source.
    public var before: Document
    /// What the target format's writer produced.
    public var written: [UInt8]
    /// The written output read back.
    public var after: Document
    /// What reading the source dropped or changed (locations in the source).
    public var readDiagnostics: [Diagnostic]
    /// What writing the target dropped or changed (``Diagnostic/block`` indexes `before`).
    public var writeDiagnostics: [Diagnostic]
    /// What reading the output back dropped or changed (locations in `written`).
    public var readBackDiagnostics: [Diagnostic]
    /// How `after` differs from `before`.
    public var diff: DocumentDiff

    /// Every diagnostic of the three steps, in order.
    public var diagnostics: [Diagnostic] { readDiagnostics + writeDiagnostics + readBackDiagnostics }

    /// What was lost, by class, each named once, in order: `diagnostic CODE` for each warning's
    /// code, `markup TYPE removed`, `markup TYPE added`, `markup TYPE ATTRIBUTE changed` (`range`,
    /// `href`, `color`, ...), `attribute NAME changed`, `text changed`, and `blocks deleted`,
    /// `blocks inserted`, `blocks moved`. A batch's census counts records by these.
    public var losses: [String] {
        var classes = Set<String>()
        for diagnostic in diagnostics where diagnostic.severity == .warning { classes.insert("diagnostic \(diagnostic.code)") }
        for change in diff.changes {
            switch change {
            case .deleted: classes.insert("blocks deleted")
            case .inserted: classes.insert("blocks inserted")
            case .moved: classes.insert("blocks moved")
            case .changed(_, _, let details):
                if details.isMoved { classes.insert("blocks moved") }
                if !details.text.isEmpty { classes.insert("text changed") }
                for attribute in details.attributes { classes.insert("attribute \(attribute.name) changed") }
                for markup in details.markups {
                    switch markup.kind {
                    case .removed: classes.insert("markup \(markup.name) removed")
                    case .added: classes.insert("markup \(markup.name) added")
                    case .changed: classes.insert("markup \(markup.name) \(markup.attribute ?? "value") changed")
                    }
                }
            }
        }
        return classes.sorted()
    }

    /// Whether something was lost: a change between before and after, or a diagnostic that
    /// `counts` (by default, any warning; a note says nothing was lost).
    public func losesContent(counting counts: (Diagnostic) -> Bool = { $0.severity == .warning }) -> Bool {
        !diff.isEmpty || diagnostics.contains(where: counts)
    }
}

extension Converter {
    /// The dry run of converting `input` from `source` to `target`: what a migration would lose.
    /// `target` must be a format that reads back (not plain text).
    public func check(_ input: [UInt8], from source: Format, via target: Format,
                      diffOptions: DiffOptions = .default) throws(ConversionError) -> MigrationCheck {
        guard target.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(target.name)' cannot be read back, so a conversion to it cannot be checked")
        }
        return try withinTimeLimit { () throws(ConversionError) in
            let read = try self.read(input, from: source)
            let written = try write(read.value, to: target)
            let readBack = try self.read(written.value, from: target)
            return MigrationCheck(
                before: read.value, written: written.value, after: readBack.value,
                readDiagnostics: read.diagnostics, writeDiagnostics: written.diagnostics, readBackDiagnostics: readBack.diagnostics,
                diff: DocumentDiff(read.value, readBack.value, options: diffOptions))
        }
    }
}
