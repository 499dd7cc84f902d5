@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// A tolerant parser for the declarations of a `style` attribute (`color: red; font-weight:
/// bold`): one pass over the bytes, no regular expressions, so it is linear on any input.
/// Semicolons inside parentheses or quotes do not split; a declaration without a colon, or
/// with an empty name, is skipped; `!important` is dropped; names are lower-cased.
enum CSSDeclarations {
    struct Declaration: Hashable, Sendable {
        var property: String
        var value: String
    }

    static func parse(_ style: String) -> [Declaration] {
        var declarations: [Declaration] = []
        var current: [UInt8] = []
        var depth = 0
        var quote: UInt8?
        for byte in style.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ";") && depth == 0 {
                if let declaration = declaration(current) { declarations.append(declaration) }
                current.removeAll(keepingCapacity: true)
                continue
            }
            current.append(byte)
        }
        if let declaration = declaration(current) { declarations.append(declaration) }
        return declarations
    }

    private static func declaration(_ bytes: [UInt8]) -> Declaration? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let property = trimmed(bytes[..<colon]).asciiLowercased()
        guard !property.isEmpty else { return nil }
        var valueBytes = bytes[(colon + 1)...]
        if let bang = valueBytes.lastIndex(of: UInt8(ascii: "!")),
           trimmed(valueBytes[(bang + 1)...]).asciiLowercased() == "important" {
            valueBytes = valueBytes[..<bang]
        }
        return Declaration(property: property, value: trimmed(valueBytes))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingASCIIWhitespace()
    }
}

extension String {
    /// Without leading and trailing ASCII whitespace (space, tab, LF, FF, CR).
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == 0 && last == bytes.count - 1 { return self }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
