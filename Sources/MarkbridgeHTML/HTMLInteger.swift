/// HTML's rules for parsing integers (WHATWG HTML, 2.3.4.1), as browsers read `start` and
/// `value`: leading ASCII whitespace skipped, an optional `-` or `+`, then digits, with
/// whatever follows them ignored (`"3abc"` is 3). Values past `Int`'s range saturate at its
/// bounds instead of overflowing, so any number of digits is read in one pass and never traps.
enum HTMLInteger {
    /// An attribute's integer with the digits it was written with, for messages about it.
    struct Literal {
        var value: Int
        /// The sign and digits as written (saturated values are shown as the input has them).
        var text: String

        init?(_ attribute: String) {
            guard let value = HTMLInteger.parse(attribute) else { return nil }
            self.value = value
            let trimmed = attribute.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
            let sign = trimmed.first.map { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") } ?? false
            let digits = trimmed.dropFirst(sign ? 1 : 0).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            text = String(decoding: trimmed.prefix(digits.count + (sign ? 1 : 0)), as: UTF8.self)
        }
    }

    static func parse(_ text: String) -> Int? {
        var bytes = text.utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0C || first == 0x0D {
            bytes.removeFirst()
        }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        var value = 0
        var digits = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
            let digit = Int(byte - UInt8(ascii: "0"))
            digits += 1
            // Accumulated as a negative number, whose range is one larger, then saturated.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 {
                value = Int.min
            } else {
                value = next
            }
        }
        guard digits > 0 else { return nil }
        if negative { return value }
        return value == Int.min ? Int.max : -value
    }
}
