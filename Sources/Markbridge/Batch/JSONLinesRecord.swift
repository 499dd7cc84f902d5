import Foundation
import MarkbridgeJSON

/// What one line of a JSON Lines migration became (``JSONLinesMigration/record(_:line:byteOffset:input:)``).
public struct JSONLinesRecord: Sendable {
    /// A record converted: the output line, byte for byte the input but for the `into` value,
    /// ending in LF; the diagnostics of its conversion; with a checked migration, what it lost.
    public struct Converted: Sendable {
        public var line: [UInt8]
        public var diagnostics: [Diagnostic]
        public var check: MigrationCheck?
    }

    public enum Outcome: Sendable {
        /// A blank line: no record.
        case blank
        case converted(Converted)
        case deadLetter(DeadLetter)
    }

    /// The input's name, as the migration was given it.
    public var input: String
    /// The line's number in its input, from 1.
    public var line: Int
    public var byteOffset: Int
    /// The record's id: the value of the id field as written (JSON text), when it has one.
    public var id: String?
    public var outcome: Outcome

    /// The id a census lists the record under: its own, or `"input:line"` as a JSON string.
    public var censusID: String {
        id ?? JSONStringLiteral.encode("\(input):\(line)")
    }

    /// The line of a `--diagnostics` file for a converted record with diagnostics:
    /// `{"file":…,"line":N,"id":…,"diagnostics":[{"severity":…,"code":…,"message":…,"line":…,"column":…,"pointer":…}]}`.
    public var diagnosticsLine: [UInt8]? {
        guard case .converted(let converted) = outcome, !converted.diagnostics.isEmpty else { return nil }
        let quote = JSONStringLiteral.encode
        let entries = converted.diagnostics.map { diagnostic in
            var entry = #"{"severity":\#(quote(diagnostic.severity.rawValue)),"code":\#(quote(diagnostic.code)),"message":\#(quote(diagnostic.message))"#
            if let location = diagnostic.location {
                entry += #","line":\#(location.line),"column":\#(location.column)"#
                if let pointer = location.jsonPointer { entry += #","pointer":\#(quote(pointer))"# }
            }
            return entry + "}"
        }
        return Array((#"{"file":\#(quote(input)),"line":\#(line),"id":\#(id ?? "null"),"diagnostics":[\#(entries.joined(separator: ","))]}"# + "\n").utf8)
    }

    /// The line of a `--check-results` file for a checked record that lost something `gate`
    /// counts: `{"id":…,"file":…,"line":N,"fails":…,"losses":[{"class":…,"key":…,"severity":…,"count":…,"block":…,"detail":…}]}`,
    /// each class once, with how many times and the first one's block and detail.
    public func checkResultLine(gate: LossGate) -> [UInt8]? {
        guard case .converted(let converted) = outcome, let check = converted.check else { return nil }
        let place = #""id":\#(id ?? "null"),"file":\#(JSONStringLiteral.encode(input)),"line":\#(line)"#
        return Self.checkResultLine(place: place, losses: check.losses, gate: gate)
    }

    /// A check-results line for a record `place` names (JSON members), or nil when `gate`
    /// counts none of `losses`.
    package static func checkResultLine(place: String, losses: [Loss], gate: LossGate) -> [UInt8]? {
        let counted = gate.counted(losses)
        guard !counted.isEmpty else { return nil }
        let fails = counted.contains { gate.fails($0.lossClass) }
        let quote = JSONStringLiteral.encode
        let classes = Dictionary(grouping: counted, by: \.lossClass).sorted { $0.key < $1.key }.map { lossClass, losses in
            #"{"class":\#(quote(lossClass.name)),"key":\#(quote(lossClass.key)),"severity":"\#(lossClass.severity.rawValue)","count":\#(losses.count),"#
                + #""block":\#(losses[0].block.map(String.init) ?? "null"),"detail":\#(quote(losses[0].detail))}"#
        }
        return Array((#"{\#(place),"fails":\#(fails),"losses":[\#(classes.joined(separator: ","))]}"# + "\n").utf8)
    }
}

/// A record a migration could not convert, with why and the record as it was.
public struct DeadLetter: Sendable, Equatable {
    /// The error code (``ErrorCode``'s raw value, or a record code: `invalid-json`,
    /// `missing-field`, `wrong-type`, `duplicate-key`, `record-too-large`).
    public var code: String
    public var message: String
    public var input: String
    public var line: Int
    public var byteOffset: Int
    /// The record's id as written (JSON text), when it could be read.
    public var id: String?
    /// The record's bytes: all of it, or for a record over the limit its first bytes.
    public var original: [UInt8]
    /// For a record over the limit: whether `original` is cut, and the record's full length.
    public var cut: (truncated: Bool, originalBytes: Int)?

    package init(code: String, message: String, input: String, line: Int, byteOffset: Int, id: String?, original: [UInt8],
                cut: (truncated: Bool, originalBytes: Int)? = nil) {
        self.code = code
        self.message = message
        self.input = input
        self.line = line
        self.byteOffset = byteOffset
        self.id = id
        self.original = original
        self.cut = cut
    }

    /// `{"file":…,"line":N,"byteOffset":B,"id":…,"code":…,"message":…,"original":…}` and LF: the
    /// original as a JSON string when it is UTF-8, else as `originalBase64`; a record over the
    /// limit also says whether `original` is cut (`truncated`) and how long it is (`originalBytes`).
    public var jsonLine: [UInt8] {
        let quote = JSONStringLiteral.encode
        var record = #"{"file":\#(quote(input)),"line":\#(line),"byteOffset":\#(byteOffset),"id":\#(id ?? "null")"#
        record += #","code":\#(quote(code)),"message":\#(quote(message))"#
        if let cut { record += #","truncated":\#(cut.truncated),"originalBytes":\#(cut.originalBytes)"# }
        if let text = String(validating: original, as: UTF8.self) {
            record += #","original":\#(quote(text))}"#
        } else {
            record += #","originalBase64":"\#(Data(original).base64EncodedString())"}"#
        }
        return Array((record + "\n").utf8)
    }

    public static func == (lhs: DeadLetter, rhs: DeadLetter) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.input == rhs.input && lhs.line == rhs.line && lhs.byteOffset == rhs.byteOffset
            && lhs.id == rhs.id && lhs.original == rhs.original && lhs.cut?.truncated == rhs.cut?.truncated && lhs.cut?.originalBytes == rhs.cut?.originalBytes
    }
}
