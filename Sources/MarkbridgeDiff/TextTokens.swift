import MarkbridgeIR

/// A block's text cut into the units a diff compares: words, runs of whitespace, and single
/// characters otherwise: punctuation, symbols and emoji (a whole grapheme cluster each, so a
/// family, a flag or a skin tone is one unit), and the characters of scripts written without
/// spaces between words (Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar), where a
/// word diff would see one word per sentence. Each token knows its UTF-16 range, the unit the
/// IR's markups count in, within the span of the text it was made from.
struct TextTokens {
    struct Token {
        var text: Substring
        var range: TextRange
        var kind: Kind
    }

    enum Kind: Equatable {
        case word, space, punctuation, ideograph

        /// Whether neighbours of this kind make one token (words and spaces do).
        var joins: Bool { self == .word || self == .space }
    }

    private(set) var tokens: [Token] = []

    /// The tokens of `text[range]`, a range of whole characters; offsets count from the start of
    /// `text`, `startOffset` being the UTF-16 offset of `range.lowerBound`.
    init(_ text: String, range: Range<String.Index>? = nil, startOffset: Int = 0) {
        let characters = text[range ?? text.startIndex..<text.endIndex]
        var start = characters.startIndex
        var startUnits = startOffset
        var units = startOffset
        var current: Kind?
        for index in characters.indices {
            let character = characters[index]
            let kind = Self.kind(of: character)
            if let running = current, !(kind == running && running.joins) {
                tokens.append(Token(text: characters[start..<index], range: TextRange(start: startUnits, end: units), kind: running))
                start = index
                startUnits = units
            }
            if current == nil { start = index; startUnits = units }
            current = kind
            units += character.utf16.count
        }
        if let running = current {
            tokens.append(Token(text: characters[start...], range: TextRange(start: startUnits, end: units), kind: running))
        }
    }

    /// A character's kind, by its first scalar (its marks and joiners belong to it already).
    static func kind(of character: Character) -> Kind {
        let scalar = character.unicodeScalars.first!
        let value = scalar.value
        // ASCII, most of most text, without a lookup in the Unicode tables.
        if value < 0x80 && character.unicodeScalars.count == 1 {
            switch value {
            case 0x09...0x0D, 0x20: return .space
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return .word
            default: return .punctuation
            }
        }
        if character.isWhitespace { return .space }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return isUnspaced(value) ? .ideograph : .word
        default:
            return .punctuation
        }
    }

    /// Scripts written without spaces between words: one character, one token.
    private static func isUnspaced(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF, // Thai, Lao
             0x1000...0x109F, // Myanmar
             0x1780...0x17FF, // Khmer
             0x3040...0x30FF, // Hiragana, Katakana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF, // Han
             0xAC00...0xD7AF: // Hangul syllables
            true
        default:
            false
        }
    }
}
