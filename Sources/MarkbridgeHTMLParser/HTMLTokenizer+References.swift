/// Character references (HTML standard 13.2.5.72-80), consumed after the `&` by one function
/// instead of states of their own: the result is the same, the code is shorter.
extension HTMLTokenizer {
    /// Consumes a character reference; `position` is just past the `&`. Appends its characters
    /// (or the literal text, when it is not one) to the attribute value or the characters.
    mutating func consumeCharacterReference(inAttribute: Bool) {
        let c = current
        if Self.isAlphanumeric(c) {
            namedReference(inAttribute: inAttribute)
        } else if c == 0x23 {
            numericReference(inAttribute: inAttribute)
        } else {
            flush([0x26], inAttribute: inAttribute)
        }
    }

    private mutating func flush(_ bytes: some Collection<UInt8>, inAttribute: Bool) {
        if inAttribute { appendToAttributeValue(bytes) } else { emitCharacters(bytes) }
    }

    /// The longest name in the table that the input starts with; legacy names match without `;`.
    private mutating func namedReference(inAttribute: Bool) {
        let table = NamedCharacterReferences.shared
        var end = position
        while end < input.count, end - position < table.longestName, Self.isAlphanumeric(Int(input[end])) { end += 1 }
        if end < input.count, input[end] == 0x3B, end - position < table.longestName { end += 1 }
        var length = end - position
        while length > 0 {
            if let value = table.lookup(input[position..<position + length]) {
                let matchedSemicolon = input[position + length - 1] == 0x3B
                let next = position + length < input.count ? Int(input[position + length]) : -1
                if inAttribute && !matchedSemicolon && (next == 0x3D || Self.isAlphanumeric(next)) {
                    // Historical: `&amp=` and `&ampx` in attribute values stay as written.
                    flush([0x26], inAttribute: true)
                    flush(input[position..<position + length], inAttribute: true)
                } else {
                    flush(value, inAttribute: inAttribute)
                }
                position += length
                return
            }
            length -= 1
        }
        // Not a reference: the ampersand and what follows are text (the ambiguous ampersand state).
        flush([0x26], inAttribute: inAttribute)
    }

    private mutating func numericReference(inAttribute: Bool) {
        let start = position
        position += 1
        var isHex = false
        if current == 0x78 || current == 0x58 {
            isHex = true
            position += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while true {
            let c = current
            let digit: UInt32
            if Self.isDigit(c) {
                digit = UInt32(c - 0x30)
            } else if isHex, (0x61...0x66).contains(c | 0x20) {
                digit = UInt32((c | 0x20) - 0x61 + 10)
            } else {
                break
            }
            // Saturate past the largest code point: no overflow however many digits.
            value = min(value &* (isHex ? 16 : 10) &+ digit, 0x110000)
            digits += 1
            position += 1
        }
        guard digits > 0 else {
            // `&#` or `&#x` with no digits: not a reference, all of it is text.
            position = start
            flush([0x26], inAttribute: inAttribute)
            return
        }
        if current == 0x3B { position += 1 }
        flush(Self.utf8(of: Self.numericReferenceValue(value)), inAttribute: inAttribute)
    }

    /// The numeric character reference end state: NUL, out-of-range and surrogates become
    /// U+FFFD; C1 controls are read as Windows-1252, as browsers always have.
    static func numericReferenceValue(_ value: UInt32) -> UInt32 {
        if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return 0xFFFD }
        if (0x80...0x9F).contains(value), let replacement = windows1252[value] { return replacement }
        return value
    }

    private static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    static func utf8(of value: UInt32) -> [UInt8] {
        guard let scalar = Unicode.Scalar(value) else { return replacementCharacter }
        return Array(String(Character(scalar)).utf8)
    }
}

/// The named character reference table, parsed once from the generated source on first use.
final class NamedCharacterReferences: Sendable {
    static let shared = NamedCharacterReferences()

    /// Names of up to 16 bytes (all but a few dozen), packed into two words: looking one up
    /// hashes two integers and makes no array.
    private let shortValues: [PackedName: [UInt8]]
    private let longValues: [[UInt8]: [UInt8]]

    private struct PackedName: Hashable {
        var first: UInt64
        var second: UInt64

        init?(_ bytes: some Collection<UInt8>) {
            guard bytes.count <= 16 else { return nil }
            first = 0
            second = 0
            for (offset, byte) in bytes.enumerated() {
                if offset < 8 { first |= UInt64(byte) << UInt64(offset * 8) } else { second |= UInt64(byte) << UInt64((offset - 8) * 8) }
            }
        }
    }
    let longestName: Int

    private init() {
        var shortValues: [PackedName: [UInt8]] = [:]
        shortValues.reserveCapacity(2_240)
        var longValues: [[UInt8]: [UInt8]] = [:]
        var longest = 0
        // Split over UTF-8 bytes: splitting the string by `Character` costs ten times as much,
        // and this runs when a process first meets a reference.
        let source = Array(NamedCharacterReferenceTable.source.utf8)
        for line in source.split(separator: 0x0A) {
            let parts = line.split(separator: 0x20)
            guard parts.count == 2 else { continue }
            let name = Array(parts[0])
            var bytes: [UInt8] = []
            for hex in parts[1].split(separator: 0x2C) {
                var value: UInt32 = 0
                for digit in hex {
                    let nibble: UInt8 = digit <= 0x39 ? digit &- 0x30 : (digit | 0x20) &- 0x57
                    value = value << 4 | UInt32(nibble & 0xF)
                }
                bytes += HTMLTokenizer.utf8(of: value)
            }
            if let packed = PackedName(name) { shortValues[packed] = bytes } else { longValues[name] = bytes }
            longest = max(longest, name.count)
        }
        self.shortValues = shortValues
        self.longValues = longValues
        self.longestName = longest
    }

    func lookup(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        if let packed = PackedName(name) { return shortValues[packed] }
        return longValues[Array(name)]
    }

    var count: Int { shortValues.count + longValues.count }
}
