/// A format Markbridge reads or writes: its name (the command's spelling), the file extensions
/// that imply it, and its reader and writer where it has them.
///
/// Readers and writers are plain functions over bytes: pure, `Sendable` and cheap to start, so
/// a batch run can call them from every core at once.
public struct Format: Sendable {
    public typealias Reader = @Sendable ([UInt8], ConversionOptions) throws(ConversionError) -> Diagnosed<Document>
    public typealias Writer = @Sendable (Document, ConversionOptions) -> Diagnosed<[UInt8]>

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

extension Format {
    /// Markup JSON, version 1: paragraphs with ranged markups.
    public static let markupJSON = Format(
        name: "json",
        summary: "markup JSON: paragraphs with ranged markups",
        fileExtensions: ["json"],
        reader: { bytes, options throws(ConversionError) in
            try MarkupJSONReader(options: .init(urlPolicy: options.urlPolicy)).read(bytes)
        },
        writer: { document, options in
            MarkupJSONWriter(options: .init(
                offsetUnit: options.offsetUnit, prettyPrinted: options.prettyPrinted, urlPolicy: options.urlPolicy
            )).write(document)
        }
    )
}
