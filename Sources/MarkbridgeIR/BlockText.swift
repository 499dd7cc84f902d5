@_spi(Internals) import MarkbridgeBytes

/// A block's text while ``DocumentBuilder`` makes it. A `String` as long as every piece was one
/// (the Markdown reader's pieces are): the block's string is then made without checking
/// anything again. Bytes from the first piece given as bytes on (the HTML reader's text), and
/// the standard library checks them once, when the block ends: its check is the only one that
/// may vouch for a `String`, and it costs about ten instructions a byte of mixed-script text.
struct BlockText {
    private var textString = ""
    private var bytes: [UInt8] = []
    private var holdsBytes = false

    /// The length in UTF-8 bytes, which markup edges are noted in.
    @inline(__always)
    var byteCount: Int { holdsBytes ? bytes.count : textString.utf8.count }

    @inline(__always)
    var isEmpty: Bool { byteCount == 0 }

    @inline(__always)
    var lastByte: UInt8? { holdsBytes ? bytes.last : textString.utf8.last }

    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        holdsBytes ? bytes[offset] : textString.utf8[textString.utf8.index(textString.utf8.startIndex, offsetBy: offset)]
    }

    @inline(__always)
    mutating func append(_ piece: String) {
        if holdsBytes {
            bytes.append(contentsOf: piece.utf8)
        } else {
            textString.append(piece)
        }
    }

    @inline(__always)
    mutating func append(_ piece: Span<UInt8>) {
        if !holdsBytes { switchToBytes() }
        bytes.append(copying: piece)
    }

    @inline(__always)
    mutating func appendSpace() {
        if holdsBytes {
            bytes.append(0x20)
        } else {
            textString.append(" ")
        }
    }

    /// Removes the line feed the text ends with.
    mutating func removeLastLineFeed() {
        precondition(lastByte == 0x0A, "the text does not end with a line feed")
        if holdsBytes {
            bytes.removeLast()
        } else {
            textString.unicodeScalars.removeLast()
        }
    }

    private mutating func switchToBytes() {
        holdsBytes = true
        guard !textString.isEmpty else { return }
        bytes.append(contentsOf: textString.utf8)
        textString = ""
    }

    /// The text as a string, repaired with U+FFFD where bytes given were not UTF-8.
    func string() -> String {
        holdsBytes ? String(decoding: bytes, as: UTF8.self) : textString
    }

    /// Empties the text, keeping the byte storage for the next block.
    @inline(__always)
    mutating func removeAll() {
        if holdsBytes {
            bytes.removeAll(keepingCapacity: true)
            holdsBytes = false
        } else {
            textString = ""
        }
    }
}
