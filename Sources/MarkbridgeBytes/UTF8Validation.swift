/// UTF-8 well-formedness per Unicode 15, table 3-7 (no overlongs, no surrogates, nothing past
/// U+10FFFF), shared by every reader that must refuse bad input with the offset of the first bad
/// byte, or repair it one maximal subpart at a time, rather than repair it silently.
@_spi(MarkbridgeBytes) public enum UTF8Validation {
    /// For a lead byte of a multi-byte sequence: its length and the range its second byte must
    /// fall in (table 3-7 narrows it after E0, ED, F0 and F4); nil for a byte that leads nothing.
    @inlinable public static func lead(_ byte: UInt8) -> (length: Int, lower: UInt8, upper: UInt8)? {
        switch byte {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: nil
        }
    }

    /// The length of the valid sequence at `index`, or 0 if the bytes there are not one.
    @inlinable public static func sequenceLength(_ bytes: Span<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 { return 1 }
        guard let (length, lower, upper) = lead(byte) else { return 0 }
        guard index + length <= bytes.count else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    @inlinable public static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        sequenceLength(bytes.span, at: index)
    }

    /// How many bytes at `index` form the maximal prefix of a valid sequence (at least 1): the
    /// unit one U+FFFD replaces, in Unicode's recommended practice.
    @inlinable public static func maximalSubpartLength(_ bytes: [UInt8], at index: Int) -> Int {
        guard let (length, lower, upper) = lead(bytes[index]) else { return 1 }
        var consumed = 1
        while consumed < length, index + consumed < bytes.count {
            let byte = bytes[index + consumed]
            let (low, high) = consumed == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else { break }
            consumed += 1
        }
        return consumed
    }

    /// The offset of the first byte that does not begin a valid sequence, or nil.
    @inlinable public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        firstInvalidOffset(bytes.span)
    }

    /// The offset of the first byte from `start` (a sequence boundary) that does not begin a
    /// valid sequence or is the ASCII byte `excluded` (the HTML reader stops at CR), or nil.
    @inlinable public static func firstInvalidOffset(_ buffer: Span<UInt8>, from start: Int = 0, orByte excluded: UInt8? = nil) -> Int? {
        var index = start
        while index < buffer.count {
            index = skipBlocksOfShortSequences(buffer, from: index, excluding: excluded)
            // Byte by byte for at least a block after the blocks stopped (a four-byte sequence,
            // say, or the end).
            let resume = index + 16
            while index < buffer.count && index < resume {
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == excluded { return index }
                    index += 1
                    continue
                }
                // The commonest three-byte sequences inline: leads E1-EC (most of CJK), whose
                // second byte has no narrower range than any continuation byte.
                if byte >= 0xE1 && byte <= 0xEC && index + 2 < buffer.count
                    && buffer[index + 1] & 0xC0 == 0x80 && buffer[index + 2] & 0xC0 == 0x80 {
                    index += 3
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 { return index }
                index += length
            }
        }
        return nil
    }

    /// From `start` (a sequence boundary), skips whole blocks of sixteen bytes that are valid
    /// UTF-8 of one-, two- and three-byte sequences (which may straddle blocks) and hold no
    /// `excluded` (an ASCII byte). Returns the sequence boundary where it stopped: before the
    /// first block that has anything else (a four-byte sequence, an invalid byte), or near the
    /// end. Text in Latin, Cyrillic or CJK script is almost all such blocks, so checking it costs
    /// about two instructions per byte instead of a branch per byte or per sequence.
    ///
    /// Each byte is checked against the two before it, read as two more blocks one and two
    /// bytes back: a byte must be a continuation exactly when the byte before it leads a
    /// sequence, or the one two back leads a three-byte one (table 3-7's rows, with E0 and ED's
    /// narrower second bytes, C0 and C1 refused, F0 and up left to the caller).
    @inlinable public static func skipBlocksOfShortSequences(_ buffer: Span<UInt8>, from start: Int, excluding excluded: UInt8? = nil) -> Int {
        // The blocks one and two bytes back cannot be read before the third byte.
        guard start >= 2 else { return start }
        // Comparisons between two vectors only: with a scalar operand, the standard library's
        // generic operators compare one lane at a time.
        typealias Block = SIMD16<UInt8>
        // Without an excluded byte, 0xFF stands in: it is never valid, so matching it stops
        // where the check below would have stopped anyway, and one test covers both.
        let excludedBytes = Block(repeating: excluded ?? 0xFF)
        let x80 = Block(repeating: 0x80), x9F = Block(repeating: 0x9F), xA0 = Block(repeating: 0xA0)
        let xC0 = Block(repeating: 0xC0), xE0 = Block(repeating: 0xE0), xED = Block(repeating: 0xED)
        let xF0 = Block(repeating: 0xF0), xFE = Block(repeating: 0xFE)
        var index = start
        // Bytes at the end of the last block taken that begin a sequence still open: 0, 1 or 2.
        var openBytes = 0
        while index + 16 <= buffer.count {
            // The eighteen bytes from two back, taken once: the block and the two before it are
            // then loaded from a span of known length, and need no check of their own.
            let window = buffer.extracting((index - 2)..<(index + 16))
            let block = ByteScan.loadBlock(window, at: 2)
            let isExcluded = block .== excludedBytes
            // Plain ASCII after a closed sequence, the commonest block, needs no more.
            if openBytes == 0 && !ByteScan.anyLane((block .>= x80) .| isExcluded) {
                index += 16
                continue
            }
            var previous = ByteScan.loadBlock(window, at: 1)
            var beforePrevious = ByteScan.loadBlock(window, at: 0)
            if index == start {
                // Bytes before `start` lead nothing here, whatever they are: a caller may resume
                // after replacing an invalid lead.
                previous[0] = 0
                beforePrevious[0] = 0
                beforePrevious[1] = 0
            }
            let isContinuation = (block & xC0) .== x80
            let mustContinue = (previous .>= xC0) .| (beforePrevious .>= xE0)
            let bad = isExcluded
                .| (isContinuation .^ mustContinue)
                .| (block .>= xF0)
                .| ((block & xFE) .== xC0)
                .| ((previous .== xE0) .& (block .< xA0))
                .| ((previous .== xED) .& (block .> x9F))
            if ByteScan.anyLane(bad) { break }
            openBytes = block[15] >= 0xC0 ? 1 : block[14] >= 0xE0 ? 2 : 0
            index += 16
        }
        return index - openBytes
    }
}

extension String {
    /// `bytes` as a string, checked by the standard library, which repairs an invalid sequence
    /// with U+FFFD (Unicode's maximal subparts), as `String(decoding:as:)` does. Every string
    /// this package makes from bytes is made here or through `UTF8Span(validating:)`: the
    /// standard library's check is the only one that can vouch for a `String`, so no reader's
    /// own reasoning about its input is trusted for it, however sound (``UTF8Validation`` finds
    /// where input goes wrong; it does not make strings).
    @_spi(MarkbridgeBytes) public init(checkingUTF8 bytes: [UInt8]) {
        self = String(decoding: bytes, as: UTF8.self)
    }

    @_spi(MarkbridgeBytes) public init(checkingUTF8 bytes: ArraySlice<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}
