import Synchronization
@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The start of every line of an input, built once, so that turning many byte offsets into
/// lines and columns stays linear (each lookup is a binary search), however many diagnostics.
package struct LineIndex: Sendable {
    private var lineStarts: [Int] = [0]

    package init(_ bytes: [UInt8]) {
        self.init(bytes.span)
    }

    /// Lines end at LF, CR LF or a lone CR.
    package init(_ buffer: Span<UInt8>) {
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

    package init(_ bytes: some Collection<UInt8>) {
        self.init(Array(bytes))
    }

    package func location(ofByte offset: Int, jsonPointer: String? = nil) -> SourceLocation {
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
package final class LazyLineIndex: Sendable {
    private let bytes: [UInt8]
    private let index = Mutex<LineIndex?>(nil)

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package func location(ofByte offset: Int, jsonPointer: String? = nil) -> SourceLocation {
        index.withLock { index in
            if index == nil { index = LineIndex(bytes) }
            return index!.location(ofByte: offset, jsonPointer: jsonPointer)
        }
    }
}
