extension String {
    /// The string with ASCII letters in lower case and every other character as it is: how HTML
    /// and CSS compare names and keywords ("ASCII case-insensitive"). `lowercased()` maps by
    /// Unicode instead, so `blac\u{212A}` (with a Kelvin sign) would become `black`, which a
    /// browser does not match.
    @_spi(Internals) public func asciiLowercased() -> String {
        var text = self
        return text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for index in bytes.indices {
                    let byte = bytes[index]
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }
}
