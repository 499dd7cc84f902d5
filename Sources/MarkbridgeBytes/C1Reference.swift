/// C1 controls (U+0080 to U+009F) as numeric character references, `&#x80;`: the one spelling
/// the HTML and Markdown writers share, so that no raw control reaches a terminal or a page.
package enum C1Reference {
    /// Appends the reference for the C1 control whose UTF-8 second byte (0x80 to 0x9F) is given.
    package static func append(secondByte: UInt8, to out: inout [UInt8]) {
        out.append(contentsOf: "&#x".utf8)
        out.append(hexDigit(secondByte >> 4))
        out.append(hexDigit(secondByte & 0xF))
        out.append(UInt8(ascii: ";"))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
