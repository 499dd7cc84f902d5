/// The options of a conversion, one record for every reader and writer, each reading the fields
/// that apply to it. Plain values with defaults, in the manner of pandoc's option records.
public struct ConversionOptions: Hashable, Sendable {
    /// The unit markup JSON output counts offsets in.
    public var offsetUnit: OffsetUnit
    /// Indented, one-key-per-line output where the writer supports it.
    public var prettyPrinted: Bool
    /// Which link and image URLs may reach the IR and any output.
    public var urlPolicy: URLPolicy
    /// Relative URLs in HTML input are resolved against this absolute URL.
    public var baseURL: String?
    /// HTML output as a whole document rather than a fragment.
    public var standalone: Bool
    /// What the HTML reader does with elements it has no rule for.
    public var unknownElements: HTMLReader.UnknownElementPolicy
    /// Replace invalid UTF-8 in HTML input with U+FFFD (reported) instead of failing.
    public var repairsInvalidUTF8: Bool
    /// Whether Markdown output may use inline and block HTML where CommonMark has no syntax.
    public var markdownHTML: MarkdownWriter.HTMLPolicy
    /// Input size, nesting and URL length limits (``ConversionLimits/service`` by default).
    public var limits: ConversionLimits
    /// Hosts embedded content may come from: exact hosts (`youtube.com`) and `*.suffix`
    /// patterns, matching subdomains only (see ``URLPolicy/embedHosts``). An embed from any
    /// other host is written as a link to its source (`embed-host-refused`). Nil, the default,
    /// leaves the URL policy's own list (by default none: every host); when set, it replaces it.
    public var embedHosts: Set<String>?
    /// How long one call of ``Converter`` may take (a read, a write, a conversion, a check):
    /// past it, the conversion stops within a bounded amount of work and throws `timeout`.
    /// Nil, the default, sets none; a deadline the caller bound already
    /// (``ConversionDeadline/current``) still holds, and so does the task's cancellation, which
    /// stops a conversion the same way with `cancelled`.
    public var timeLimit: Duration?
    /// Hashtags, mentions and web addresses to find in what every reader reads and mark up
    /// (``EntityDetection``); nil, the default, finds none.
    public var entityDetection: EntityDetection?
    /// The input was checked to be valid UTF-8 before the conversion (a JSON Lines record's
    /// field, checked by the JSON scanner): the HTML and Markdown readers do not check it again.
    /// Set for one read by ``Converter`` when its caller says so, never by a service.
    var inputIsCheckedUTF8 = false

    /// These options for input already checked: a copy made only when a caller says so.
    var withInputCheckedUTF8: ConversionOptions {
        var options = self
        options.inputIsCheckedUTF8 = true
        return options
    }

    public init(
        offsetUnit: OffsetUnit = .utf16, prettyPrinted: Bool = false, urlPolicy: URLPolicy = .default,
        baseURL: String? = nil, standalone: Bool = false, unknownElements: HTMLReader.UnknownElementPolicy = .unwrap,
        repairsInvalidUTF8: Bool = false, markdownHTML: MarkdownWriter.HTMLPolicy = .keep, limits: ConversionLimits = .service,
        embedHosts: Set<String>? = nil, timeLimit: Duration? = nil, entityDetection: EntityDetection? = nil
    ) {
        self.offsetUnit = offsetUnit
        self.prettyPrinted = prettyPrinted
        self.urlPolicy = urlPolicy
        self.baseURL = baseURL
        self.standalone = standalone
        self.unknownElements = unknownElements
        self.repairsInvalidUTF8 = repairsInvalidUTF8
        self.markdownHTML = markdownHTML
        self.limits = limits
        self.embedHosts = embedHosts
        self.timeLimit = timeLimit
        self.entityDetection = entityDetection
    }

    /// The URL policy with the embed allowlist and the limit on URL length applied (the limit
    /// not where the policy lets everything through, as ``URLPolicy/unrestricted`` does).
    package var effectiveURLPolicy: URLPolicy {
        var policy = urlPolicy
        if let embedHosts { policy.embedHosts = embedHosts }
        guard !policy.isUnrestricted else { return policy }
        // The schemes of the entity link templates the caller gave (`app://tag?t={tag}`).
        if let entityDetection { policy.allowedSchemes.formUnion(entityDetection.linkSchemes) }
        policy.maxLength = min(policy.maxLength, limits.maxURLLength)
        return policy
    }

    public static let `default` = ConversionOptions()
}
