import Synchronization

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

    /// The location of `byteOffset` in `bytes`. Linear in the input: for one error; use a
    /// ``LineIndex`` for many.
    public init(byteOffset: Int, in bytes: some Collection<UInt8>, jsonPointer: String? = nil) {
        self = LineIndex(bytes.prefix(byteOffset)).location(ofByte: byteOffset, jsonPointer: jsonPointer)
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

/// The start of every line of an input, built once, so that turning many byte offsets into
/// lines and columns stays linear (each lookup is a binary search), however many diagnostics.
public struct LineIndex: Sendable {
    private var lineStarts: [Int] = [0]

    /// Lines end at LF, CR LF or a lone CR.
    public init(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                // Most of the input has no line end: skip it a word at a time.
                if index + 8 <= count {
                    let word = ByteScan.load(buffer, at: index)
                    if !ByteScan.word(word, contains: 0x0A) && !ByteScan.word(word, contains: 0x0D) {
                        index += 8
                        continue
                    }
                }
                let byte = buffer[index]
                index += 1
                if byte > 0x0D || (byte != 0x0A && byte != 0x0D) { continue }
                if byte == 0x0D, index < count, buffer[index] == 0x0A { index += 1 }
                lineStarts.append(index)
            }
        }
    }

    public init(_ bytes: some Collection<UInt8>) {
        self.init(Array(bytes))
    }

    public func location(ofByte offset: Int, jsonPointer: String? = nil) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low] + 1, byteOffset: offset, jsonPointer: jsonPointer)
    }
}

/// A ``LineIndex`` built on the first lookup, for a reader whose input usually yields no
/// diagnostic with a position: most conversions then never pay for the scan (2% of HTML -> JSON
/// on article-like input). Shared by the closures that locate diagnostics later, hence a class,
/// and the lock makes the first build safe from any thread.
public final class LazyLineIndex: Sendable {
    private let bytes: [UInt8]
    private let index = Mutex<LineIndex?>(nil)

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func location(ofByte offset: Int, jsonPointer: String? = nil) -> SourceLocation {
        index.withLock { index in
            if index == nil { index = LineIndex(bytes) }
            return index!.location(ofByte: offset, jsonPointer: jsonPointer)
        }
    }
}
