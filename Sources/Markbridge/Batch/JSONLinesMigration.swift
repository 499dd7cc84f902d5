import Foundation
import MarkbridgeJSON

/// A migration of JSON Lines records, as `markbridge batch` runs it: each line one JSON object
/// whose `field` holds a document in `source`; each record comes out byte for byte as it came
/// in but for the value of `into` (the converted document, added last when the record has no
/// such key), or goes to the dead letters with why. A value, safe to share.
///
/// The rules, for every line:
/// - a line may end in CR (a CR LF line ending); a UTF-8 byte-order mark at the very start of
///   an input is not part of its first line;
/// - a blank line (only spaces and tabs) is no record;
/// - a line over ``maxRecordBytes``, a line that is not one JSON object, a record with
///   `field`, `into` or `idField` more than once, without `field`, or whose `field` is not a
///   string, and a record that fails to convert are dead letters, and the migration goes on;
/// - the record's id is the value of `idField` as written (any JSON value), kept in its dead
///   letter and its diagnostics.
public struct JSONLinesMigration: Sendable {
    public var conversion: RecordConversion
    public let source: Format
    public var field: String
    public var into: String
    public var idField: String
    public var maxRecordBytes: Int
    /// A markup JSON result goes in as a JSON value rather than as a string.
    public var embedsJSONValue: Bool
    /// How many records are converted at once by ``results(for:input:firstLine:firstByteOffset:)``.
    public var window: Int
    /// How a record-too-large message names the limit (the command says its option).
    package var limitSpelling = "maxRecordBytes"

