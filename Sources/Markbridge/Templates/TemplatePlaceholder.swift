/// One placeholder of a template, found in a block's text: where it lies, in UTF-16 code units
/// of that text, and which value it asks for.
///
/// Placeholders are found in the whole text of a block, never run by run, so that a markup edge
/// inside one (`{na<b>me}`) does not hide it. The syntaxes are Foundation's `String(format:)`
/// for strings and whole numbers, and `{name}`:
/// - `%@` takes the next value in order; `%d`, `%i` (a whole number) and `%u` (a whole number of
///   0 or more) too, with `l`, `ll`, `q` or `z` before them allowed and meaning nothing;
/// - `%2$@`, `%2$d`, `%2$i`, `%2$u` take value 2 (positions count from 1);
/// - `{name}` takes the value named `name` (a letter or `_`, then letters, digits and `_`);
/// - `%%` is a percent sign.
/// Any other `%` is an error; a `{` that begins no `{name}` is text.
struct TemplatePlaceholder: Hashable, Sendable {
    /// Which value a placeholder takes.
    enum Reference: Hashable, Sendable {
        /// `%%`: no value, a percent sign.
        case percentSign
        /// `%@`, `%d`: the next value in order.
        case sequential(Conversion)
        /// `%2$@`: the value at a 1-based position.
        case positional(Int, Conversion)
        /// `{name}`.
        case named(String)
    }

    /// What a `%` placeholder's value must be.
    enum Conversion: Hashable, Sendable {
        /// `@`: any text.
        case text
        /// `d`, `i`: a whole number.
        case integer
        /// `u`: a whole number of 0 or more.
        case unsignedInteger
    }

    var range: TextRange
    var reference: Reference
    /// The placeholder as the template writes it, for messages.
    var spelling: String
    /// The index of the block whose text holds it.
    var block: Int

    /// Where it is, as messages say it: `block 1, UTF-16 offset 6`.
    var place: String { Self.place(block: block, offset: range.start) }

    static func place(block: Int, offset: Int) -> String { "block \(block), UTF-16 offset \(offset)" }

    /// Every placeholder of `units` (one block's text), in order; throws `invalid-placeholder`
    /// at the first `%` that begins none. One pass: linear in the text.
    static func scan(_ units: [UInt16], block: Int) throws(ConversionError) -> [TemplatePlaceholder] {
        var found: [TemplatePlaceholder] = []
        var index = 0
        while index < units.count {
            switch units[index] {
            case ASCII.percent:
                let placeholder = try percentPlaceholder(at: index, in: units, block: block)
                found.append(placeholder)
                index = placeholder.range.end
            case ASCII.openBrace:
                guard let placeholder = namedPlaceholder(at: index, in: units, block: block) else {
                    index += 1
                    continue
                }
                found.append(placeholder)
                index = placeholder.range.end
            default:
                index += 1
            }
        }
        return found
    }

    /// The names of the `{name}` placeholders in `units` (a URL, where `%` is no placeholder).
    static func names(in units: [UInt16]) -> [String] {
        var names: [String] = []
        var index = 0
        while index < units.count {
            if units[index] == ASCII.openBrace, let placeholder = namedPlaceholder(at: index, in: units, block: 0),
               case .named(let name) = placeholder.reference {
                names.append(name)
                index = placeholder.range.end
            } else {
                index += 1
            }
        }
        return names
    }

    /// `{name}` at `start`, or nil when the `{` begins none (it is text then).
    private static func namedPlaceholder(at start: Int, in units: [UInt16], block: Int) -> TemplatePlaceholder? {
        var index = start + 1
        guard index < units.count, ASCII.isLetter(units[index]) || units[index] == ASCII.underscore else { return nil }
        while index < units.count, ASCII.isLetter(units[index]) || ASCII.isDigit(units[index]) || units[index] == ASCII.underscore {
            index += 1
        }
        guard index < units.count, units[index] == ASCII.closeBrace else { return nil }
        let name = String(decoding: units[(start + 1)..<index], as: UTF16.self)
        return TemplatePlaceholder(range: TextRange(start: start, end: index + 1), reference: .named(name), spelling: "{\(name)}", block: block)
    }

