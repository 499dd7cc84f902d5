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
    var counts = BatchCounts()
    /// Where the input stands after this piece: a checkpoint written after it resumes here.
    var end: BatchPosition
    /// Writing failed (directory mode, a full disk): the run stops with exit 74.
    var failure: BatchIOError?
}

/// Converts the records of a piece of JSON Lines input, one line at a time. A value, run on
/// many pieces at once.
///
/// The rules, for every line (counted from 1 in each input, blank lines included):
/// - a line ending is LF or CR LF; a UTF-8 byte-order mark before the first line of an input is
///   ignored; the last line may lack its line ending;
/// - a blank line (only spaces and tabs) is no record: it is skipped and counted;
/// - a line over the record limit, a line that is not one JSON object, a record without the
///   field or whose field is not a string, and a record that fails to convert go to the dead
///   letters, and the batch goes on;
/// - a converted record is written as it was read, byte for byte, but for the value of the
///   `into` field (added at the end of the object when the record has none), and ends with LF.
struct BatchRecordConverter: Sendable {
    var converter: Converter
    var source: String
    var target: String
    var field: String
    var into: String
    /// A JSON result goes in as a JSON value rather than a string.
    var embedsJSON: Bool
    var idField: String
    var maxRecordBytes: Int
    var keepsDiagnostics: Bool
    var inputNames: [String]
    /// `--check`: each record is also read back from what was written and compared, and what it
    /// lost goes into the census.
    var checks = false
    var diffOptions = DiffOptions()
    /// What the census counts and what fails the run (`--fail-on`, `--ignore`).
    var gate = LossGate.default
    /// `--check-results`: each losing record's classes are written out, not only counted.
    var keepsCheckResults = false
    /// `--report-dir`: the census's example records get a page each.
    var keepsRecordPages = false
    /// `--timeout-per-record`, in seconds.
    var timeout: Double?

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
        var lineStart = 0
        var lineNumber = piece.firstLine
        let bytes = piece.bytes
        while lineStart < bytes.count {
            let lineFeed = bytes[lineStart...].firstIndex(of: 0x0A)
            var end = lineFeed ?? bytes.count
            if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
            var start = lineStart
            if piece.firstOffset + lineStart == 0, end - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
                start += 3
            }
            convertLine(Array(bytes[start..<end]), line: lineNumber, offset: piece.firstOffset + lineStart, file: piece.file, into: &result)
            lineNumber += 1
            lineStart = (lineFeed ?? bytes.count) + 1
        }
        result.end.line = lineNumber
        return result
    }

    private func convert(_ line: OversizedLine) -> BatchPieceResult {
        var result = BatchPieceResult(end: BatchPosition(file: line.file, offset: line.nextOffset, line: line.line + 1, digest: line.endDigest))
        result.counts.inputBytes = line.nextOffset - line.offset
        result.counts.records = 1
        tooLarge(line.prefix[...], length: line.length, number: line.line, offset: line.offset, file: line.file, into: &result)
        return result
    }

    /// The dead letter of a record over the limit, from its first bytes and its length alone: the
    /// same whether the record was held whole in a piece or only measured, wherever pieces fall.
    private func tooLarge(_ start: ArraySlice<UInt8>, length: Int, number: Int, offset: Int, file: Int, into result: inout BatchPieceResult) {
        let kept = RecordPrefix(start, idField: idField)
        let message = "the record is \(length) bytes, over the limit of \(maxRecordBytes) (--max-record-bytes)"
            + (kept.bytes.count < length ? "; its first \(kept.bytes.count) bytes are kept" : "")
        deadLetter("record-too-large", message, line: kept.bytes, number: number, offset: offset, file: file, id: kept.id,
                   cut: (kept.bytes.count < length, length), into: &result)
    }

    private func convertLine(_ line: [UInt8], line number: Int, offset: Int, file: Int, into result: inout BatchPieceResult) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            result.counts.blankLines += 1
            return
        }
        result.counts.records += 1
        guard line.count <= maxRecordBytes else {
            tooLarge(line[...], length: line.count, number: number, offset: offset, file: file, into: &result)
            return
        }
        let record: JSONObjectLine
        do throws(ConversionError) {
            record = try JSONObjectLine(line, decoding: field)
        } catch {
            let column = error.location.map { " at column \($0.column)" } ?? ""
            deadLetter(error.code, "the line is not a JSON object\(column): \(error.message)", line: line, number: number, offset: offset,
                       file: file, id: nil, into: &result)
            return
        }
        var id: [UInt8]?
        if case .unique(let member) = record.lookup(idField) { id = Array(line[member.valueRange]) }
        // A key read or written twice: the raw first value would stay beside the converted one.
        for key in [field, into, idField].enumerated().filter({ [field, into, idField].firstIndex(of: $0.element) == $0.offset }).map(\.element) {
            guard case .repeated = record.lookup(key) else { continue }
            deadLetter("duplicate-key", "the record has the key '\(key)' more than once (line \(number)); which one counts is up to each reader",
                       line: line, number: number, offset: offset, file: file, id: id, into: &result)
            return
        }
        guard case .unique(let member) = record.lookup(field) else {
            deadLetter("missing-field", "the record has no field '\(field)'", line: line, number: number, offset: offset, file: file, id: id, into: &result)
            return
        }
        guard member.isString, let text = record.decodedValue else {
            deadLetter("wrong-type", "the field '\(field)' is not a string", line: line, number: number, offset: offset, file: file, id: id, into: &result)
            return
        }
        let converted: Diagnosed<[UInt8]>
        let recordID = id.map { String(decoding: $0, as: UTF8.self) } ?? JSONStringLiteral.encode("\(inputNames[file]):\(number)")
        switch self.converted(Array(text.utf8), from: source) {
        case .success(let value):
            converted = value.output
            if let check = value.check {
                recordCheck(check, id: recordID, name: "\(inputNames[file]):\(number)", place: #""id":\#(Self.raw(id)),"file":\#(JSONStringLiteral.encode(inputNames[file])),"line":\#(number)"#, into: &result)
            }
        case .failure(let error):
            deadLetter(error.code, "'\(field)' does not convert: \(error)", line: line, number: number, offset: offset, file: file, id: id, into: &result)
            return
        }
        result.counts.converted += 1
        for diagnostic in converted.diagnostics { result.counts.diagnostics[diagnostic.code, default: 0] += 1 }
        if keepsDiagnostics && !converted.diagnostics.isEmpty {
            appendDiagnostics(converted.diagnostics, number: number, file: file, id: id, to: &result.diagnostics)
        }
        var value = converted.value
        if embedsJSON {
            if value.last == 0x0A { value.removeLast() }
        } else {
            value = Array(JSONStringLiteral.encode(String(decoding: value, as: UTF8.self)).utf8)
        }
        Self.splice(value, into: into, of: record, line: line, to: &result.output)
        result.output.append(0x0A)
    }

    /// One document converted from `sourceName` to the target, and with `--check` checked: the
    /// output, and what the check found lost.
    struct Converted {
        var output: Diagnosed<[UInt8]>
        var check: MigrationCheck?
    }

    func converted(_ bytes: [UInt8], from sourceName: String) -> Result<Converted, ConversionError> {
        guard let timeout else { return convertedNow(bytes, from: sourceName) }
        // The record's whole work (a check reads it back too) under one deadline: past it, the
        // conversion stops where it is and the record is a dead letter, nothing left running.
        let result = ConversionDeadline.$current.withValue(.after(.seconds(timeout))) {
            convertedNow(bytes, from: sourceName)
        }
        if case .failure(let error) = result, error.code == "timeout" {
            return .failure(ConversionError(code: "timeout", message: "took over \(timeout) s (--timeout-per-record); its conversion was stopped"))
        }
        return result
    }

    private func convertedNow(_ bytes: [UInt8], from sourceName: String) -> Result<Converted, ConversionError> {
        do throws(ConversionError) {
            if checks, let sourceFormat = converter.registry.format(named: sourceName), let targetFormat = converter.registry.format(named: target) {
                let check = try converter.check(bytes, from: sourceFormat, via: targetFormat, diffOptions: diffOptions)
                return .success(Converted(output: Diagnosed(check.written, diagnostics: check.diagnostics), check: check))
            }
            return .success(Converted(output: try converter.convert(bytes, from: sourceName, to: target), check: nil))
        } catch {
            return .failure(error)
        }
    }

    /// A checked record's losses, counted in the census under `id` (JSON text) and, with
    /// `--check-results`, written as one line when the gate counts any: `place` (its id, file
    /// and line, as JSON members), whether it fails, and each class with its severity, how many
    /// times, and the first one's block and detail.
    func recordCheck(_ check: MigrationCheck, id: String, name: String, place: String, into result: inout BatchPieceResult) {
        let losses = check.losses
        let fails = result.counts.census.record(losses, gate: gate, id: id)
        let counted = gate.counted(losses)
        guard !counted.isEmpty else { return }
        if keepsRecordPages { keepPage(of: check, id: id, name: name, classes: Set(counted.map(\.lossClass)), into: &result) }
        guard keepsCheckResults else { return }
        let quote = JSONStringLiteral.encode
        let classes = Dictionary(grouping: counted, by: \.lossClass).sorted { $0.key < $1.key }.map { lossClass, losses in
            #"{"class":\#(quote(lossClass.name)),"key":\#(quote(lossClass.key)),"severity":"\#(lossClass.severity.rawValue)","count":\#(losses.count),"#
                + #""block":\#(losses[0].block.map(String.init) ?? "null"),"detail":\#(quote(losses[0].detail))}"#
        }
        result.checkResults += #"{\#(place),"fails":\#(fails),"losses":[\#(classes.joined(separator: ","))]}"#.utf8
        result.checkResults.append(0x0A)
    }

    /// `--report-dir`: the record's page, kept when it may be one of the census's examples (among
    /// the first of a class in this piece); the run writes those that are, once pieces merge.
    private func keepPage(of check: MigrationCheck, id: String, name: String, classes: Set<LossClass>, into result: inout BatchPieceResult) {
        let candidate = classes.contains { (result.pagesByClass[$0.name] ?? 0) < BatchCensus.examplesKept }
        guard candidate else { return }
        for lossClass in classes { result.pagesByClass[lossClass.name, default: 0] += 1 }
        let names = CheckNames(input: name, target: target)
        let page = DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(CheckReportContent.make(check, names: names, gate: gate))
        result.recordPages.append((id, Array(page.utf8)))
    }

    /// The record with `value` as the value of `key`: in place of the old value, or added last.
    /// A record that repeats `key` never comes here (it is a dead letter), so no old value stays.
    static func splice(_ value: [UInt8], into key: String, of record: JSONObjectLine, line: [UInt8], to out: inout [UInt8]) {
        switch record.lookup(key) {
        case .unique(let member):
            out.append(contentsOf: line[..<member.valueRange.lowerBound])
            out.append(contentsOf: value)
            out.append(contentsOf: line[member.valueRange.upperBound...])
            return
        case .repeated: return
        case .absent: break
        }
        out.append(contentsOf: line[..<record.closingBrace])
        if !record.members.isEmpty { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: JSONStringLiteral.encode(key).utf8)
        out.append(UInt8(ascii: ":"))
        out.append(contentsOf: value)
        out.append(contentsOf: line[record.closingBrace...])
    }

    /// `{"file":...,"line":N,"byteOffset":B,"id":...,"code":...,"message":...,"original":...}`: the
    /// original line as a JSON string when it is UTF-8, else as `originalBase64`.
    /// A record over the limit also says whether `original` is cut (`truncated`) and how long the
    /// record is (`originalBytes`).
    private func deadLetter(_ code: String, _ message: String, line: [UInt8], number: Int, offset: Int, file: Int, id: [UInt8]?,
                            cut: (truncated: Bool, originalBytes: Int)? = nil, into result: inout BatchPieceResult) {
        result.counts.deadLettered += 1
        result.counts.failures[code, default: 0] += 1
        let quote = JSONStringLiteral.encode
        var record = #"{"file":\#(quote(inputNames[file])),"line":\#(number),"byteOffset":\#(offset),"id":\#(Self.raw(id))"#
        record += #","code":\#(quote(code)),"message":\#(quote(message))"#
        if let cut { record += #","truncated":\#(cut.truncated),"originalBytes":\#(cut.originalBytes)"# }
        if let text = String(validating: line, as: UTF8.self) {
            record += #","original":\#(quote(text))}"#
        } else {
            record += #","originalBase64":"\#(Data(line).base64EncodedString())"}"#
        }
        result.deadLetters += record.utf8
        result.deadLetters.append(0x0A)
    }

    private func appendDiagnostics(_ diagnostics: [Diagnostic], number: Int, file: Int, id: [UInt8]?, to out: inout [UInt8]) {
        let quote = JSONStringLiteral.encode
        let entries = diagnostics.map { diagnostic in
            var entry = #"{"severity":\#(quote(diagnostic.severity.rawValue)),"code":\#(quote(diagnostic.code)),"message":\#(quote(diagnostic.message))"#
            if let location = diagnostic.location {
                entry += #","line":\#(location.line),"column":\#(location.column)"#
                if let pointer = location.jsonPointer { entry += #","pointer":\#(quote(pointer))"# }
            }
            return entry + "}"
        }
        let line = #"{"file":\#(quote(inputNames[file])),"line":\#(number),"id":\#(Self.raw(id)),"diagnostics":[\#(entries.joined(separator: ","))]}"#
        out += line.utf8
        out.append(0x0A)
    }

    /// A record's id as it was written (a JSON value), or null.
    static func raw(_ id: [UInt8]?) -> String {
        id.map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
