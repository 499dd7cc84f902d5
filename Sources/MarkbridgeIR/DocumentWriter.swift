/// A writer of one format: a document in, bytes and what could not be carried over out. The
/// writing half of a format, as ``DocumentReader`` is the reading half.
public protocol DocumentWriter: Sendable {
    /// The writer's options: a plain record with defaults.
    associatedtype Options: Sendable

    init(options: Options)

    /// The document written (UTF-8), with a diagnostic for everything the format cannot say;
    /// throws only when nothing can be written (`invalid-document`, a deadline passed).
    func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]>
}
