@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The parser's input after the HTML standard's input-stream preprocessing: UTF-8 checked (or
/// repaired, if asked), a leading byte-order mark dropped, CR LF and lone CR turned into LF.
///
/// Offsets inside the parser count bytes of this normalised buffer; ``originalOffset(of:)``
/// maps them back to the caller's bytes for diagnostics.
struct HTMLInput {
    /// The normalised bytes: valid UTF-8 with no CR.
    let bytes: [UInt8]
    /// How many invalid UTF-8 sequences were replaced with U+FFFD (lossy mode only).
    let replacementCount: Int
    /// Where in the caller's bytes the first replaced sequence was.
    let firstReplacementOffset: Int?
    /// Points where normalised and original offsets start to differ, in order: from
    /// `normalized` on, original = `original` + (offset − `normalized`).
    private let anchors: [(normalized: Int, original: Int)]

    enum Failure: Error {
        case invalidUTF8(byteOffset: Int)
    }

    /// `inputIsCheckedUTF8`: the caller checked `raw` is valid UTF-8, so only a CR sends it to
    /// the copy that normalises line ends (which checks each sequence it copies all the same).
    init(_ raw: [UInt8], repairingInvalidUTF8: Bool, dropsByteOrderMark: Bool = true, inputIsCheckedUTF8: Bool = false) throws(Failure) {
        var start = 0
        if dropsByteOrderMark, raw.count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF { start = 3 }
        var anchors: [(normalized: Int, original: Int)] = start == 0 ? [] : [(0, start)]
        // Fast path: the common input is valid UTF-8 without CR, and is used as it is.
        if let firstIssue = Self.firstIssue(in: raw, from: start, inputIsCheckedUTF8: inputIsCheckedUTF8) {
            var out: [UInt8] = []
            out.reserveCapacity(raw.count)
            out.append(contentsOf: raw[start..<firstIssue])
            var index = firstIssue
            var replacements = 0
            var firstReplacement: Int?
            while index < raw.count {
                let byte = raw[index]
                if byte == 0x0D {
                    out.append(0x0A)
                    index += 1
                    if index < raw.count, raw[index] == 0x0A {
                        index += 1
                        anchors.append((out.count, index))
                    }
                } else if byte < 0x80 {
                    out.append(byte)
                    index += 1
                } else {
                    let length = UTF8Validation.sequenceLength(raw, at: index)
                    if length > 0 {
                        out.append(contentsOf: raw[index..<index + length])
                        index += length
                    } else {
                        guard repairingInvalidUTF8 else { throw .invalidUTF8(byteOffset: index) }
                        // Unicode's "maximal subpart" practice: one U+FFFD per maximal invalid prefix.
                        let bad = max(1, UTF8Validation.maximalSubpartLength(raw, at: index))
                        if firstReplacement == nil { firstReplacement = index }
                        out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                        index += bad
                        replacements += 1
                        anchors.append((out.count, index))
                    }
                }
            }
            bytes = out
            replacementCount = replacements
            firstReplacementOffset = firstReplacement
        } else {
            bytes = start == 0 ? raw : Array(raw[start...])
            replacementCount = 0
            firstReplacementOffset = nil
        }
        self.anchors = anchors
    }

    /// The first CR or non-ASCII byte that is not part of valid UTF-8, or nil if there is none;
    /// only the first CR when the caller checked the input already.
    private static func firstIssue(in raw: [UInt8], from start: Int, inputIsCheckedUTF8: Bool) -> Int? {
        inputIsCheckedUTF8 ? ByteScan.firstIndex(of: 0x0D, in: raw.span, from: start)
            : UTF8Validation.firstInvalidOffset(raw.span, from: start, orByte: 0x0D)
    }

    /// The offset in the caller's bytes of a normalised offset.
    func originalOffset(of offset: Int) -> Int {
        var low = 0
        var high = anchors.count
        while low < high {
            let middle = (low + high) / 2
            if anchors[middle].normalized <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return offset }
        let anchor = anchors[low - 1]
        return anchor.original + (offset - anchor.normalized)
    }
}
