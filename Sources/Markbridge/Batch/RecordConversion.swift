/// One record's conversion in a migration: the document read, written in the target format,
/// and, when the migration is checked, read back and compared, all under the converter's time
/// limit (``ConversionOptions/timeLimit``) as one piece of work. What `markbridge batch` does to
/// every record, a value a service runs on its own records.
public struct RecordConversion: Sendable {
    /// How a checked migration compares and judges each record.
    public struct Check: Sendable, Hashable {
        /// What the census counts and what fails a record.
        public var gate: LossGate
        public var diffOptions: DiffOptions

        public init(gate: LossGate = .default, diffOptions: DiffOptions = .default) {
            self.gate = gate
            self.diffOptions = diffOptions
        }
    }

    /// A record converted: the output with the diagnostics of every step, and with a check what
    /// it lost.
    public struct Output: Sendable {
        public var output: Diagnosed<[UInt8]>
        public var check: MigrationCheck?
    }

    public var converter: Converter
    public let target: Format
    /// Each record is also read back and compared (the target must read), or not.
    public var check: Check?
    /// What a record past the time limit is told instead of the converter's own message (the
    /// command names its option).
    package var timeoutMessage: String?

    /// Throws `unknown-format` when `target` cannot be written, or, checked, cannot be read back.
    public init(converter: Converter = Converter(), to target: Format, check: Check? = nil) throws(ConversionError) {
        guard target.writer != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(target.name)' cannot be written")
        }
        if check != nil, target.reader == nil {
            throw ConversionError(code: "unknown-format", message: "format '\(target.name)' cannot be read back, so a conversion to it cannot be checked")
        }
        self.converter = converter
        self.target = target
        self.check = check
    }

    /// `bytes`, a document in `source`, converted (and checked). An error is the record's, to
    /// dead-letter: the migration goes on.
    public func convert(_ bytes: [UInt8], from source: Format) -> Result<Output, ConversionError> {
        convert(bytes, from: source, inputIsCheckedUTF8: false)
    }

    /// `inputIsCheckedUTF8`: `bytes` are a JSON string's, which the JSON scanner checked.
    func convert(_ bytes: [UInt8], from source: Format, inputIsCheckedUTF8: Bool) -> Result<Output, ConversionError> {
        do throws(ConversionError) {
            if let check {
                let result = try converter.check(bytes, from: source, via: target, diffOptions: check.diffOptions, inputIsCheckedUTF8: inputIsCheckedUTF8)
                return .success(Output(output: Diagnosed(result.written, diagnostics: result.diagnostics), check: result))
            }
            return .success(Output(output: try converter.convert(bytes, from: source, to: target, inputIsCheckedUTF8: inputIsCheckedUTF8), check: nil))
        } catch {
            if error.code == "timeout", let timeoutMessage { return .failure(ConversionError(code: "timeout", message: timeoutMessage)) }
            return .failure(error)
        }
    }
}
