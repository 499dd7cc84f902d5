/// U+FFFC OBJECT REPLACEMENT CHARACTER, which stands in a block's text where an inline image
/// is: its UTF-8 (EF BF BC) spelled once, for the walks that look for it in bytes.
@_spi(MarkbridgeBytes) public enum ObjectReplacement {
    /// Whether U+FFFC's UTF-8 begins at `index` of `bytes`.
    @inlinable public static func begins(at index: Int, in bytes: Span<UInt8>) -> Bool {
        index >= 0 && index + 2 < bytes.count && bytes[index] == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] == 0xBC
    }
}
