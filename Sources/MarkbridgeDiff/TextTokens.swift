import MarkbridgeIR

/// A block's text cut into the units a diff compares: words, runs of whitespace, single
/// punctuation marks, and single characters of scripts written without spaces between words
/// (Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar), where a word diff would see one
/// word per sentence. Each token knows its UTF-16 range, the unit the IR's markups count in.
struct TextTokens {
    struct Token {
        var text: Substring
        var range: TextRange
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
            if currentClass != nil {
                tokens.append(Token(text: Substring(scalars[start..<index]), range: TextRange(start: startOffset, end: offset)))
            }
            start = index
            startOffset = offset
            currentClass = characterClass == .mark ? .word : characterClass
            offset += scalar.utf16.count
        }
        if currentClass != nil {
            tokens.append(Token(text: Substring(scalars[start...]), range: TextRange(start: startOffset, end: offset)))
        }
    }

    private enum CharacterClass: Equatable {
        case word, space, punctuation, ideograph, mark

        /// Whether neighbours of this class make one token (words and spaces do; a
        /// punctuation mark or an ideograph is a token of its own).
        var joins: Bool { self == .word || self == .space }

        init(_ scalar: Unicode.Scalar) {
            let properties = scalar.properties
            if properties.isWhitespace {
                self = .space
            } else if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
                        || properties.generalCategory == .spacingMark || scalar == "\u{200D}" || properties.isVariationSelector {
                self = .mark
            } else if Self.isUnspaced(scalar.value) {
                self = .ideograph
            } else if properties.isAlphabetic || properties.numericType != nil || scalar == "_" {
                self = .word
            } else {
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
