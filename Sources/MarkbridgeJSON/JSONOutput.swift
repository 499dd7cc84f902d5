@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// A growing UTF-8 buffer with the few primitives a JSON writer needs, escaping strings per
/// RFC 8259 and I-JSON: quotes, backslashes and C0 controls escaped; U+2028 and U+2029 escaped so
/// the output is also valid JavaScript; noncharacters escaped; everything else written raw.
struct JSONOutput: ~Copyable {
    /// Pieces are written to `buffer`, which builds the output in place: cheap small writes,
    /// and long text copied once.
    private var buffer: ByteBuffer

    init(capacity: Int) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// The bytes written; the output is done with after this.
    consuming func finish() -> [UInt8] {
        buffer.finish()
    }

    mutating func raw(_ text: StaticString) {
        buffer.append(text)
    }

    mutating func raw(_ bytes: [UInt8]) {
        buffer.append(bytes)
    }

    mutating func byte(_ value: UInt8) {
        buffer.append(value)
    }

    mutating func integer(_ value: Int) {
        if value >= 0 && value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        // Digits from the end of a small inline buffer, then one append: no reversing in place.
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var magnitude = value.magnitude
        var start = digits.count
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        buffer.append(digits.span.extracting(start...))
    }

    /// A color in its canonical `#RRGGBB[AA]` spelling, quoted.
    mutating func color(_ color: CSSColor) {
        buffer.append(UInt8(ascii: "\""))
        var hex = InlineArray<9, UInt8>(repeating: 0)
        var output = hex.mutableSpan
        let length = color.writeHex(into: &output)
        buffer.append(hex.span.extracting(..<length))
        buffer.append(UInt8(ascii: "\""))
    }

    /// A string known to need no escaping (names from a fixed vocabulary).
    mutating func plainString(_ text: StaticString) {
        buffer.append(UInt8(ascii: "\""))
        raw(text)
        buffer.append(UInt8(ascii: "\""))
    }

    /// The same for a name held in a `String` (an enum's raw value).
    mutating func plainString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        buffer.append(text.utf8.span)
        buffer.append(UInt8(ascii: "\""))
    }

    mutating func string(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        do {
            let utf8 = text.utf8.span
            var runStart = 0
            var index = 0
            let count = utf8.count
            // Only controls, the quote, the backslash, and the lead bytes C2 (C1 controls), E2,
            // EF and F0-FF (with which U+2028, U+2029 and the noncharacters begin) can need
            // escaping: the scan skips everything else, CJK text (led by E3-E9) included,
            // sixteen bytes at a time.
            typealias Block = SIMD16<UInt8>
            let space = Block(repeating: 0x20), quote = Block(repeating: 0x22), backslash = Block(repeating: 0x5C)
            let xC2 = Block(repeating: 0xC2), xE2 = Block(repeating: 0xE2), xEF = Block(repeating: 0xEF), xF0 = Block(repeating: 0xF0)
            while let next = ByteScan.firstIndex(in: utf8, from: index, whereBlock: { block in
                (block .< space) .| (block .== quote) .| (block .== backslash) .| (block .== xC2) .| (block .== xE2) .| (block .== xEF) .| (block .>= xF0)
            }, whereByte: { byte in
                byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xC2 || byte == 0xE2 || byte == 0xEF || byte >= 0xF0
            }) {
                let byte = utf8[next]
                let (escapeLength, scalar) = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? (1, UInt32(byte)) : Self.specialSequence(utf8, at: next)
                guard escapeLength > 0 else {
                    index = next + 1
                    continue
                }
                if runStart < next { buffer.append(utf8.extracting(runStart..<next)) }
                escape(scalar)
                index = next + escapeLength
                runStart = index
            }
            if runStart < count { buffer.append(utf8.extracting(runStart..<count)) }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Recognises C1 controls (U+0080-U+009F, which would reach a terminal that prints the
    /// JSON raw, HOSTILE-INPUTS E8), U+2028, U+2029 and noncharacters at `index`; returns their
    /// length and scalar, or a length of 0 for anything else.
    @inline(__always)
    private static func specialSequence(_ utf8: Span<UInt8>, at index: Int) -> (Int, UInt32) {
        let byte = utf8[index]
        if byte == 0xC2 {
            guard index + 1 < utf8.count, utf8[index + 1] <= 0x9F else { return (0, 0) }
            return (2, UInt32(utf8[index + 1]))
        }
        if byte == 0xE2 || byte == 0xEF {
            guard index + 2 < utf8.count else { return (0, 0) }
            let scalar = UInt32(byte & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
            if scalar == 0x2028 || scalar == 0x2029 || (0xFDD0...0xFDEF).contains(scalar) || scalar & 0xFFFE == 0xFFFE {
                return (3, scalar)
            }
        } else if byte >= 0xF0 && byte <= 0xF4 {
            guard index + 3 < utf8.count else { return (0, 0) }
            let scalar = UInt32(byte & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
            if scalar & 0xFFFE == 0xFFFE { return (4, scalar) }
        }
        return (0, 0)
    }

    private mutating func escape(_ scalar: UInt32) {
        switch scalar {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x10000...:
            let value = scalar - 0x10000
            unicodeEscape(UInt16(0xD800 + (value >> 10)))
            unicodeEscape(UInt16(0xDC00 + (value & 0x3FF)))
        default:
            unicodeEscape(UInt16(scalar))
        }
    }

    private mutating func unicodeEscape(_ unit: UInt16) {
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: unit >> UInt16(shift)) & 0xF
            buffer.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}
