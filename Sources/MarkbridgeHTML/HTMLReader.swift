import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// Reads HTML into the IR the way a reader sees the page in a browser: parsed by the HTML5
/// algorithm, then walked with the element rules (``HTMLElementRules``), inline `style`
/// declarations, CSS whitespace collapsing and the URL policy. No text is lost without a
/// diagnostic, and every diagnostic points at the element that caused it.
public struct HTMLReader: DocumentReader {
    public enum UnknownElementPolicy: String, Sendable, CaseIterable {
        /// Keep the element's content, drop the element (the default).
        case unwrap
        /// Drop the element and its content.
        case drop
    }

    public struct Options: Hashable, Sendable {
        public var urlPolicy: URLPolicy
        /// Relative link and image URLs are resolved against this absolute URL.
        public var baseURL: String?
        public var unknownElements: UnknownElementPolicy
        public var parser: HTMLParser.Options
        /// Parse as a fragment in `<body>`, as stored content is (true), or as a whole document.
        public var parsesFragment: Bool

        public init(
            urlPolicy: URLPolicy = .default, baseURL: String? = nil, unknownElements: UnknownElementPolicy = .unwrap,
            parser: HTMLParser.Options = .default, parsesFragment: Bool = true
        ) {
            self.urlPolicy = urlPolicy
            self.baseURL = baseURL
            self.unknownElements = unknownElements
            self.parser = parser
            self.parsesFragment = parsesFragment
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    public func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        let parser = HTMLParser(options: options.parser)
        let parsed = options.parsesFragment ? try parser.parseFragment(bytes) : try parser.parseDocument(bytes)
        var walker = HTMLTreeWalker(tree: parsed.value, options: options)
        let document = walker.walk()
        try walker.countdown.rethrow()
        return Diagnosed(document, diagnostics: parsed.diagnostics + walker.diagnostics).fromReader(canonical: true)
    }
}
