/// The resource limits of a conversion, in one place for every reader, with defaults suited to
/// a service converting uploads: a document over `maxInputBytes` is refused (`input-too-large`),
/// nesting past `maxNestingDepth` is flattened with its text kept (HTML, `depth-limit`) or refused
/// (JSON, `too-deep`), and a URL over `maxURLLength` bytes loses its link (`unsafe-url`).
public struct ConversionLimits: Hashable, Sendable {
    /// The largest input read, in bytes. Default 64 MiB, far above any stored article; the
    /// command line raises it to what each reader supports.
    public var maxInputBytes: Int
    /// The deepest element nesting the HTML reader keeps (deeper content is flattened into the
    /// element at the limit), and the deepest array and object nesting markup JSON may have.
    public var maxHTMLDepth: Int
    public var maxJSONNesting: Int
    /// The longest link or image URL kept, in UTF-8 bytes.
    public var maxURLLength: Int

    public init(maxInputBytes: Int = IRLimits.defaultMaxInputBytes, maxHTMLDepth: Int = 512, maxJSONNesting: Int = 64, maxURLLength: Int = 8192) {
        self.maxInputBytes = maxInputBytes
        self.maxHTMLDepth = maxHTMLDepth
        self.maxJSONNesting = maxJSONNesting
        self.maxURLLength = maxURLLength
    }

    /// For a service: the defaults above.
    public static let service = ConversionLimits()

    /// For the command line, which converts files people chose: 1 GiB of input (HTML's reader
    /// stops at 512 MiB, its offsets being 32-bit).
    package static let commandLine = ConversionLimits(maxInputBytes: 1 << 30)
}
