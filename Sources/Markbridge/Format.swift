/// A format Markbridge reads or writes: its name (the command's spelling), the file extensions
/// that imply it, and its reader and writer where it has them.
///
/// Readers and writers are plain functions over bytes: pure, `Sendable` and cheap to start, so
/// a batch run can call them from every core at once.
public struct Format: Sendable {
    public typealias Reader = @Sendable ([UInt8], ConversionOptions) throws(ConversionError) -> Diagnosed<Document>
    public typealias Writer = @Sendable (Document, ConversionOptions) throws(ConversionError) -> Diagnosed<[UInt8]>

    public let name: String
    public let summary: String
    public let fileExtensions: [String]
    public let reader: Reader?
    public let writer: Writer?

    public init(name: String, summary: String, fileExtensions: [String], reader: Reader?, writer: Writer?) {
        self.name = name
        self.summary = summary
        self.fileExtensions = fileExtensions
        self.reader = reader
        self.writer = writer
    }
}

/// Formats are told apart by name, as a registry holds them: `.markdown == .gfm` is false, and
/// a format looked up by name equals the static one.
extension Format: Equatable {
    public static func == (lhs: Format, rhs: Format) -> Bool {
        lhs.name == rhs.name
    }
}

extension Format {
    /// Markup JSON, version 1: paragraphs with ranged markups.
    public static let markupJSON = Format(
        name: "json",
        summary: "markup JSON: paragraphs with ranged markups",
        fileExtensions: ["json"],
        reader: { bytes, options throws(ConversionError) in
            try MarkupJSONReader(options: .init(urlPolicy: options.effectiveURLPolicy, maxNestingDepth: options.limits.maxJSONNesting,
                                                maxInputBytes: options.limits.maxInputBytes)).read(bytes)
        },
        writer: { document, options throws(ConversionError) in
            try MarkupJSONWriter(options: .init(
                offsetUnit: options.offsetUnit, prettyPrinted: options.prettyPrinted, urlPolicy: options.effectiveURLPolicy
            )).write(document)
        }
    )
}

extension Format {
    /// HTML: read as a browser would (HTML5 parsing, inline styles), written as semantic HTML5.
    public static let html = Format(
        name: "html",
        summary: "HTML, read as a browser reads it, written as clean semantic HTML5",
        fileExtensions: ["html", "htm", "xhtml"],
        reader: { bytes, options throws(ConversionError) in
            try HTMLReader(options: .init(
                urlPolicy: options.effectiveURLPolicy, baseURL: options.baseURL, unknownElements: options.unknownElements,
                parser: .init(repairsInvalidUTF8: options.repairsInvalidUTF8, maxDepth: options.limits.maxHTMLDepth,
                              maxInputBytes: options.limits.maxInputBytes))).read(bytes)
        },
        writer: { document, options throws(ConversionError) in
            try HTMLWriter(options: .init(standalone: options.standalone, urlPolicy: options.effectiveURLPolicy)).write(document)
        }
    )

    /// Plain text: read as paragraphs separated by blank lines, a line end inside one a hard
    /// break, nothing else interpreted; written as what a reader sees, formatting gone.
    public static let plainText = Format(
        name: "text",
        summary: "plain text: read as paragraphs and line breaks, written as what a reader sees",
        fileExtensions: ["txt"],
        reader: { bytes, options throws(ConversionError) in
            try PlainTextReader(options: .init(maxInputBytes: options.limits.maxInputBytes)).read(bytes)
        },
        writer: { document, _ throws(ConversionError) in try PlainTextWriter().write(document) }
    )
}

extension Format {
    /// CommonMark, through cmark: read with HTML blocks and inline tags mapped by the HTML rules;
    /// written so that it always reads back as the same IR.
    public static let markdown = Format(
        name: "markdown",
        summary: "CommonMark (cmark): written so that it reads back as the same document",
        fileExtensions: ["md", "markdown", "mdown"],
        reader: { bytes, options throws(ConversionError) in
            try MarkdownReader(options: .init(urlPolicy: options.effectiveURLPolicy, maxInputBytes: options.limits.maxInputBytes, baseURL: options.baseURL,
                                              unknownElements: options.unknownElements, maxHTMLDepth: options.limits.maxHTMLDepth)).read(bytes)
        },
        writer: { document, options throws(ConversionError) in
            try MarkdownWriter(options: .init(html: options.markdownHTML, urlPolicy: options.effectiveURLPolicy)).write(document)
        }
    )
}

extension Format {
    /// GitHub Flavored Markdown: CommonMark with pipe tables, `~~strike~~`, task list items
    /// and (read only) bare URLs as links. Read by cmark-gfm, loaded at run time where Debian's
    /// libcmark-gfm-extensions is installed (`gfm-unavailable` where it is not).
    public static let gfm = Format(
        name: "gfm",
        summary: "GitHub Flavored Markdown (tables, strikethrough, task lists, autolinks); read with cmark-gfm",
        fileExtensions: [],
        reader: { bytes, options throws(ConversionError) in
            try MarkdownReader(options: .init(urlPolicy: options.effectiveURLPolicy, maxInputBytes: options.limits.maxInputBytes, baseURL: options.baseURL,
                                              unknownElements: options.unknownElements, maxHTMLDepth: options.limits.maxHTMLDepth, dialect: .gfm)).read(bytes)
        },
        writer: { document, options throws(ConversionError) in
            try MarkdownWriter(options: .init(html: options.markdownHTML, urlPolicy: options.effectiveURLPolicy, dialect: .gfm)).write(document)
        }
    )
}
