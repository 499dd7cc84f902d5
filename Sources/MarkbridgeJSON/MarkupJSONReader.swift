@_spi(InlineTraversal) import MarkbridgeIR

/// Reads markup JSON, version 1, validating everything.
///
/// Input that yields no document (invalid JSON or UTF-8, an unknown type, a range outside its
/// text or splitting a character, overlapping links, nesting past the limit) throws a
/// ``ConversionError`` naming the JSON Pointer, line and column. Anything dropped on the way
/// (unknown fields, duplicate keys, empty markups, unsafe URLs) is a diagnostic.
public struct MarkupJSONReader: DocumentReader {
    public struct Options: Hashable, Sendable {
        public var urlPolicy: URLPolicy
        /// Deepest nesting of arrays and objects accepted anywhere, unknown fields included.
        /// The reader never recurses, so this guards memory and sanity, not the stack.
        public var maxNestingDepth: Int
        public var maxInputBytes: Int

        public init(urlPolicy: URLPolicy = .default, maxNestingDepth: Int = 64, maxInputBytes: Int = IRLimits.defaultMaxInputBytes) {
            self.urlPolicy = urlPolicy
            self.maxNestingDepth = maxNestingDepth
            self.maxInputBytes = maxInputBytes
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    public func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        guard bytes.count <= options.maxInputBytes else {
            throw ConversionError(
                code: "input-too-large",
                message: "input is \(bytes.count) bytes, over the limit of \(options.maxInputBytes)")
        }
        try EncodingSniffing.refuseWideEncodings(bytes)
        // Scanned through the array's span, not the array: see `JSONScanner` for the cost of
        // an array there.
        let result = { () -> Result<Diagnosed<Document>, JSONScanner.Failure> in
            var decoder = MarkupJSONDecoder(scanner: JSONScanner(bytes: bytes.span), options: options)
            do throws(JSONScanner.Failure) {
                return .success(try decoder.decode())
            } catch {
                return .failure(error)
            }
        }()
        switch result {
        case .success(let document):
            return document.fromReader()
        case .failure(let failure):
            if let stop = failure.stop { throw stop }
            throw ConversionError(
                code: failure.code, message: failure.message,
                // A failure of the document as a whole has no pointer, not the empty one.
                at: SourceLocation(byteOffset: failure.offset, in: bytes, jsonPointer: failure.pointer.description.isEmpty ? nil : failure.pointer.description))
        }
    }
}
