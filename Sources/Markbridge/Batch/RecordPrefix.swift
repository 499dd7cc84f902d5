import Foundation

/// What a dead letter keeps of a record over `--max-record-bytes`: its first bytes, cut back to
/// a character boundary, and its id when those bytes show it. Made from the record's bytes
/// alone, so the dead letter is the same wherever the record falls among the input's pieces.
package struct RecordPrefix {
    /// How much of an oversized record a dead letter keeps.
    package static let keptBytes = 1024

    /// The kept bytes: at most `keptBytes`, never ending inside a UTF-8 character (a cut before
    /// a continuation byte moves back to the character's first byte), so valid text stays a string.
    package let bytes: [UInt8]
    /// The id field's value as written, when the kept bytes hold it whole and once.
    package let id: [UInt8]?

    package init(_ line: ArraySlice<UInt8>, idField: String) {
        var end = min(line.count, Self.keptBytes)
        if end < line.count {
            var back = 0
            while back < 3, end - back > 0, line[line.startIndex + end - back] & 0xC0 == 0x80 { back += 1 }
            if line[line.startIndex + end - back] & 0xC0 != 0x80 { end -= back }
        }
        bytes = Array(line.prefix(end))
        id = Self.scanID(bytes, field: idField)
    }

    /// The value of the top-level key `field`, read leniently from the start of a record that may
    /// be cut anywhere: only a whole scalar value counts, and nothing when the key comes twice.
    package static func scanID(_ bytes: [UInt8], field: String) -> [UInt8]? {
        var index = 0
        func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 } }
        /// Past a string starting at `index` (a quote); false when it does not end in the bytes.
        func skipString() -> Bool {
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): index += 1; return true
                default: index += 1
                }
            }
            return false
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var found: [UInt8]?
        var seen = false
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
            let keyStart = index
            guard skipString() else { break }
            let key = decode(bytes[keyStart..<index]) as? String
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { break }
            index += 1
            skipSpace()
            guard index < bytes.count else { break }
            let valueStart = index
            var isScalar = true
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard skipString() else { return key == field ? nil : found }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                isScalar = false
                var depth = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") { guard skipString() else { break }; continue }
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
                    index += 1
                    if depth == 0 { break }
                }
                if depth != 0 { return key == field ? nil : found }
            default:
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
                // A number at the very end may be cut short: it is not known whole.
                if index == bytes.count { return key == field ? nil : found }
            }
            if key == field {
                if seen { return nil }
                seen = true
                let value = Array(bytes[valueStart..<index])
                if isScalar, decode(value[...]) != nil { found = value }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index += 1
        }
        return found
    }

    /// A JSON value read on its own; nil unless it is valid JSON. Foundation's parser takes a NUL
    /// byte for the end of the text (`4` NUL reads as 4), and JSON text never holds one raw, so a
    /// value with one is refused first: written raw into a dead letter, it would make that line no JSON.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> Any? {
        guard !bytes.contains(0) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
    }
}
