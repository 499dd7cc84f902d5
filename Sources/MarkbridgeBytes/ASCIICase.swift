extension String {
    /// The string with ASCII letters in lower case and every other character as it is: how HTML
    /// and CSS compare names and keywords ("ASCII case-insensitive"). `lowercased()` maps by
    /// Unicode instead, so `blac\u{212A}` (with a Kelvin sign) would become `black`, which a
    /// browser does not match.
    @_spi(MarkbridgeBytes) public func asciiLowercased() -> String {
        guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return self }
        // Only ASCII letters change, each to another ASCII byte: the bytes stay UTF-8, and the
        // standard library checks them again as it makes the string.
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
