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

    public let code: String
    public let kind: Kind
    /// What it means, in a line.
    public let summary: String

    init(_ code: String, _ kind: Kind, _ summary: String) {
        self.code = code
        self.kind = kind
        self.summary = summary
    }
}

extension DiagnosticCode {
    /// Every code, errors first, each group in alphabetical order (a batch's dead letters carry
    /// the errors' codes).
    public static let all: [DiagnosticCode] = [
        // Errors
        .init("end-before-start", .error, "a markup JSON range ends before it starts"),
        .init("gfm-unavailable", .error, "reading GFM needs cmark-gfm's libraries (apt-get install libcmark-gfm-extensions-dev), which are not installed"),
        .init("input-too-large", .error, "the input is larger than the limit (ConversionLimits.maxInputBytes)"),
        .init("invalid-document", .error, "a document built by hand that no writer can write as our readers read it"),
        .init("invalid-image-range", .error, "a markup JSON IMAGE markup that does not cover exactly one U+FFFC"),
        .init("invalid-json", .error, "the input is not JSON"),
        .init("invalid-table-row", .error, "a markup JSON TR whose cells do not cover its text, joined by ' | '"),
        .init("invalid-utf8", .error, "the input is not valid UTF-8 (and repair was not asked for)"),
        .init("invalid-value", .error, "a markup JSON field has a value outside what it allows"),
        .init("lone-surrogate", .error, "a JSON string escapes half of a surrogate pair"),
        .init("markdown-too-complex", .error, "Markdown whose shape would take cmark quadratic time"),
        .init("missing-field", .error, "a markup JSON object lacks a required field"),
        .init("negative-number", .error, "a markup JSON count or offset is negative"),
        .init("not-an-integer", .error, "a markup JSON number that must be whole is not"),
        .init("not-an-object", .error, "a batch line that is JSON but not an object"),
        .init("not-utf8", .error, "the input declares or is in an encoding other than UTF-8"),
        .init("number-too-large", .error, "a markup JSON number does not fit"),
        .init("offset-out-of-range", .error, "a markup JSON offset is past the end of its text"),
        .init("offset-splits-character", .error, "a markup JSON offset falls inside a character's encoding"),
        .init("output-collision", .error, "a batch directory run would write two inputs to one output path"),
        .init("output-is-link", .error, "a batch directory run would write through a symbolic link inside the output tree"),
        .init("overlapping-links", .error, "two markup JSON links cover the same text"),
        .init("record-too-large", .error, "a batch record over --max-record-bytes"),
        .init("timeout", .error, "a batch record took longer than --timeout-per-record"),
        .init("too-deep", .error, "JSON nested deeper than the limit"),
        .init("unknown-format", .error, "a format name no registry entry has"),
        .init("unknown-offset-unit", .error, "markup JSON offsetUnit is not utf16, scalar or utf8"),
        .init("unknown-type", .error, "an unknown markup JSON block or markup type"),
        .init("unsupported-version", .error, "a markup JSON version other than 1"),
        .init("unwritable", .error, "a batch directory run cannot write one output file (for that file's own reason, not a full disk)"),
        .init("would-overwrite-input", .error, "a batch directory run's output would replace a file of the input tree"),
        .init("wrong-type", .error, "a markup JSON field of the wrong JSON type"),
        // Diagnostics
        .init("alignment-dropped", .diagnostic, "alignment Markdown without HTML cannot say"),
        .init("anchor-changed", .diagnostic, "a markup JSON paragraph name with what an anchor may not hold, kept without it"),
        .init("anchor-dropped", .diagnostic, "an id (an in-page link's target) with no block to begin, or that Markdown without HTML cannot say"),
        .init("block-dropped", .diagnostic, "a block Markdown without HTML cannot say (an empty paragraph, a caption)"),
        .init("code-span-split", .diagnostic, "a code span with a line break, written without HTML as one span a line"),
        .init("control-character-replaced", .diagnostic, "a control character no output may carry, replaced"),
        .init("default-color", .diagnostic, "opaque black text read as the default colour, not a COLOR"),
        .init("depth-clamped", .diagnostic, "lists and quotes nested past the IR's 100 levels kept at level 100"),
        .init("depth-limit", .diagnostic, "HTML nested past the parser's limit, flattened into the element at it"),
        .init("details-flattened", .diagnostic, "<details> shown open"),
        .init("dropped-comment", .diagnostic, "HTML comments dropped"),
        .init("dropped-element", .diagnostic, "an HTML element dropped with its content (script, style, a source-less embed)"),
        .init("dropped-style", .diagnostic, "CSS or presentational HTML the IR has no place for"),
        .init("duplicate-key", .diagnostic, "a JSON key given twice; the last one wins (a batch record with its --field, --into or --id-field twice is a dead letter)"),
        .init("embed-dropped", .diagnostic, "an embed written without HTML as a link to its source"),
        .init("embed-host-refused", .diagnostic, "an embed from a relative source or a host not on the allowlist, written as a link"),
        .init("embed-flattened", .diagnostic, "an embed where only text can be, written as a link to its source"),
        .init("emphasis-dropped", .diagnostic, "emphasis Markdown without HTML cannot write where it is"),
        .init("empty-alt", .diagnostic, "an empty alt text, which Markdown writes as none"),
        .init("empty-markup", .diagnostic, "an empty markup JSON range, dropped"),
        .init("flattened-definition-list", .diagnostic, "a definition list written without HTML as paragraphs"),
        .init("form-control", .diagnostic, "form controls kept as their visible text"),
        .init("formatting-limit", .diagnostic, "formatting elements past the HTML parser's limit"),
        .init("ignored-field", .diagnostic, "a markup JSON field that does not apply to its type"),
        .init("info-string-truncated", .diagnostic, "a code fence's info string kept as its first word"),
        .init("inline-html", .diagnostic, "inline HTML in Markdown that the reader could not use"),
        .init("invalid-html", .diagnostic, "an HTML block in Markdown that could not be read"),
        .init("invalid-utf8-replaced", .diagnostic, "invalid UTF-8 replaced with U+FFFD, as asked"),
        .init("language-changed", .diagnostic, "a code block language kept as its first word"),
        .init("line-break-dropped", .diagnostic, "a line break Markdown without HTML cannot write"),
        .init("list-number-clamped", .diagnostic, "a list number outside 0...999,999,999 moved to the nearest end"),
        .init("list-split", .diagnostic, "an ordered item numbered out of turn, which Markdown writes as a list of its own"),
        .init("markup-dropped", .diagnostic, "a markup Markdown without HTML cannot write"),
        .init("markup-range-adjusted", .diagnostic, "a markup edge on whitespace, which Markdown cannot mark, moved"),
        .init("markup-split-at-cells", .diagnostic, "a markup JSON markup across a table cell's edge, cut there"),
        .init("markups-merged", .diagnostic, "touching or overlapping equal markup JSON markups merged"),
        .init("nul-character", .diagnostic, "a NUL character in HTML replaced"),
        .init("table-cell-flattened", .diagnostic, "blocks inside a table cell written as lines of its text"),
        .init("table-flattened", .diagnostic, "a table written without HTML as a paragraph a row"),
        .init("table-too-wide", .diagnostic, "a GFM table of over 1,000 columns read as text (cmark-gfm takes quadratic time on it)"),
        .init("task-flattened", .diagnostic, "a task list item's state that Markdown without HTML cannot say, written as the text [ ] or [x] (or dropped from an HTML block)"),
        .init("unknown-element", .diagnostic, "an HTML element with no rule, unwrapped or dropped"),
        .init("unknown-field", .diagnostic, "an unknown markup JSON field, ignored"),
        .init("unsafe-url", .diagnostic, "a URL the policy refuses, dropped (the text kept)"),
        .init("word-list", .diagnostic, "Microsoft Word list paragraphs read as list items"),
    ]

    /// The code named, if Markbridge has it.
    public static func named(_ code: String) -> DiagnosticCode? {
        byName[code]
    }

    private static let byName: [String: DiagnosticCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
}
