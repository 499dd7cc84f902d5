import Foundation
import Markbridge
import MarkbridgeJSON

/// What one piece of input became: the output records, dead letters and diagnostics lines for
/// its lines, in order, and the counts.
struct BatchPieceResult: Sendable {
    var output: [UInt8] = []
    var deadLetters: [UInt8] = []
    var diagnostics: [UInt8] = []
    /// `--check-results`: a JSON line for each record that lost something the gate counts.
    var checkResults: [UInt8] = []
    /// `--report-dir`: the pages of records that may be examples (id as JSON text, page), and how
    /// many were kept for each class.
    var recordPages: [(id: String, page: [UInt8])] = []
    var pagesByClass: [String: Int] = [:]
    var counts = MigrationCounts()
    /// Where the input stands after this piece: a checkpoint written after it resumes here.
    var end: BatchPosition
    /// Writing failed (directory mode, a full disk): the run stops with exit 74.
    var failure: FileMigrationError?
}

/// Converts the records of a piece of JSON Lines input, one line at a time, through the
/// library's ``JSONLinesMigration`` (whose rules every line follows), and gathers what they
/// became into the piece's outputs and counts. Lines are counted from 1 in each input, blank
/// lines included. A value, run on many pieces at once.
struct BatchRecordConverter: Sendable {
    /// What each record's document goes through (in directory mode too).
    var conversion: RecordConversion
    /// The JSON Lines rules; nil in directory mode, where each file's extension names its format.
    var migration: JSONLinesMigration?
    var keepsDiagnostics: Bool
    var inputNames: [String]
    /// `--check-results`: each losing record's classes are written out, not only counted.
    var keepsCheckResults = false
    /// `--report-dir`: the census's example records get a page each.
    var keepsRecordPages = false

    var target: String { conversion.target.name }
    var checks: Bool { conversion.check != nil }
    /// What the census counts and what fails the run (`--fail-on`, `--ignore`).
    var gate: LossGate { conversion.check?.gate ?? .default }
    var maxRecordBytes: Int { migration?.maxRecordBytes ?? Int.max }

    func convert(_ piece: BatchInputPiece) -> BatchPieceResult {
        switch piece {
        case .lines(let lines): return convert(lines)
        case .oversized(let line): return convert(line)
        }
    }

    private func convert(_ piece: BatchLines) -> BatchPieceResult {
        var result = BatchPieceResult(end: BatchPosition(file: piece.file, offset: piece.firstOffset + piece.bytes.count, line: piece.firstLine,
                                                         digest: piece.endDigest))
        result.output.reserveCapacity(piece.bytes.count + piece.bytes.count / 2)
        result.counts.inputBytes = piece.bytes.count
        guard let migration else { return result }
        var lineStart = 0
        var lineNumber = piece.firstLine
        let bytes = piece.bytes
        while lineStart < bytes.count {
            let lineFeed = bytes[lineStart...].firstIndex(of: 0x0A)
            let end = lineFeed ?? bytes.count
            let record = migration.record(Array(bytes[lineStart..<end]), line: lineNumber, byteOffset: piece.firstOffset + lineStart, input: inputNames[piece.file])
            add(record, into: &result)
            lineNumber += 1
            lineStart = end + 1
        }
        result.end.line = lineNumber
        return result
    }

    private func convert(_ line: OversizedLine) -> BatchPieceResult {
        var result = BatchPieceResult(end: BatchPosition(file: line.file, offset: line.nextOffset, line: line.line + 1, digest: line.endDigest))
        result.counts.inputBytes = line.nextOffset - line.offset
        if let migration {
            add(migration.tooLarge(line.prefix[...], length: line.length, line: line.line, byteOffset: line.offset, input: inputNames[line.file]), into: &result)
        }
        return result
    }

    /// One record's outcome, into the piece's outputs and counts.
    private func add(_ record: JSONLinesRecord, into result: inout BatchPieceResult) {
        switch record.outcome {
        case .blank:
            result.counts.blankLines += 1
        case .deadLetter(let letter):
            result.counts.records += 1
            result.counts.deadLettered += 1
            result.counts.failures[letter.code, default: 0] += 1
            result.deadLetters += letter.jsonLine
        case .converted(let converted):
            result.counts.records += 1
            if let check = converted.check {
                let place = #""id":\#(record.id ?? "null"),"file":\#(JSONStringLiteral.encode(record.input)),"line":\#(record.line)"#
                recordCheck(check, id: record.censusID, name: "\(record.input):\(record.line)", place: place, into: &result)
            }
            result.counts.converted += 1
            for diagnostic in converted.diagnostics { result.counts.diagnostics[diagnostic.code, default: 0] += 1 }
            if keepsDiagnostics, let line = record.diagnosticsLine { result.diagnostics += line }
            result.output += converted.line
        }
    }

    /// One document converted from the format named `sourceName` (directory mode), and checked.
    func converted(_ bytes: [UInt8], from sourceName: String) -> Result<RecordConversion.Output, ConversionError> {
        guard let source = conversion.converter.registry.format(named: sourceName), source.reader != nil else {
            return .failure(ConversionError(code: "unknown-format", message: "no reader for format '\(sourceName)'"))
        }
        return conversion.convert(bytes, from: source)
    }

    /// A checked record's losses, counted in the census under `id` (JSON text) and, with
    /// `--check-results`, written as one line when the gate counts any: `place` (its id, file
    /// and line, as JSON members), whether it fails, and each class with its severity, how many
    /// times, and the first one's block and detail.
    func recordCheck(_ check: MigrationCheck, id: String, name: String, place: String, into result: inout BatchPieceResult) {
        let losses = check.losses
        result.counts.census.record(losses, gate: gate, id: id)
        let counted = gate.counted(losses)
        guard !counted.isEmpty else { return }
        if keepsRecordPages { keepPage(of: check, id: id, name: name, classes: Set(counted.map(\.lossClass)), into: &result) }
        if keepsCheckResults, let line = JSONLinesRecord.checkResultLine(place: place, losses: losses, gate: gate) { result.checkResults += line }
    }

    /// `--report-dir`: the record's page, kept when it may be one of the census's examples (among
    /// the first of a class in this piece); the run writes those that are, once pieces merge.
    private func keepPage(of check: MigrationCheck, id: String, name: String, classes: Set<LossClass>, into result: inout BatchPieceResult) {
        let candidate = classes.contains { (result.pagesByClass[$0.name] ?? 0) < MigrationCensus.examplesKept }
        guard candidate else { return }
        for lossClass in classes { result.pagesByClass[lossClass.name, default: 0] += 1 }
        let names = CheckNames(input: name, target: target)
        let page = DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(CheckReportContent.make(check, names: names, gate: gate))
        result.recordPages.append((id, Array(page.utf8)))
    }
}
