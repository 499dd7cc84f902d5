/// Why a reader produced no document at all, and where.
///
/// Readers throw this only when nothing usable can be produced (invalid JSON, a range outside its
/// text, bytes that are not UTF-8); everything lossy is a ``Diagnostic`` instead.
public struct ConversionError: Error, Hashable, Sendable, Codable {
    /// A stable, kebab-case identifier (`invalid-json`, `offset-out-of-range`).
    public var code: String
    public var message: String
    public var location: SourceLocation?

    // The accessors below are `@inline(never)`: Swift 6.3.1 crashes (an ownership verifier error
    // in CopyPropagation) compiling a client's `-O` build that inlines `location?.line` across the
    // module boundary, e.g. the README's `print(error.code, error.line ?? 0, error)` in a catch
    // block. A call costs nothing that matters on an error path; .ci/service-check builds the
    // README's snippets in release too, so that a regression shows.

    /// The 1-based line of the input where it happened, when known.
    public var line: Int? { @inline(never) get { location?.line } }
    /// The 1-based column (in bytes, as cmark counts them), when known.
    public var column: Int? { @inline(never) get { location?.column } }
    /// The 0-based byte offset in the input, when known.
    public var byteOffset: Int? { @inline(never) get { location?.byteOffset } }
    /// For JSON input, the JSON Pointer of the value at fault (nil for the document as a whole).
    public var jsonPointer: String? { @inline(never) get { location?.jsonPointer } }

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
