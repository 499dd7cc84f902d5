/// The options of a conversion, one record for every reader and writer, each reading the fields
/// that apply to it. Plain values with defaults, in the manner of pandoc's option records.
public struct ConversionOptions: Hashable, Sendable {
    /// The unit markup JSON output counts offsets in.
    public var offsetUnit: OffsetUnit
    /// Indented, one-key-per-line output where the writer supports it.
    public var prettyPrinted: Bool
    /// Which link and image URLs may reach the IR and any output.
    public var urlPolicy: URLPolicy

    public init(offsetUnit: OffsetUnit = .utf16, prettyPrinted: Bool = false, urlPolicy: URLPolicy = .default) {
        self.offsetUnit = offsetUnit
        self.prettyPrinted = prettyPrinted
        self.urlPolicy = urlPolicy
    }

    public static let `default` = ConversionOptions()
}
