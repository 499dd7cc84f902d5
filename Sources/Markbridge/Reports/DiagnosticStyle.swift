import MarkbridgeJSON

/// How diagnostics reach standard error: the raw values are the `--diagnostics` spellings.
package enum DiagnosticStyle: String, CaseIterable {
    /// `file:line:column: warning: message [code]`, the shape compilers and editors read.
    case text
    /// One JSON object a line, for tools.
    case json

    package func render(_ diagnostic: Diagnostic, fileName: String) -> String {
        switch self {
        case .text:
            // One line each, whatever the message quotes from the input.
            let file = TerminalText.line(fileName)
            let place = diagnostic.location.map { "\(file):\($0.line):\($0.column)" } ?? file
            let pointer = diagnostic.location?.jsonPointer.map { " (at \(TerminalText.line($0)))" } ?? ""
            return "\(place): \(diagnostic.severity.rawValue): \(TerminalText.line(diagnostic.message))\(pointer) [\(diagnostic.code)]\n"
        case .json:
            return Self.jsonObject(diagnostic, fileName: fileName) + "\n"
        }
    }

    /// One diagnostic as a JSON object: `file`, `line`, `column`, `byteOffset`, `pointer`,
    /// `block`, `severity`, `code`, `message`, the place fields only when known; `leading`
    /// fields first (a check's `step`).
    package static func jsonObject(_ diagnostic: Diagnostic, fileName: String, leading: [(String, String)] = []) -> String {
        var fields = leading + [("file", quoted(fileName))]
        if let location = diagnostic.location {
            fields += [("line", "\(location.line)"), ("column", "\(location.column)"), ("byteOffset", "\(location.byteOffset)")]
            if let pointer = location.jsonPointer { fields.append(("pointer", quoted(pointer))) }
        }
        if let block = diagnostic.block { fields.append(("block", "\(block)")) }
        fields += [
            ("severity", quoted(diagnostic.severity.rawValue)),
            ("code", quoted(diagnostic.code)),
            ("message", quoted(diagnostic.message)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON string literal, through the same writer markup JSON uses.
    private static func quoted(_ text: String) -> String {
        JSONStringLiteral.encode(text)
    }
}
