@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// CSS color values as stored HTML uses them, normalised to ``CSSColor``: `#rgb`, `#rgba`,
/// `#rrggbb`, `#rrggbbaa`, `rgb()` and `rgba()` (commas or spaces, numbers or percentages, an
/// optional alpha), the named colors, and `transparent`. Anything else is nil, and the reader
/// reports the value it could not use.
enum CSSColorParser {
    static func parse(_ value: String) -> CSSColor? {
        let lowered = value.trimmingASCIIWhitespace().asciiLowercased()
        if lowered.hasPrefix("#") { return hex(Array(lowered.utf8.dropFirst())) }
        if lowered == "transparent" { return CSSColor(red: 0, green: 0, blue: 0, alpha: 0) }
        if let named = CSSNamedColors.values[lowered] {
            return CSSColor(red: UInt8(named >> 16), green: UInt8((named >> 8) & 0xFF), blue: UInt8(named & 0xFF))
        }
        if lowered.hasPrefix("rgb(") || lowered.hasPrefix("rgba("), lowered.hasSuffix(")"),
           let open = lowered.firstIndex(of: "(") {
            return rgb(String(lowered[lowered.index(after: open)..<lowered.index(before: lowered.endIndex)]))
        }
        return nil
    }

    private static func hex(_ digits: [UInt8]) -> CSSColor? {
        let values = digits.map { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        guard !values.contains(nil) else { return nil }
        let v = values.compactMap { $0 }
        switch v.count {
        case 3: return CSSColor(red: v[0] * 17, green: v[1] * 17, blue: v[2] * 17)
        case 4: return CSSColor(red: v[0] * 17, green: v[1] * 17, blue: v[2] * 17, alpha: v[3] * 17)
        case 6: return CSSColor(red: v[0] << 4 | v[1], green: v[2] << 4 | v[3], blue: v[4] << 4 | v[5])
        case 8: return CSSColor(red: v[0] << 4 | v[1], green: v[2] << 4 | v[3], blue: v[4] << 4 | v[5], alpha: v[6] << 4 | v[7])
        default: return nil
        }
    }

    /// `r, g, b[, a]` or `r g b[ / a]`.
    private static func rgb(_ arguments: String) -> CSSColor? {
        let parts = arguments.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" || $0 == "\t" }).map(String.init)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var channels: [UInt8] = []
        for part in parts.prefix(3) {
            guard let channel = component(part, scale: 255) else { return nil }
            channels.append(channel)
        }
        var alpha: UInt8 = 255
        if parts.count == 4 {
            guard let value = component(parts[3], scale: 1) else { return nil }
            alpha = value
        }
        return CSSColor(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
    }

    /// A number (0...scale) or a percentage, as 0...255.
    private static func component(_ text: String, scale: Double) -> UInt8? {
        let isPercent = text.hasSuffix("%")
        guard let number = Double(isPercent ? String(text.dropLast()) : text), number.isFinite else { return nil }
        let fraction = isPercent ? number / 100 : number / scale
        return UInt8((min(max(fraction, 0), 1) * 255).rounded())
    }
}
