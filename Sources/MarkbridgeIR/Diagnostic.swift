/// A report that a reader or writer dropped or changed something, with where it happened.
///
/// Lossy conversions never fail silently: they return their value together with diagnostics,
/// and a caller decides (for instance with the command's `--strict`) whether any loss is fatal.
public struct Diagnostic: Hashable, Sendable, Codable {
    public enum Severity: String, Hashable, Sendable, Comparable, Codable {
        /// Nothing was lost, but the caller may want to know (a value was normalised).
        case note
        /// Something in the input was dropped or changed.
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .note && rhs == .warning
        }
    }

    public var severity: Severity
    /// A stable, kebab-case identifier (`unknown-field`, `unsafe-url`) that tools can match on.
    public var code: String
    public var message: String
    public var location: SourceLocation?
    /// For a writer's diagnostic, the index of the block it was writing (`/paragraphs/N` in
    /// markup JSON): where a report shows the loss.
    public var block: Int?

    public init(_ severity: Severity, code: String, message: String, at location: SourceLocation? = nil, block: Int? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.block = block
    }

    package static func warning(_ code: String, _ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, code: code, message: message, at: location)
    }

    /// A writer's warning about block `block`.
    package static func warning(_ code: String, _ message: String, block: Int) -> Diagnostic {
        Diagnostic(.warning, code: code, message: message, block: block)
    }
}

extension Diagnostic: CustomStringConvertible {
    /// `line:column: warning: message (at /json/pointer) [code]`, the shape compilers use.
    public var description: String {
        let place = location.map { "\($0.line):\($0.column): " } ?? ""
        let pointer = location?.jsonPointer.map { " (at \($0))" } ?? ""
        return "\(place)\(severity.rawValue): \(message)\(pointer) [\(code)]"
    }
}

/// A value together with what producing it dropped or changed.
public struct Diagnosed<Value> {
    public var value: Value
    public var diagnostics: [Diagnostic]

    public init(_ value: Value, diagnostics: [Diagnostic] = []) {
        self.value = value
        self.diagnostics = diagnostics
    }
}

extension Diagnosed: Sendable where Value: Sendable {}
extension Diagnosed: Equatable where Value: Equatable {}
