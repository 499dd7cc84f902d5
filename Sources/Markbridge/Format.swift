/// A format Markbridge reads or writes: its name (the command's spelling), the file extensions
/// that imply it, and its reader and writer where it has them.
///
/// A format is made from a ``DocumentReader`` type and a ``DocumentWriter`` type, with how a
/// conversion's ``ConversionOptions`` map to each one's `Options`
/// (``init(name:summary:fileExtensions:reader:readerOptions:writer:writerOptions:)``): adding a
/// format is one conformance of each and one registry entry. What the format holds are the
/// plain functions over bytes made from them: pure, `Sendable` and cheap to start, so a batch
/// run can call them from every core at once. A reader or writer that is no such type (one
/// side only, or another format's wrapped) is given as a function
/// (``init(name:summary:fileExtensions:reader:writer:)``).
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

    /// The format read by `reader` and written by `writer`, each made for every call with the
    /// options its mapping gives of the conversion's. The types are generic parameters, not
    /// existentials: each format's functions are specialised for its reader and writer.
    public init<FormatReader: DocumentReader, FormatWriter: DocumentWriter>(
        name: String, summary: String, fileExtensions: [String],
        reader: FormatReader.Type, readerOptions: @escaping @Sendable (ConversionOptions) -> FormatReader.Options,
        writer: FormatWriter.Type, writerOptions: @escaping @Sendable (ConversionOptions) -> FormatWriter.Options
    ) {
        self.init(
            name: name, summary: summary, fileExtensions: fileExtensions,
            reader: { bytes, options throws(ConversionError) in try FormatReader(options: readerOptions(options)).read(bytes) },
            writer: { document, options throws(ConversionError) in try FormatWriter(options: writerOptions(options)).write(document) }
        )
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
        reader: MarkupJSONReader.self,
        readerOptions: { options in
            .init(urlPolicy: options.effectiveURLPolicy, maxNestingDepth: options.limits.maxJSONNesting, maxInputBytes: options.limits.maxInputBytes)
        },
        writer: MarkupJSONWriter.self,
        writerOptions: { options in
            .init(offsetUnit: options.offsetUnit, prettyPrinted: options.prettyPrinted, urlPolicy: options.effectiveURLPolicy)
        }
    )
}

extension Format {
    /// HTML: read as a browser would (HTML5 parsing, inline styles), written as semantic HTML5.
    public static let html = Format(
        name: "html",
        summary: "HTML, read as a browser reads it, written as clean semantic HTML5",
        fileExtensions: ["html", "htm", "xhtml"],
        reader: HTMLReader.self,
        readerOptions: { options in
            var reader = HTMLReader.Options(urlPolicy: options.effectiveURLPolicy, baseURL: options.baseURL, unknownElements: options.unknownElements,
                                            parser: .init(repairsInvalidUTF8: options.repairsInvalidUTF8, maxDepth: options.limits.maxHTMLDepth,
                                                          maxInputBytes: options.limits.maxInputBytes))
            reader.parser.inputIsCheckedUTF8 = options.inputIsCheckedUTF8
            return reader
        },
        writer: HTMLWriter.self,
        writerOptions: { options in .init(standalone: options.standalone, urlPolicy: options.effectiveURLPolicy) }
    )

    /// Plain text: read as paragraphs separated by blank lines, a line end inside one a hard
    /// break, nothing else interpreted; written as what a reader sees, formatting gone.
    public static let plainText = Format(
        name: "text",
        summary: "plain text: read as paragraphs and line breaks, written as what a reader sees",
        fileExtensions: ["txt"],
        reader: PlainTextReader.self,
        readerOptions: { options in
            var reader = PlainTextReader.Options(maxInputBytes: options.limits.maxInputBytes)
            reader.inputIsCheckedUTF8 = options.inputIsCheckedUTF8
            return reader
        },
        writer: PlainTextWriter.self,
        writerOptions: { _ in .init() }
    )
}

extension Format {
    /// CommonMark, through cmark: read with HTML blocks and inline tags mapped by the HTML rules;
    /// written so that it always reads back as the same IR.
    public static let markdown = Format(
        name: "markdown",
        summary: "CommonMark (cmark): written so that it reads back as the same document",
        fileExtensions: ["md", "markdown", "mdown"],
        reader: MarkdownReader.self,
        readerOptions: { options in .markdownReader(options, dialect: .commonMark) },
        writer: MarkdownWriter.self,
        writerOptions: { options in .markdownWriter(options, dialect: .commonMark) }
    )

    /// GitHub Flavored Markdown: CommonMark with pipe tables, `~~strike~~`, task list items
    /// and (read only) bare URLs as links. Read by cmark-gfm, loaded at run time where Debian's
    /// libcmark-gfm-extensions is installed (`gfm-unavailable` where it is not).
    public static let gfm = Format(
        name: "gfm",
        summary: "GitHub Flavored Markdown (tables, strikethrough, task lists, autolinks); read with cmark-gfm",
        fileExtensions: [],
        reader: MarkdownReader.self,
        readerOptions: { options in .markdownReader(options, dialect: .gfm) },
        writer: MarkdownWriter.self,
        writerOptions: { options in .markdownWriter(options, dialect: .gfm) }
    )
}

extension MarkdownReader.Options {
    /// The Markdown reader's options in a conversion: the two dialects differ in nothing else.
    fileprivate static func markdownReader(_ options: ConversionOptions, dialect: MarkdownReader.Dialect) -> Self {
        var reader = Self(urlPolicy: options.effectiveURLPolicy, maxInputBytes: options.limits.maxInputBytes, baseURL: options.baseURL,
                          unknownElements: options.unknownElements, maxHTMLDepth: options.limits.maxHTMLDepth, dialect: dialect)
        reader.inputIsCheckedUTF8 = options.inputIsCheckedUTF8
        return reader
    }
}

extension MarkdownWriter.Options {
    /// The Markdown writer's options in a conversion, for either dialect.
    fileprivate static func markdownWriter(_ options: ConversionOptions, dialect: MarkdownWriter.Dialect) -> Self {
        Self(html: options.markdownHTML, urlPolicy: options.effectiveURLPolicy, dialect: dialect)
    }
}
