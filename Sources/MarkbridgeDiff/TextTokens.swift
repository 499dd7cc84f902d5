import MarkbridgeIR

/// A block's text cut into the units a diff compares: words, runs of whitespace, single
/// punctuation marks, and single characters of scripts written without spaces between words
/// (Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar), where a word diff would see one
/// word per sentence. Each token knows its UTF-16 range, the unit the IR's markups count in.
struct TextTokens {
    struct Token {
        var text: Substring
        var range: TextRange
        /// A run of whitespace (spaces, tabs, line breaks).
        var isSpace: Bool
    }

    private(set) var tokens: [Token] = []

    init(_ text: String) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var startOffset = 0
        var offset = 0
        var currentClass: CharacterClass?
        for index in scalars.indices {
            let scalar = scalars[index]
            let characterClass = CharacterClass(scalar)
            // Combining marks and joiners stay with what they follow.
            if let current = currentClass, characterClass == .mark || (characterClass == current && current.joins) {
                offset += scalar.utf16.count
                continue
            }
            if let current = currentClass {
                tokens.append(Token(text: Substring(scalars[start..<index]), range: TextRange(start: startOffset, end: offset), isSpace: current == .space))
            }
            start = index
            startOffset = offset
            currentClass = characterClass == .mark ? .word : characterClass
            offset += scalar.utf16.count
        }
        if let current = currentClass {
            tokens.append(Token(text: Substring(scalars[start...]), range: TextRange(start: startOffset, end: offset), isSpace: current == .space))
        }
    }

    private enum CharacterClass: Equatable {
        case word, space, punctuation, ideograph, mark

        /// Whether neighbours of this class make one token (words and spaces do; a
        /// punctuation mark or an ideograph is a token of its own).
        var joins: Bool { self == .word || self == .space }

        init(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            // ASCII, most of most text, without a lookup in the Unicode tables.
            if value < 0x80 {
                switch value {
                case 0x09...0x0D, 0x20: self = .space
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: self = .word
                default: self = .punctuation
                }
                return
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                self = .mark
            case .spaceSeparator, .lineSeparator, .paragraphSeparator:
                self = .space
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                self = Self.isUnspaced(value) ? .ideograph : .word
            case .format where value == 0x200D:
                // The zero-width joiner holds an emoji sequence together.
                self = .mark
            case .control:
                self = scalar.properties.isWhitespace ? .space : .punctuation
            default:
                self = .punctuation
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
}
