@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// Reads CommonMark into the IR, with cmark parsing (safe by default) and its iterator feeding
/// the shared ``DocumentBuilder``. HTML blocks go through the HTML reader; inline HTML tags are
/// paired and become markups through the HTML reader's rule table; anything else is reported.
///
/// GitHub Flavored Markdown (``MarkdownWriter/Dialect/gfm``) is read the same way by cmark-gfm
/// with its table, strikethrough, autolink and tasklist extensions, loaded at run time (see
/// ``GFMLibrary``): the same walker, the same guards, and pipe tables, `~~strike~~`, bare URLs
/// and task list items besides. Where cmark-gfm is not installed, reading GFM fails with
/// `gfm-unavailable`, naming the package to install.
public struct MarkdownReader: DocumentReader {
    /// The Markdown read: the writer's dialects.
    public typealias Dialect = MarkdownWriter.Dialect

    public struct Options: Hashable, Sendable {
        public var urlPolicy: URLPolicy
        public var maxInputBytes: Int
        /// For HTML blocks and inline HTML: relative URLs are resolved against this absolute URL,
        /// elements without a rule are unwrapped or dropped, nesting past `maxHTMLDepth` is
        /// flattened, as the HTML reader does with the same options.
        public var baseURL: String?
        public var unknownElements: HTMLReader.UnknownElementPolicy
        public var maxHTMLDepth: Int
        public var dialect: Dialect
        /// The caller checked the input is valid UTF-8 (a JSON string's bytes, which the JSON
        /// scanner checked as it unescaped them), so it is not checked again. Set only where
        /// that check ran.
        package var inputIsCheckedUTF8 = false

        public init(urlPolicy: URLPolicy = .default, maxInputBytes: Int = IRLimits.defaultMaxInputBytes, baseURL: String? = nil,
                    unknownElements: HTMLReader.UnknownElementPolicy = .unwrap, maxHTMLDepth: Int = 512,
                    dialect: Dialect = .commonMark) {
            self.urlPolicy = urlPolicy
            self.maxInputBytes = maxInputBytes
            self.baseURL = baseURL
            self.unknownElements = unknownElements
            self.maxHTMLDepth = maxHTMLDepth
            self.dialect = dialect
        }

        /// The HTML reader's options for the HTML inside.
        var embeddedHTML: HTMLReader.Options {
            HTMLReader.Options(urlPolicy: urlPolicy, baseURL: baseURL, unknownElements: unknownElements,
                               parser: .init(maxDepth: maxHTMLDepth))
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    public func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        switch options.dialect {
        case .commonMark: return try read(bytes, engine: CommonMarkEngine()).fromReader(canonical: true)
        case .gfm:
            let engine = GFMEngine(library: try Self.gfmLibrary())
            // Input over the size limit is refused as it came.
            guard bytes.count <= options.maxInputBytes, let (defused, reports) = GFMTableGuard.defuse(bytes) else { return try read(bytes, engine: engine).fromReader(canonical: true) }
            var read = try read(defused, engine: engine)
            read.diagnostics.insert(contentsOf: reports, at: 0)
            return read.fromReader(canonical: true)
        }
    }

    /// cmark-gfm, or the error that says what to install.
    static func gfmLibrary(_ loaded: Result<GFMLibrary, GFMUnavailable> = GFMLibrary.shared) throws(ConversionError) -> GFMLibrary {
        switch loaded {
        case .success(let library): return library
        case .failure(let reason):
            throw ConversionError(code: "gfm-unavailable", message: "reading GitHub Flavored Markdown needs cmark-gfm's libraries, which could not be loaded (\(reason.detail)); install them with apt-get install \(GFMUnavailable.package)")
        }
    }

    /// cmark-gfm's version where it loads, for reports.
    public static var gfmVersion: String? {
        try? gfmLibrary().version
    }

    private func read(_ bytes: [UInt8], engine: some CmarkEngine) throws(ConversionError) -> Diagnosed<Document> {
        guard bytes.count <= options.maxInputBytes else {
            throw ConversionError(code: "input-too-large", message: "input is \(bytes.count) bytes, over the limit of \(options.maxInputBytes)")
        }
        try EncodingSniffing.refuseWideEncodings(bytes)
        if !options.inputIsCheckedUTF8, let bad = UTF8Validation.firstInvalidOffset(bytes) {
            throw ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte \(bad)", at: SourceLocation(byteOffset: bad, in: bytes))
        }
        var tagCache = InlineTagCache()
        guard let (clamped, clamp) = MarkdownDepthClamp.clamp(bytes) else {
            try MarkdownComplexityGuard.check(bytes)
            let read = readChecked(bytes, engine: engine, tagCache: &tagCache)
            // The walk, or an HTML block's read inside it, stops at the deadline or on
            // cancellation: what it built is then cut short, and never returned.
            try ConversionDeadline.check()
            return read
        }
        do {
            try MarkdownComplexityGuard.check(clamped)
        } catch {
            throw ConversionError(code: error.code, message: error.message, at: error.location.map(clamp.original))
        }
        var read = readChecked(clamped, engine: engine, tagCache: &tagCache, depthClamp: clamp)
        try ConversionDeadline.check()
        read.diagnostics.insert(clamp.diagnostic, at: 0)
        return read
    }

    /// Inline HTML tags already interpreted, by their source text.
    typealias InlineTagCache = [String: (HTMLInlineTag, [String])]

    /// A read of input known to be valid UTF-8 and of none of the shapes the complexity guard
    /// refuses, sharing its interpreted tags with other reads: the writer reads back many small
    /// pieces of its own inline output (no containers, no stray `![`) with the same few tags.
    /// cmark parses `pieceBytes` or more at a time (see ``MarkdownPieces``): tests give less.
    func readChecked(_ bytes: [UInt8], engine: some CmarkEngine = CommonMarkEngine(), tagCache: inout InlineTagCache,
                     pieceBytes: Int = CmarkLibrary.defaultPieceBytes, depthClamp: MarkdownDepthClamp? = nil) -> Diagnosed<Document> {
        var walker = MarkdownWalker(options: options)
        walker.depthClamp = depthClamp
        // The clamp reports the nesting past the limit already, where it begins.
        walker.reportedDepthLimit = depthClamp != nil
        walker.tagCache = tagCache
        tagCache = [:]
        CmarkLibrary.walk(bytes, engine: engine, pieceBytes: pieceBytes) { walker.visit($0, literal: $1) }
        tagCache = walker.tagCache
        return Diagnosed(walker.finish(), diagnostics: walker.diagnostics)
    }
}

