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

    /// Everything lost, in order: each warning of the three steps (its code's class, its message
    /// as the detail), then each difference between before and after (``DocumentDiff/losses``).
    /// A note is not a loss: it says nothing was lost.
    public var losses: [Loss] {
        diagnostics.filter { $0.severity == .warning }.map { Loss(.diagnostic(code: $0.code), block: $0.block, detail: $0.message) }
            + diff.losses
    }

    /// The classes of ``losses``, each once, worst first: what a batch's census counts records by.
    public var lossClasses: [LossClass] {
        Array(Set(losses.map(\.lossClass))).sorted()
    }
}

extension Converter {
    /// The dry run of converting `input` from `source` to `target`: what a migration would lose.
    /// `target` must be a format that reads back (not plain text).
    public func check(_ input: [UInt8], from source: Format, via target: Format,
                      diffOptions: DiffOptions = .default) throws(ConversionError) -> MigrationCheck {
        try check(input, from: source, via: target, diffOptions: diffOptions, inputIsCheckedUTF8: false)
    }

    func check(_ input: [UInt8], from source: Format, via target: Format, diffOptions: DiffOptions,
               inputIsCheckedUTF8: Bool) throws(ConversionError) -> MigrationCheck {
        guard target.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(target.name)' cannot be read back, so a conversion to it cannot be checked")
        }
        return try withinTimeLimit { () throws(ConversionError) in
            // Each step checks the one deadline before it begins, as it would called alone.
            let read = try readWithinLimit(input, with: Self.reader(of: source), inputIsCheckedUTF8: inputIsCheckedUTF8)
            let writer = try Self.writer(of: target)
            try ConversionDeadline.check()
            let written = try writer(read.value, options)
            try ConversionDeadline.check()
            let readBack = try readWithinLimit(written.value, with: Self.reader(of: target))
            return MigrationCheck(
                before: read.value, written: written.value, after: readBack.value,
                readDiagnostics: read.diagnostics, writeDiagnostics: written.diagnostics, readBackDiagnostics: readBack.diagnostics,
                diff: DocumentDiff(read.value, readBack.value, options: diffOptions))
        }
    }
}
