/// A place in a reader's input: 1-based line and column (columns count bytes, as cmark's do),
/// the 0-based byte offset, and for JSON input the JSON Pointer of the value.
public struct SourceLocation: Hashable, Sendable {
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

    /// The location of `byteOffset` in `bytes`, counting lines at LF, CR LF and lone CR.
    /// Linear in the offset; meant for the rare error or diagnostic, not for every token.
    public init(byteOffset: Int, in bytes: some Collection<UInt8>, jsonPointer: String? = nil) {
        var line = 1
        var lineStart = 0
        var offset = 0
        var previous: UInt8 = 0
        for byte in bytes {
            if offset >= byteOffset { break }
            if byte == 0x0A {
                if previous != 0x0D { line += 1 }
                lineStart = offset + 1
            } else if byte == 0x0D {
                line += 1
                lineStart = offset + 1
            }
            previous = byte
            offset += 1
        }
        self.init(line: line, column: byteOffset - lineStart + 1, byteOffset: byteOffset, jsonPointer: jsonPointer)
    }
}

/// Why a reader produced no document at all, and where.
///
/// Readers throw this only when nothing usable can be produced (invalid JSON, a range outside its
/// text, bytes that are not UTF-8); everything lossy is a ``Diagnostic`` instead.
public struct ConversionError: Error, Hashable, Sendable {
    /// A stable, kebab-case identifier (`invalid-json`, `offset-out-of-range`).
    public var code: String
    public var message: String
    public var location: SourceLocation?

    public init(code: String, message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }
}

extension ConversionError: CustomStringConvertible {
    /// `line:column: pointer: message`, the location parts present only where known.
    public var description: String {
        var out = ""
        if let location {
            out += "\(location.line):\(location.column): "
            if let pointer = location.jsonPointer, !pointer.isEmpty { out += "\(pointer): " }
        }
        return out + message
    }
}
