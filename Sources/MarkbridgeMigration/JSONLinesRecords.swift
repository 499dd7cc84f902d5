import Markbridge

/// The JSON Lines record path of `markbridge batch` on bytes held in memory: the package's fuzz
/// target drives it (`package`, so no service sees it). The lines are one piece of one input,
/// converted by ``BatchRecordConverter`` exactly as a batch converts them.
package enum JSONLinesRecords {
    /// What the lines became: the three streams a batch writes, and the counts.
    package struct Outcome: Sendable {
        package var output: [UInt8]
        package var deadLetters: [UInt8]
        package var diagnostics: [UInt8]
        package var checkResults: [UInt8]
        package var records: Int
        package var converted: Int
        package var deadLettered: Int
        package var blankLines: Int
    }

    /// The settings are those of `batch --field field --from source --to target --into into
    /// --id-field idField --max-record-bytes maxRecordBytes [--embed json|string] [--check
    /// --check-results]`, with `--diagnostics`.
    package static func convert(_ lines: [UInt8], field: String, from source: String, to target: String, into: String, idField: String,
                                maxRecordBytes: Int, embedsJSON: Bool, checks: Bool) -> Outcome {
        let registry = FormatRegistry.standard
        guard let sourceFormat = registry.format(named: source), let targetFormat = registry.format(named: target),
              let conversion = try? RecordConversion(to: targetFormat, check: checks ? RecordConversion.Check() : nil),
              var migration = try? JSONLinesMigration(conversion, from: sourceFormat, field: field, into: into, idField: idField,
                                                      maxRecordBytes: maxRecordBytes, embedsJSONValue: embedsJSON && targetFormat == .markupJSON)
        else {
            return Outcome(output: [], deadLetters: [], diagnostics: [], checkResults: [], records: 0, converted: 0, deadLettered: 0, blankLines: 0)
        }
        migration.limitSpelling = "--max-record-bytes"
        var converter = BatchRecordConverter(conversion: conversion, migration: migration, keepsDiagnostics: true, inputNames: ["<fuzz>"])
        converter.keepsCheckResults = checks
        let piece = BatchLines(file: 0, firstLine: 1, firstOffset: 0, bytes: lines, endDigest: BatchDigest())
        let result = converter.convert(.lines(piece))
        return Outcome(output: result.output, deadLetters: result.deadLetters, diagnostics: result.diagnostics, checkResults: result.checkResults,
                       records: result.counts.records, converted: result.counts.converted, deadLettered: result.counts.deadLettered,
                       blankLines: result.counts.blankLines)
    }
}
