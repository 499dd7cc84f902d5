import Foundation

/// The facade services call: bytes in one format to bytes in another, with every diagnostic the
/// reader and the writer raised. A value type with no shared state, safe to use from any thread.
public struct Converter: Sendable {
    public var registry: FormatRegistry
    public var options: ConversionOptions

    public init(registry: FormatRegistry = .standard, options: ConversionOptions = .default) {
        self.registry = registry
        self.options = options
    }

    /// Reads `input` as the format named `source` into the IR.
    public func read(_ input: [UInt8], from source: String) throws(ConversionError) -> Diagnosed<Document> {
        guard let reader = registry.format(named: source)?.reader else {
            throw ConversionError(code: "unknown-format", message: "no reader for format '\(source)'")
        }
        return try reader(input, options)
    }

    /// Writes `document` as the format named `target`.
    public func write(_ document: Document, to target: String) throws(ConversionError) -> Diagnosed<[UInt8]> {
        guard let writer = registry.format(named: target)?.writer else {
            throw ConversionError(code: "unknown-format", message: "no writer for format '\(target)'")
        }
        return try writer(document, options)
    }

    /// Reads, then writes; the diagnostics of both steps, the reader's first.
    public func convert(_ input: [UInt8], from source: String, to target: String) throws(ConversionError) -> Diagnosed<[UInt8]> {
        let read = try self.read(input, from: source)
        var written = try write(read.value, to: target)
        written.diagnostics = read.diagnostics + written.diagnostics
        return written
    }

    /// Reads `input` as `format`: the typed spelling of reading by name, so that a misspelt
    /// format is a compile error (`.html`, `.markdown`, `.markupJSON`, `.plainText`).
    public func read(_ input: [UInt8], from format: Format) throws(ConversionError) -> Diagnosed<Document> {
        guard let reader = format.reader else {
            throw ConversionError(code: "unknown-format", message: "format '\(format.name)' cannot be read")
        }
        return try reader(input, options)
    }

    /// Writes `document` as `format`.
    public func write(_ document: Document, to format: Format) throws(ConversionError) -> Diagnosed<[UInt8]> {
        guard let writer = format.writer else {
            throw ConversionError(code: "unknown-format", message: "format '\(format.name)' cannot be written")
        }
        return try writer(document, options)
    }

    /// Reads `input` as `source` and writes it as `target`; the diagnostics of both steps.
    public func convert(_ input: [UInt8], from source: Format, to target: Format) throws(ConversionError) -> Diagnosed<[UInt8]> {
        let read = try self.read(input, from: source)
        var written = try write(read.value, to: target)
        written.diagnostics = read.diagnostics + written.diagnostics
        return written
    }

    /// The same over text: every format reads and writes UTF-8.
    public func convert(_ text: String, from source: Format, to target: Format) throws(ConversionError) -> Diagnosed<String> {
        let converted = try convert(Array(text.utf8), from: source, to: target)
        return Diagnosed(String(decoding: converted.value, as: UTF8.self), diagnostics: converted.diagnostics)
    }

    /// The same over `Data`, as Foundation and server frameworks hand bodies over.
    public func convert(_ data: Data, from source: Format, to target: Format) throws(ConversionError) -> Diagnosed<Data> {
        let converted = try convert([UInt8](data), from: source, to: target)
        return Diagnosed(Data(converted.value), diagnostics: converted.diagnostics)
    }
}
