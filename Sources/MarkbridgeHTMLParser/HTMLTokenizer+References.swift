/// Character references (HTML standard 13.2.5.72-80), consumed after the `&` by one function
/// instead of states of their own: the result is the same, the code is shorter.
extension HTMLTokenizer {
    /// Consumes a character reference; `position` is just past the `&`. Appends its characters
    /// (or the literal text, when it is not one) to the attribute value or the characters.
    mutating func consumeCharacterReference(inAttribute: Bool) {
        let c = current
        if Self.isAlphanumeric(c) {
            namedReference(inAttribute: inAttribute)
        } else if c == UInt8(ascii: "#") {
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
        if end < input.count, input[end] == UInt8(ascii: ";"), end - position < table.longestName { end += 1 }
        var length = end - position
        while length > 0 {
            if let value = table.lookup(input[position..<position + length]) {
                let matchedSemicolon = input[position + length - 1] == UInt8(ascii: ";")
                let next = position + length < input.count ? Int(input[position + length]) : -1
                if inAttribute && !matchedSemicolon && (next == UInt8(ascii: "=") || Self.isAlphanumeric(next)) {
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
        if current == UInt8(ascii: "x") || current == UInt8(ascii: "X") {
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
        if current == UInt8(ascii: ";") { position += 1 }
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
        var bytes: [UInt8] = []
        appendUTF8(of: value, to: &bytes)
        return bytes
    }

    /// Appends the UTF-8 encoding of a code point; a surrogate or a value past U+10FFFF
    /// becomes U+FFFD.
    static func appendUTF8(of value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0xD800...0xDFFF, 0x110000...:
            bytes.append(contentsOf: replacementCharacter)
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

/// The named character reference table, built once from the generated source on first use.
///
/// An open-addressing hash table over names packed into four words (every name is at most 32
/// ASCII bytes, none of them zero, so an all-zero key marks a free slot). A lookup hashes four
/// integers with two multiplies and compares one key; `Dictionary` hashed with SipHash and cost
/// several times as much. All values sit in one byte array, so building the table makes no
/// array per entry and a process pays little for its first reference.
final class NamedCharacterReferences: Sendable {
    static let shared = NamedCharacterReferences()

    private static let wordsPerKey = 4
    private static let slotBits = 12

    private let keys: [UInt64]
    /// Per slot: the value's offset in `valueBytes` shifted left by 8, or'd with its length.
    private let values: [UInt32]
    private let valueBytes: [UInt8]
    let longestName: Int
    let count: Int

    private init() {
        let slotCount = 1 << Self.slotBits
        var keys = [UInt64](repeating: 0, count: slotCount * Self.wordsPerKey)
        var values = [UInt32](repeating: 0, count: slotCount)
        var valueBytes: [UInt8] = []
        valueBytes.reserveCapacity(12_000)
        var longest = 0
        var count = 0
        // One pass over the source's bytes: `name codepoint[,codepoint]` a line, hex code points.
        let source = NamedCharacterReferenceTable.source.utf8
        var key = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var nameLength = 0
        var inName = true
        var value: UInt32 = 0
        var valueStart = 0
        func finishCodePoint() {
            HTMLTokenizer.appendUTF8(of: value, to: &valueBytes)
            value = 0
        }
        // The source's last line has no newline of its own: one is added here.
        for byte in source + [0x0A] {
            switch byte {
            case 0x20 where inName && nameLength > 0:
                inName = false
                valueStart = valueBytes.count
            case 0x20:
                continue
            case 0x0A:
                if !inName {
                    finishCodePoint()
                    let slot = Self.freeSlot(for: key, in: keys)
                    Self.store(key, at: slot, in: &keys)
                    values[slot] = UInt32(valueStart) << 8 | UInt32(valueBytes.count - valueStart)
                    longest = max(longest, nameLength)
                    count += 1
                }
                key = (0, 0, 0, 0)
                nameLength = 0
                inName = true
            case 0x2C where !inName:
                finishCodePoint()
            default:
                if inName {
                    Self.pack(byte, at: nameLength, into: &key)
                    nameLength += 1
                } else {
                    let nibble: UInt8 = byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : (byte | 0x20) &- (UInt8(ascii: "a") - 10)
                    value = value << 4 | UInt32(nibble & 0xF)
                }
            }
        }
        precondition(longest <= Self.wordsPerKey * 8, "a named reference longer than the packed key")
        // A lookup stops at a free slot, so one at least must stay free.
        precondition(count < 1 << Self.slotBits, "the named reference table has no free slot")
        self.keys = keys
        self.values = values
        self.valueBytes = valueBytes
        self.longestName = longest
        self.count = count
    }

    @inline(__always)
    private static func pack(_ byte: UInt8, at offset: Int, into key: inout (UInt64, UInt64, UInt64, UInt64)) {
        let shifted = UInt64(byte) << UInt64((offset & 7) * 8)
        switch offset >> 3 {
        case 0: key.0 |= shifted
        case 1: key.1 |= shifted
        case 2: key.2 |= shifted
        default: key.3 |= shifted
        }
    }

    @inline(__always)
    private static func slot(of key: (UInt64, UInt64, UInt64, UInt64)) -> Int {
        var hash = key.0 &* 0x9E37_79B9_7F4A_7C15
        hash ^= key.1 &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= key.2 &* 0x1656_67B1_9E37_79F9
        hash ^= key.3 &* 0x27D4_EB2F_1656_67C5
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
    }

    @inline(__always)
    private static func matches(_ key: (UInt64, UInt64, UInt64, UInt64), at slot: Int, in keys: [UInt64]) -> Bool {
        let base = slot * wordsPerKey
        return keys[base] == key.0 && keys[base + 1] == key.1 && keys[base + 2] == key.2 && keys[base + 3] == key.3
    }

    private static func freeSlot(for key: (UInt64, UInt64, UInt64, UInt64), in keys: [UInt64]) -> Int {
        var slot = slot(of: key)
        var probes = 0
        while keys[slot * wordsPerKey] != 0 {
            // The table is a constant; a full one is a mistake in it, not in anyone's input.
            probes += 1
            precondition(probes < 1 << slotBits, "the named reference table has more entries than slots")
            precondition(!matches(key, at: slot, in: keys), "a named reference listed twice")
            slot = (slot + 1) & ((1 << slotBits) - 1)
        }
        return slot
    }

    private static func store(_ key: (UInt64, UInt64, UInt64, UInt64), at slot: Int, in keys: inout [UInt64]) {
        let base = slot * wordsPerKey
        keys[base] = key.0
        keys[base + 1] = key.1
        keys[base + 2] = key.2
        keys[base + 3] = key.3
    }

    /// The characters of the reference named exactly `name` (with its `;`, if it has one).
    func lookup(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard !name.isEmpty, name.count <= Self.wordsPerKey * 8 else { return nil }
        var key = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var offset = 0
        for byte in name {
            if byte == 0 { return nil }
            Self.pack(byte, at: offset, into: &key)
            offset += 1
        }
        var slot = Self.slot(of: key)
        while keys[slot * Self.wordsPerKey] != 0 {
            if Self.matches(key, at: slot, in: keys) {
                let entry = values[slot]
                let start = Int(entry >> 8)
                return valueBytes[start..<start + Int(entry & 0xFF)]
            }
            slot = (slot + 1) & ((1 << Self.slotBits) - 1)
        }
        return nil
    }
}

/// What a numeric character reference reads as, for the writers that write one: a C1 control's
/// reads as its Windows-1252 character, except for the five that table leaves out.
package enum HTMLNumericReference {
    package static func readsAs(_ value: UInt32) -> UInt32 {
        HTMLTokenizer.numericReferenceValue(value)
    }
}
