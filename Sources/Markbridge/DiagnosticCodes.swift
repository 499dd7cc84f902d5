/// Every stable code Markbridge reports: the errors that stop a conversion (``ConversionError``)
/// and the diagnostics that say what a conversion dropped or changed (``Diagnostic``). Tools
/// match on these; `markbridge check --fail-on` takes them and refuses a code not listed here. A
/// test scans the sources so that this list and the code cannot drift apart.
public struct DiagnosticCode: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// Stops the conversion: a ``ConversionError``.
        case error
        /// Reported beside the result: a ``Diagnostic``.
        case diagnostic
    }

    /// What kind of outcome a code is, for a service to map to a status: the errors are bad
    /// input, over a limit, refused by policy, stopped (a deadline or cancellation) or
    /// unavailable (a file that cannot be read or written); the diagnostics say what was lost
    /// (dropped or changed), limited or refused, beside a result.
    public enum Category: String, CaseIterable, Hashable, Sendable {
        /// The input is malformed or asks for what does not exist (HTTP 400 or 422).
        case badInput = "bad-input"
        /// The input is larger, deeper or costlier than the limits allow (HTTP 413 or 422).
        case overLimit = "over-limit"
        /// The URL policy or the output paths refuse it (HTTP 403 or 422).
        case refusedByPolicy = "refused-by-policy"
        /// A deadline passed or the task was cancelled (HTTP 503 or 504).
        case stopped
        /// A file could not be read or written (HTTP 500).
        case unavailable
        /// Something was dropped or changed on the way (a result with a warning).
        case loss
    }

    public let code: String
    public let kind: Kind
    /// What it means, in a line.
    public let summary: String
    public let category: Category
    /// For a diagnostic, how much what it reports matters to a migration (``LossSeverity``); nil for an error.
    public let severity: LossSeverity?

    init(_ code: String, _ kind: Kind, _ summary: String, _ category: Category, _ severity: LossSeverity? = nil) {
        self.code = code
        self.kind = kind
        self.summary = summary
        self.category = category
        self.severity = severity
    }
}

extension DiagnosticCode {
    /// Every code, errors first, each group in alphabetical order (a batch's dead letters carry
    /// the errors' codes).
    public static let all: [DiagnosticCode] =
        ErrorCode.allCases.map { DiagnosticCode($0.rawValue, .error, $0.summary, $0.category) }
        + DiagnosticCodeName.allCases.map { DiagnosticCode($0.rawValue, .diagnostic, $0.summary, $0.category, $0.severity) }

    /// The code named, if Markbridge has it.
    public static func named(_ code: String) -> DiagnosticCode? {
        byName[code]
    }

    private static let byName: [String: DiagnosticCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
}