    /// Throws `unknown-format` when `source` cannot be read (or the target not written, see
    /// ``RecordConversion``), and `invalid-value` when a JSON value is to be embedded from a
    /// target that is not markup JSON.
    public init(_ conversion: RecordConversion, from source: Format, field: String, into: String? = nil, idField: String = "id",
                maxRecordBytes: Int = 16 << 20, embedsJSONValue: Bool = false,
                window: Int = ProcessInfo.processInfo.activeProcessorCount) throws(ConversionError) {
        guard source.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(source.name)' cannot be read")
        }
        if embedsJSONValue && conversion.target.name != Format.markupJSON.name {
            throw ConversionError(code: "invalid-value", message: "only markup JSON output can be embedded as a JSON value, not '\(conversion.target.name)'")
        }
        self.conversion = conversion
        self.source = source
        self.field = field
        self.into = into ?? field
        self.idField = idField
        self.maxRecordBytes = Swift.max(1, maxRecordBytes)
        self.embedsJSONValue = embedsJSONValue
        self.window = Swift.max(1, window)
    }

    /// What one line became. `line` is its number (from 1, blank lines included), `byteOffset`
    /// where it starts in its input, `input` the input's name for dead letters and messages.
    /// `bytes` is the line without its LF.
    public func record(_ bytes: [UInt8], line: Int, byteOffset: Int = 0, input: String = "") -> JSONLinesRecord {
        var start = 0
        var end = bytes.count
        if end > 0, bytes[end - 1] == 0x0D { end -= 1 }
        if byteOffset == 0, end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let content = start == 0 && end == bytes.count ? bytes : Array(bytes[start..<end])
        var record = JSONLinesRecord(input: input, line: line, byteOffset: byteOffset, id: nil, outcome: .blank)
        guard content.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return record }
        guard content.count <= maxRecordBytes else { return tooLarge(content[...], length: content.count, line: line, byteOffset: byteOffset, input: input) }
        let object: JSONObjectLine
        do throws(ConversionError) {
            object = try JSONObjectLine(content, decoding: field)
        } catch {
            let column = error.location.map { " at column \($0.column)" } ?? ""
            record.outcome = .deadLetter(deadLetter(error.code, "the line is not a JSON object\(column): \(error.message)", content, record))
            return record
        }
        if case .unique(let member) = object.lookup(idField) { record.id = String(decoding: content[member.valueRange], as: UTF8.self) }
        // A key read or written twice: the raw first value would stay beside the converted one.
        let keys = [field, into, idField]
        for (index, key) in keys.enumerated() where keys.firstIndex(of: key) == index {
            guard case .repeated = object.lookup(key) else { continue }
            record.outcome = .deadLetter(deadLetter("duplicate-key", "the record has the key '\(key)' more than once (line \(line)); which one counts is up to each reader", content, record))
            return record
        }
        guard case .unique(let member) = object.lookup(field) else {
            record.outcome = .deadLetter(deadLetter("missing-field", "the record has no field '\(field)'", content, record))
            return record
        }
        guard member.isString, let text = object.decodedUTF8 else {
            record.outcome = .deadLetter(deadLetter("wrong-type", "the field '\(field)' is not a string", content, record))
            return record
        }
        // The field's bytes are valid UTF-8: the scanner checked them as it unescaped them.
        switch conversion.convert(text, from: source, inputIsCheckedUTF8: true) {
        case .success(let converted):
            var value = converted.output.value
            if embedsJSONValue {
                if value.last == 0x0A { value.removeLast() }
            } else {
                value = Array(JSONStringLiteral.encode(String(decoding: value, as: UTF8.self)).utf8)
            }
            var output: [UInt8] = []
            output.reserveCapacity(content.count + value.count + into.utf8.count + 4)
            Self.splice(value, into: into, of: object, line: content, to: &output)
            output.append(0x0A)
            record.outcome = .converted(JSONLinesRecord.Converted(line: output, diagnostics: converted.output.diagnostics, check: converted.check))
        case .failure(let error):
            record.outcome = .deadLetter(deadLetter(error.code, "'\(field)' does not convert: \(error)", content, record))
        }
        return record
    }

    /// The dead letter of a record over ``maxRecordBytes``, from its first bytes and its length
    /// alone, for a reader that measured the line without holding it: the same as ``record(_:line:byteOffset:input:)``
    /// gives for it held whole.
    package func tooLarge(_ start: ArraySlice<UInt8>, length: Int, line: Int, byteOffset: Int, input: String) -> JSONLinesRecord {
        let kept = RecordPrefix(start, idField: idField)
        let message = "the record is \(length) bytes, over the limit of \(maxRecordBytes) (\(limitSpelling))"
            + (kept.bytes.count < length ? "; its first \(kept.bytes.count) bytes are kept" : "")
        var record = JSONLinesRecord(input: input, line: line, byteOffset: byteOffset, id: kept.id.map { String(decoding: $0, as: UTF8.self) }, outcome: .blank)
        var letter = deadLetter("record-too-large", message, kept.bytes, record)
        letter.cut = (kept.bytes.count < length, length)
        record.outcome = .deadLetter(letter)
        return record
    }

    private func deadLetter(_ code: String, _ message: String, _ original: [UInt8], _ record: JSONLinesRecord) -> DeadLetter {
        DeadLetter(code: code, message: message, input: record.input, line: record.line, byteOffset: record.byteOffset, id: record.id, original: original)
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

    /// The records of `lines` (each without its LF), in their order, ``window`` converted at a
    /// time: numbered from 1, offsets counted with one LF after each line. Cancelling the task
    /// that reads them, or leaving the loop, stops the migration within one window (see
    /// ``BatchEngine``). To resume a migration stopped after line n, run it again over the lines
    /// after n: each record's ``JSONLinesRecord/line`` says how far it got.
    public func results<Lines: AsyncSequence & Sendable>(for lines: Lines, input: String = "", firstLine: Int = 1, firstByteOffset: Int = 0)
        -> JSONLinesResults<Lines> where Lines.Element == [UInt8] {
        JSONLinesResults(map: OrderedConcurrentMap(NumberedLines(lines: lines, first: firstLine, offset: firstByteOffset), window: window) { [self] numbered in
            record(numbered.bytes, line: numbered.line, byteOffset: numbered.offset, input: input)
        })
    }
}

/// The records of ``JSONLinesMigration/results(for:input:firstLine:firstByteOffset:)``, in input order.
public struct JSONLinesResults<Lines: AsyncSequence & Sendable>: AsyncSequence, Sendable where Lines.Element == [UInt8] {
    public typealias Element = JSONLinesRecord
    let map: OrderedConcurrentMap<NumberedLines<Lines>, JSONLinesRecord>

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: map.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: OrderedConcurrentMap<NumberedLines<Lines>, JSONLinesRecord>.Iterator

        /// Throws `CancellationError` when the reading task is cancelled, or what the lines throw.
        public mutating func next() async throws -> JSONLinesRecord? {
            try await base.next()
        }
    }
}

/// Lines with their numbers and offsets, as the migration's window takes them.
struct NumberedLines<Lines: AsyncSequence & Sendable>: AsyncSequence, Sendable where Lines.Element == [UInt8] {
    struct Line: Sendable {
        var bytes: [UInt8]
        var line: Int
        var offset: Int
    }

    let lines: Lines
    let first: Int
    let offset: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(base: lines.makeAsyncIterator(), line: first, offset: offset)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: Lines.AsyncIterator
        var line: Int
        var offset: Int

        mutating func next() async throws -> Line? {
            guard let bytes = try await base.next() else { return nil }
            defer {
                line += 1
                offset += bytes.count + 1
            }
            return Line(bytes: bytes, line: line, offset: offset)
        }
    }
}
