@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// A block's text while ``DocumentBuilder`` makes it. A `String` as long as every piece was one:
/// the block's string is then made without checking anything again. Bytes from the first piece
/// given as bytes on (the readers' text comes as bytes: the Markdown reader's from cmark's
/// literals, checked once a block rather than once a literal). Bytes from the HTML reader,
/// which takes them from input it validated, are made a string without a second check (see
/// `String(htmlReaderText:)`, the one unchecked construction kept, for its measured gain);
/// any other bytes are checked by the standard library when the block ends.
struct BlockText {
    private var textString = ""
    private var bytes: [UInt8] = []
    private var holdsBytes = false
    /// Whether every byte piece came from the HTML reader's validated input (or was a `String`).
    private var bytesAreReaderText = true

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

    /// Whether every byte from `offset` on is a space, tab or line feed: one pass, whichever
    /// form the text is in.
    func holdsOnlyWhitespace(from offset: Int) -> Bool {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        return holdsBytes ? bytes[offset...].allSatisfy(isWhitespace) : textString.utf8.dropFirst(offset).allSatisfy(isWhitespace)
    }

    @inline(__always)
    mutating func append(_ piece: String) {
        if holdsBytes {
            bytes.append(contentsOf: piece.utf8)
        } else {
            textString.append(piece)
        }
    }

    /// Appends bytes; `isReaderText` when they are the HTML reader's text, valid UTF-8 by
    /// its construction, and otherwise they are checked (and repaired) when the block ends.
    @inline(__always)
    mutating func append(_ piece: Span<UInt8>, isReaderText: Bool) {
        if !holdsBytes { switchToBytes() }
        if !isReaderText { bytesAreReaderText = false }
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

    mutating func reserveBytes(_ count: Int) {
        bytes.reserveCapacity(count)
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
        guard holdsBytes else { return textString }
        return bytesAreReaderText ? String(htmlReaderText: bytes) : String(decoding: bytes, as: UTF8.self)
    }

    /// Empties the text, keeping the byte storage for the next block.
    @inline(__always)
    mutating func removeAll() {
        if holdsBytes {
            bytes.removeAll(keepingCapacity: true)
            holdsBytes = false
            bytesAreReaderText = true
        } else {
            textString = ""
        }
    }
}

extension String {
    /// The HTML reader's text as a string, without the standard library checking it again: the
    /// one unchecked construction left in the package (README, Contributing). The reader takes
    /// its text from input that `HTMLInput` validated (or repaired) whole, cuts it only at ASCII
    /// bytes (`<`, `&`, NUL, whitespace), and encodes what it adds itself (references, U+FFFD for
    /// NUL) from scalars. The standard library's check costs about ten instructions a byte of
    /// mixed-script text. In millions of instructions (checked -> this), on the real article of
    /// `--input ../shared/data/samples/article-ru.html`: html-read 190.1 -> 170.2 (+11.7%),
    /// html-to-text 218.5 -> 198.5 (+10.1%), html-to-json 231.2 -> 211.2 (+9.5%); on `prose`,
    /// html-read 203.8 -> 187.2 (+8.9%). `HTMLReaderTextTests` holds it to
    /// `String(decoding:as:)` over random valid UTF-8 of every length and kind of scalar; debug
    /// builds (every test and fuzz run) check the promise on every call.
    init(htmlReaderText bytes: [UInt8]) {
        assert((try? UTF8Span(validating: bytes.span)) != nil, "the HTML reader's text is not UTF-8")
        // Below sixteen bytes the standard library makes a small string, with a quick check
        // for ASCII: checking costs next to nothing there.
        guard bytes.count >= 16 else {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        self = String(copying: unsafe UTF8Span(unchecked: bytes.span))
    }
}
