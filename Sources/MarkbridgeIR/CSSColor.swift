/// A color as markup JSON carries it: `#RRGGBB`, or `#RRGGBBAA` when not fully opaque.
///
/// Stored in canonical spelling (upper-case hex, no alpha when the alpha is `FF`) so that equal
/// colors compare equal and adjacent runs of one color merge.
public struct CSSColor: Hashable, Sendable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8
    public let alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA`, hex digits in either case; nil for anything else.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        var values: [UInt8] = []
        var index = 1
        while index < bytes.count {
            guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else {
                return nil
            }
            values.append(high << 4 | low)
            index += 2
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    /// The canonical spelling.
    public var hex: String {
        // At most nine ASCII characters: a small string, stored inline.
        var text = "#"
        func put(_ value: UInt8) {
            text.unicodeScalars.append(Unicode.Scalar(Self.hexDigit(value >> 4)))
            text.unicodeScalars.append(Unicode.Scalar(Self.hexDigit(value & 0xF)))
        }
        put(red)
        put(green)
        put(blue)
        if alpha != 255 { put(alpha) }
        return text
    }

    /// Writes the canonical spelling at the start of `buffer` (at least 9 bytes); returns its
    /// length.
    package func writeHex(into buffer: inout MutableSpan<UInt8>) -> Int {
        buffer[0] = UInt8(ascii: "#")
        func put(_ value: UInt8, at index: Int) {
            buffer[index] = Self.hexDigit(value >> 4)
            buffer[index + 1] = Self.hexDigit(value & 0xF)
        }
        put(red, at: 1)
        put(green, at: 3)
        put(blue, at: 5)
        guard alpha != 255 else { return 7 }
        put(alpha, at: 7)
        return 9
    }

    /// The upper-case hex digit for `value` (below 16).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension CSSColor: CustomStringConvertible {
    public var description: String { hex }
}
