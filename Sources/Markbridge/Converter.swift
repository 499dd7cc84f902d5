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
        guard let format = registry.format(named: source), format.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "no reader for format '\(source)'")
        }
        return try read(input, from: format)
    }

    /// Writes `document` as the format named `target`.
    public func write(_ document: Document, to target: String) throws(ConversionError) -> Diagnosed<[UInt8]> {
        guard let format = registry.format(named: target), format.writer != nil else {
            throw ConversionError(code: "unknown-format", message: "no writer for format '\(target)'")
        }
        return try write(document, to: format)
    }

    /// Reads, then writes; the diagnostics of both steps, the reader's first.
    public func convert(_ input: [UInt8], from source: String, to target: String) throws(ConversionError) -> Diagnosed<[UInt8]> {
        guard let sourceFormat = registry.format(named: source), sourceFormat.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "no reader for format '\(source)'")
        }
        guard let targetFormat = registry.format(named: target), targetFormat.writer != nil else {
            throw ConversionError(code: "unknown-format", message: "no writer for format '\(target)'")
        }
        return try convert(input, from: sourceFormat, to: targetFormat)
    }

    /// Reads `input` as `format`: the typed spelling of reading by name, so that a misspelt
    /// format is a compile error (`.html`, `.markdown`, `.markupJSON`, `.plainText`).
    public func read(_ input: [UInt8], from format: Format) throws(ConversionError) -> Diagnosed<Document> {
        try read(input, from: format, inputIsCheckedUTF8: false)
    }

    /// `inputIsCheckedUTF8`: the caller checked `input` is valid UTF-8 (batch, whose JSON
    /// scanner checked the record's field), so the reader need not check it again.
    func read(_ input: [UInt8], from format: Format, inputIsCheckedUTF8: Bool) throws(ConversionError) -> Diagnosed<Document> {
        let reader = try Self.reader(of: format)
        return try withinTimeLimit { () throws(ConversionError) in try readWithinLimit(input, with: reader, inputIsCheckedUTF8: inputIsCheckedUTF8) }
    }

    /// `format`'s reader, or the error that says it has none.
    static func reader(of format: Format) throws(ConversionError) -> Format.Reader {
        guard let reader = format.reader else {
            throw ConversionError(code: "unknown-format", message: "format '\(format.name)' cannot be read")
        }
        return reader
    }

    /// The read, under a deadline the caller bound (see ``withinTimeLimit(_:)``).
    func readWithinLimit(_ input: [UInt8], with reader: Format.Reader, inputIsCheckedUTF8: Bool = false) throws(ConversionError) -> Diagnosed<Document> {
        let read = try reader(input, inputIsCheckedUTF8 ? options.withInputCheckedUTF8 : options)
        guard let detection = options.entityDetection else { return read }
        let detected = detection.apply(to: read.value, urlPolicy: options.effectiveURLPolicy)
        return Diagnosed(detected.value, diagnostics: read.diagnostics + detected.diagnostics)
    }

    /// Writes `document` as `format`.
    public func write(_ document: Document, to format: Format) throws(ConversionError) -> Diagnosed<[UInt8]> {
        let writer = try Self.writer(of: format)
        return try withinTimeLimit { () throws(ConversionError) in try writer(document, options) }
    }

    /// `format`'s writer, or the error that says it has none.
    static func writer(of format: Format) throws(ConversionError) -> Format.Writer {
        guard let writer = format.writer else {
            throw ConversionError(code: "unknown-format", message: "format '\(format.name)' cannot be written")
        }
        return writer
    }

    /// Reads `input` as `source` and writes it as `target`; the diagnostics of both steps.
    public func convert(_ input: [UInt8], from source: Format, to target: Format) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try convert(input, from: source, to: target, inputIsCheckedUTF8: false)
    }

    func convert(_ input: [UInt8], from source: Format, to target: Format, inputIsCheckedUTF8: Bool) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try withinTimeLimit { () throws(ConversionError) in
            let read = try readWithinLimit(input, with: Self.reader(of: source), inputIsCheckedUTF8: inputIsCheckedUTF8)
            // The reader stops at the deadline, and throws; a write begun is given the same chance
            // to stop as a write called alone, which would have checked before it began.
            let writer = try Self.writer(of: target)
            try ConversionDeadline.check()
            var written = try writer(read.value, options)
            written.diagnostics = read.diagnostics + written.diagnostics
            return written
        }
    }

    /// `work` under ``ConversionOptions/timeLimit`` from now (or a deadline bound already, if
    /// earlier), refused at once when the deadline passed or the task was cancelled before it
    /// starts. A conversion's read and write share one limit: they run inside one call, binding
    /// no deadline of their own (a binding is a task-local push and two clock reads, a short
    /// record's dearest fixed cost after its buffers).
    func withinTimeLimit<Value>(_ work: () throws(ConversionError) -> Value) throws(ConversionError) -> Value {
        try ConversionDeadline.check()
        guard let limit = options.timeLimit else { return try work() }
        let deadline = ConversionDeadline.after(limit).earlier(than: ConversionDeadline.current)
        let result = ConversionDeadline.$current.withValue(deadline) { () -> Result<Value, ConversionError> in
            do throws(ConversionError) { return .success(try work()) } catch { return .failure(error) }
        }
        return try result.get()
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
