/// A report that a reader or writer dropped or changed something, with where it happened.
///
/// Lossy conversions never fail silently: they return their value together with diagnostics,
/// and a caller decides (for instance with the command's `--strict`) whether any loss is fatal.
public struct Diagnostic: Hashable, Sendable {
    public enum Severity: String, Hashable, Sendable, Comparable {
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

    public init(_ severity: Severity, code: String, message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    public static func warning(_ code: String, _ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, code: code, message: message, at: location)
    }
}

extension Diagnostic: CustomStringConvertible {
    /// `line:column: warning: message [code]`, the shape compilers use.
    public var description: String {
        let place = location.map { "\($0.line):\($0.column): " } ?? ""
        return "\(place)\(severity.rawValue): \(message) [\(code)]"
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

/// UTF-8 well-formedness, for readers that must refuse bad input with the offset of the first
/// bad byte rather than repair it silently.
public enum UTF8Validation {
    /// The offset of the first byte that does not begin a valid sequence, or nil.
    public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                var lower: UInt8 = 0x80
                var upper: UInt8 = 0xBF
                let length: Int
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; upper = 0x9F
                case 0xF0: length = 4; lower = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; upper = 0x8F
                default: return index
                }
                guard index + length <= buffer.count, buffer[index + 1] >= lower, buffer[index + 1] <= upper else { return index }
                for offset in 2..<max(2, length) where buffer[index + offset] & 0xC0 != 0x80 { return index }
                index += length
            }
            return nil
        }
    }
}
