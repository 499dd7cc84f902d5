import MarkbridgeMigration
import Markbridge
import MarkbridgeCLI
import MarkbridgeJSON

/// `markbridge batch`'s record path (``JSONLinesRecords``) on lines the fuzzer writes. Every
/// line is a record, a blank line, or a dead letter; every record that converts is written as
/// one line that is a JSON object with the result in its `--into` field, and is otherwise the
/// line as it was read, byte for byte (the value of `--into` replaced, or added last); every
/// dead letter, diagnostics line and check result is one JSON object.
///
/// The first byte is the command line: bits 0-1 the source (html, markdown, json, html), bits
/// 2-3 the target (json, html, markdown, text), bit 4 `--check` (not to text), bit 5
/// `--embed string` (for json), bit 6 a record limit of 96 bytes (else 1 MiB), bit 7 `--into
/// out` (else the field itself). The rest are the lines; the field is `html`, the id `id`.
enum JSONLinesTarget {
    static func check(_ input: [UInt8]) {
        guard let flags = input.first else { return }
        let lines = Array(input.dropFirst())
        let source = ["html", "markdown", "json", "html"][Int(flags & 3)]
        let target = ["json", "html", "markdown", "text"][Int(flags >> 2 & 3)]
        let into = flags & 0x80 != 0 ? "out" : "html"
        let embedsJSON = target == "json" && flags & 0x20 == 0
        let outcome = JSONLinesRecords.convert(lines, field: "html", from: source, to: target, into: into, idField: "id",
                                               maxRecordBytes: flags & 0x40 != 0 ? 96 : 1 << 20, embedsJSON: embedsJSON,
                                               checks: flags & 0x10 != 0 && target != "text")
        let context = "(from \(source) to \(target), into \(into))"
        let lineCount = lines.isEmpty ? 0 : lines.split(separator: 0x0A, omittingEmptySubsequences: false).count - (lines.last == 0x0A ? 1 : 0)
        if outcome.records + outcome.blankLines != lineCount {
            finding("\(lineCount) lines, but \(outcome.records) records and \(outcome.blankLines) blank lines \(context)")
        }
        if outcome.converted + outcome.deadLettered != outcome.records {
            finding("\(outcome.records) records, but \(outcome.converted) converted and \(outcome.deadLettered) dead letters \(context)")
        }
        let written = objects(outcome.output, "output", context, key: into)
        if written.count != outcome.converted { finding("\(outcome.converted) records converted, but \(written.count) lines written \(context)") }
        for record in written where !embedsJSON && record.decodedValue == nil {
            finding("an output record's '\(into)' is not a string \(context)")
        }
        let deadLetters = objects(outcome.deadLetters, "dead letter", context, key: "code")
        if deadLetters.count != outcome.deadLettered { finding("\(outcome.deadLettered) dead letters counted, but \(deadLetters.count) written \(context)") }
        let deadLines = Set(outcome.deadLetters.split(separator: 0x0A).compactMap { Self.lineNumber(Array($0)) })
        let convertedLines = Self.records(lines).filter { !deadLines.contains($0.number) }
        if convertedLines.count == written.count {
            for (record, (output, outputLine)) in zip(convertedLines, zip(written, outcome.output.split(separator: 0x0A, omittingEmptySubsequences: false))) {
                checkKept(record.bytes, Array(outputLine), output, key: into, context)
            }
        } else {
            finding("\(convertedLines.count) lines are neither blank nor dead letters, but \(written.count) were written \(context)")
        }
        _ = objects(outcome.diagnostics, "diagnostics", context, key: "diagnostics")
        _ = objects(outcome.checkResults, "check results", context, key: "losses")
    }

    /// The non-blank lines of the input, numbered from 1 as the batch numbers them, as the batch
    /// reads them: without CR LF or LF, and without a byte-order mark before the first.
    static func records(_ lines: [UInt8]) -> [(number: Int, bytes: [UInt8])] {
        var pieces = lines.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last == 0x0A { pieces.removeLast() }
        return pieces.enumerated().compactMap { index, piece in
            var line = piece
            if line.last == 0x0D { line.removeLast() }
            if index == 0, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
            return (index + 1, line)
        }
    }

    /// A dead letter's `line`.
    static func lineNumber(_ deadLetter: [UInt8]) -> Int? {
        guard let object = try? JSONObjectLine(deadLetter, decoding: "line"), case .unique(let member) = object.lookup("line") else { return nil }
        return Int(String(decoding: deadLetter[member.valueRange], as: UTF8.self))
    }

    /// The output record is the input record but for the value of `key`: in its place, or added
    /// before the closing brace.
    static func checkKept(_ input: [UInt8], _ output: [UInt8], _ written: JSONObjectLine, key: String, _ context: String) {
        guard let read = try? JSONObjectLine(input, decoding: key), case .unique(let value) = written.lookup(key) else {
            finding("a written record's input does not read \(context)\n\(shown(String(decoding: input, as: UTF8.self)))")
        }
        var before: [UInt8], after: [UInt8]
        if case .unique(let old) = read.lookup(key) {
            (before, after) = (Array(input[..<old.valueRange.lowerBound]), Array(input[old.valueRange.upperBound...]))
        } else {
            // Added last: `,"key":` (no comma in an empty object) between the old bytes and the value.
            (before, after) = (Array(input[..<read.closingBrace]), Array(input[read.closingBrace...]))
            if !read.members.isEmpty { before.append(UInt8(ascii: ",")) }
            before += Array(JSONStringLiteral.encode(key).utf8) + [UInt8(ascii: ":")]
        }
        if !output[..<value.valueRange.lowerBound].elementsEqual(before) || !output[value.valueRange.upperBound...].elementsEqual(after) {
            finding("""
                a written record is not its input but for '\(key)' \(context)
                input  \(shown(String(decoding: input, as: UTF8.self).debugDescription))
                output \(shown(String(decoding: output, as: UTF8.self).debugDescription))
                """)
        }
    }

    /// The lines of `stream`, each read as one JSON object holding `key` once.
    static func objects(_ stream: [UInt8], _ name: String, _ context: String, key: String) -> [JSONObjectLine] {
        guard !stream.isEmpty else { return [] }
        if stream.last != 0x0A { finding("the \(name) stream does not end with a line feed \(context)") }
        return stream.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            let text = String(decoding: line, as: UTF8.self)
            let object: JSONObjectLine
            do throws(ConversionError) { object = try JSONObjectLine(Array(line), decoding: key) } catch {
                finding("a \(name) line is not a JSON object (\(error)) \(context)\n\(shown(text))")
            }
            if case .unique = object.lookup(key) { return object }
            finding("a \(name) line does not hold '\(key)' once \(context)\n\(shown(text))")
        }
    }
}
