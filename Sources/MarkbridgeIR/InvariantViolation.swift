/// A broken promise of the IR, with the block and markup it concerns.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public var blockIndex: Int
    public var markupIndex: Int?
    public var reason: String

    public var description: String {
        let place = markupIndex.map { "block \(blockIndex), markup \($0)" } ?? "block \(blockIndex)"
        return "\(place): \(reason)"
    }
}

/// The limits the IR holds to. Readers reject input past them.
public enum IRLimits {
    /// Deepest list or quote nesting a block may carry; deeper input is flattened to it.
    public static let maxDepth = 100
    /// The largest input a reader reads unless told otherwise: 64 MiB, far above any stored
    /// article, the same whether a reader is used directly or through the converter
    /// (`ConversionLimits.service`).
    public static let defaultMaxInputBytes = 64 << 20
}
