@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Synchronization

/// A place in a reader's input: 1-based line and column (columns count bytes, as cmark's do),
/// the 0-based byte offset, and for JSON input the JSON Pointer of the value.
public struct SourceLocation: Hashable, Sendable, Codable {
    public var line: Int
    public var column: Int
    public var byteOffset: Int
    public var jsonPointer: String?

    public init(line: Int, column: Int, byteOffset: Int, jsonPointer: String? = nil) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.jsonPointer = jsonPointer
    }

    /// The location of `byteOffset` in `bytes`. Linear in the input: for one error; use a
    /// ``LineIndex`` for many.
    package init(byteOffset: Int, in bytes: some Collection<UInt8>, jsonPointer: String? = nil) {
        self = LineIndex(bytes.prefix(byteOffset)).location(ofByte: byteOffset, jsonPointer: jsonPointer)
    }
}
