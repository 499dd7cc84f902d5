/// A reader of one format: bytes in, a document and what was lost on the way out. Every reader
/// Markbridge ships is one, and a format (the umbrella's `Format`) is made from a reader type,
/// a writer type and how a conversion's options map to each one's `Options`, so that a format
/// of a service's own is one conformance of each and one registry entry.
///
/// Readers are values that are cheap to make: a conversion makes one for each document, from
/// options, and reads with it once.
public protocol DocumentReader: Sendable {
    /// The reader's options: a plain record with defaults, as pandoc's reader options are.
    associatedtype Options: Sendable

    init(options: Options)

    /// The document `bytes` hold, with a diagnostic for everything lossy; throws only when
    /// they hold none (bytes that are not UTF-8, invalid syntax, an input over a limit).
    func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document>
}

extension DocumentReader {
    /// The same over text: every format reads UTF-8.
    public func read(_ text: String) throws(ConversionError) -> Diagnosed<Document> {
        try read(Array(text.utf8))
    }
}