    /// The placeholder a `%` at `start` begins: `%%`, `%@`, `%ld`, `%2$@`.
    private static func percentPlaceholder(at start: Int, in units: [UInt16], block: Int) throws(ConversionError) -> TemplatePlaceholder {
        func placeholder(_ reference: Reference, end: Int) -> TemplatePlaceholder {
            TemplatePlaceholder(range: TextRange(start: start, end: end), reference: reference,
                                spelling: String(decoding: units[start..<end], as: UTF16.self), block: block)
        }
        var index = start + 1
        if index < units.count, units[index] == ASCII.percent { return placeholder(.percentSign, end: index + 1) }
        // A position: digits then `$`. Digits without `$` are a width, which is unsupported.
        var position: Int?
        let digitsStart = index
        while index < units.count, ASCII.isDigit(units[index]), index - digitsStart < maxPositionDigits { index += 1 }
        if index > digitsStart, index < units.count, units[index] == ASCII.dollar {
            let digits = String(decoding: units[digitsStart..<index], as: UTF16.self)
            position = Int(digits)
            index += 1
            if position == 0 {
                let spelling = unsupportedSpelling(at: start, in: units)
                throw ConversionError(code: "invalid-placeholder",
                                      message: "'\(spelling)' (\(place(block: block, offset: start))) names position 0; positions count from 1")
            }
        } else {
            index = digitsStart
        }
        let modifierStart = index
        if index < units.count, units[index] == ASCII.l {
            index += 1
            if index < units.count, units[index] == ASCII.l { index += 1 }
        } else if index < units.count, units[index] == ASCII.q || units[index] == ASCII.z {
            index += 1
        }
        let conversion: Conversion? = switch index < units.count ? units[index] : 0 {
            case ASCII.at where index == modifierStart: .text
            case ASCII.d, ASCII.i: .integer
            case ASCII.u: .unsignedInteger
            default: nil
        }
        guard let conversion else { throw unsupported(at: start, in: units, block: block) }
        return placeholder(position.map { .positional($0, conversion) } ?? .sequential(conversion), end: index + 1)
    }

    /// Positions past 999,999 are refused as unsupported, so that parsing one cannot overflow.
    private static let maxPositionDigits = 6

    private static func unsupported(at start: Int, in units: [UInt16], block: Int) -> ConversionError {
        let spelling = unsupportedSpelling(at: start, in: units)
        guard spelling != "%" else {
            return ConversionError(code: "invalid-placeholder",
                                   message: "a '%' that begins no placeholder (\(place(block: block, offset: start))); write '%%' for a percent sign")
        }
        return ConversionError(code: "invalid-placeholder", message: "unsupported placeholder '\(spelling)' (\(place(block: block, offset: start))); "
                               + "templates read %@, %d, %i, %u, their positional forms (%1$@), {name} and %%")
    }

    /// A `%` that begins no placeholder as a message names it: through its conversion letter
    /// (length modifiers passed over), or up to where it stops looking like one; 12 units at most.
    private static func unsupportedSpelling(at start: Int, in units: [UInt16]) -> String {
        var end = start + 1
        while end < units.count, end - start < 12 {
            let unit = units[end]
            // Printable ASCII but space: flags, widths, precisions, positions and letters.
            guard unit > 0x20, unit < 0x7F else { break }
            end += 1
            let isLengthModifier = [ASCII.l, ASCII.q, ASCII.z, ASCII.h].contains(unit)
            if (ASCII.isLetter(unit) && !isLengthModifier) || unit == ASCII.at || unit == ASCII.percent { break }
        }
        return String(decoding: units[start..<end], as: UTF16.self)
    }
}

/// The ASCII code units templates look for.
private enum ASCII {
    static let percent: UInt16 = 0x25
    static let dollar: UInt16 = 0x24
    static let at: UInt16 = 0x40
    static let underscore: UInt16 = 0x5F
    static let openBrace: UInt16 = 0x7B
    static let closeBrace: UInt16 = 0x7D
    static let d: UInt16 = 0x64
    static let h: UInt16 = 0x68
    static let i: UInt16 = 0x69
    static let l: UInt16 = 0x6C
    static let q: UInt16 = 0x71
    static let u: UInt16 = 0x75
    static let z: UInt16 = 0x7A

    static func isDigit(_ unit: UInt16) -> Bool { (0x30...0x39).contains(unit) }
    static func isLetter(_ unit: UInt16) -> Bool { (0x41...0x5A).contains(unit) || (0x61...0x7A).contains(unit) }
}
