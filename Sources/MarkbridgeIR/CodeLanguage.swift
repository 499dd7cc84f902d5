/// What a code block's language may be, one rule for every reader: a single word, with no
/// whitespace or control character in it.
///
/// CommonMark takes the first word of a fence's info string and HTML one class token
/// (`language-x`), so a language with a space cannot be carried by either, and a line break
/// or control would corrupt a fence. Readers keep the first word of what they were given
/// (`"swift title=a.swift"` is `swift`) and report what they cut; an empty word is no language.
package enum CodeLanguage {
    /// The first word of `raw`, or nil when there is none.
    public static func normalized(_ raw: String) -> String? {
        // The usual info string is one word already, told by its bytes: every separator is an
        // ASCII byte or begins with 0xC2 (the C1 controls) or 0xE2 (U+2028, U+2029). Such a
        // string is returned as it is, without the scalar walk and new string below.
        if !raw.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) {
            return raw.isEmpty ? nil : raw
        }
        let word = raw.unicodeScalars.drop(while: isSeparator).prefix { !isSeparator($0) }
        return word.isEmpty ? nil : String(String.UnicodeScalarView(word))
    }

    /// Whether `language` is already one word, as the IR requires.
    public static func isValid(_ language: String) -> Bool {
        normalized(language) == language
    }

    /// Whitespace (ASCII's, and the Unicode line and paragraph separators) and controls.
    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
