/// The fuzz targets, one job each, so that libFuzzer's coverage and corpus are about one thing
/// and an input costs only what its target checks. `.ci/fuzz` links each into a binary of its
/// own with a driver of one line (`LLVMFuzzerTestOneInput` calling ``run(_:_:)``), built with
/// `-sanitize=fuzzer,address` only.
///
/// Each target is an oracle, not library code: stopping the process (``finding(_:)``) is how
/// it reports a trap, a broken invariant or a round trip that changed the document.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// HTML bytes through `HTMLReader`: a document that holds the IR's invariants, or an error.
    case htmlReader = "html-reader"
    /// HTML bytes through the bare HTML5 parser, as a document or (a first byte below 8 picks
    /// the context) as a fragment, dumped as html5lib prints a tree.
    case htmlParser = "html-parser"
    /// Markdown bytes through `MarkdownReader` (CommonMark): the IR's invariants.
    case markdownReader = "markdown-reader"
    /// Markup JSON through `MarkupJSONReader`: the invariants, and written back, the same document.
    case jsonReader = "json-reader"
    /// Any reader's document (the first byte picks it) through every writer: output that reads
    /// back as the document minus what the writer reported, and HTML and Markdown that the
    /// safety oracle finds safe.
    case convert = "convert"
    /// A generated document (the bytes are the generator's decisions) through markup JSON and
    /// back: the same document, as the round-trip property tests say. Likewise through HTML and
    /// through Markdown.
    case roundTripJSON = "round-trip-json"
    case roundTripHTML = "round-trip-html"
    case roundTripMarkdown = "round-trip-markdown"
    /// Attributes a writer must escape, in a fixed document, through Markdown and HTML and back.
    case attributes = "attributes"
    /// JSON Lines records through `markbridge batch`'s record path: every line accounted for,
    /// every line written is JSON, each record kept byte for byte but for its result.
    case jsonlRecord = "jsonl-record"
    /// Two read documents through `DocumentDiff`, and one through `Converter.check`.
    case diffCheck = "diff-check"

    /// Runs the target on one input.
    public func run(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        let bytes = unsafe size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
        switch self {
        case .htmlReader: ReaderTargets.html(bytes)
        case .htmlParser: ReaderTargets.htmlParser(bytes)
        case .markdownReader: ReaderTargets.markdown(bytes)
        case .jsonReader: ReaderTargets.json(bytes)
        case .convert: ConvertTarget.check(bytes)
        case .roundTripJSON: RoundTripTarget.check(bytes, through: .json)
        case .roundTripHTML: RoundTripTarget.check(bytes, through: .html)
        case .roundTripMarkdown: RoundTripTarget.check(bytes, through: .markdown)
        case .attributes: AttributeRoundTrip.check(bytes)
        case .jsonlRecord: JSONLinesTarget.check(bytes)
        case .diffCheck: DiffCheckTarget.check(bytes)
        }
    }
}

/// Reports a finding: libFuzzer saves the input that got here.
func finding(_ message: @autoclosure () -> String) -> Never {
    fatalError(message())
}

/// At most `limit` characters of `text`, for a finding's message.
func shown(_ text: String, limit: Int = 2_000) -> String {
    text.count > limit ? String(text.prefix(limit)) + "…" : text
}
