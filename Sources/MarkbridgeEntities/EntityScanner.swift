import MarkbridgeIR

/// Finds hashtags, mentions and web addresses in one run of text, in one pass over its scalars
/// with no backtracking: every scalar is looked at a bounded number of times.
///
/// The rules (the README's "Hashtags, mentions and URLs" states them for users):
/// - **Hashtag**: `#` (or the full-width `＃`) at the start of the text or after whitespace or
///   punctuation, then one or more letters, combining marks, decimal digits and `_` of any
///   script, with at least one letter. `#東京`, `#λόγος` and `#sushi` are hashtags; `#123`,
///   `#😡` and the `#` in `not#tag` are not. A tag followed directly by another `#` is none
///   (`#a#b`), and neither is one inside a web address (`https://x.com/#top`).
/// - **Mention**: `@` (or `＠`) at the start or after whitespace or punctuation other than
///   `@ ! # % & *`, then letters, marks, digits and `_`, with `.` and `-` allowed between
///   two of those; at least one letter or digit. A name ends at the first other character,
///   so a trailing `.` is sentence punctuation. An e-mail address has a letter or digit before
///   its `@` and is never a mention; `@ana@host` (an address of its own) is none either.
/// - **Web address**: `http://`, `https://` (any case) or `www.` at the start or after a
///   character that is no letter, digit or `_`, followed by a letter or digit; it runs to
///   whitespace, `<`, `>`, `"` or a control character. Trailing `. , : ; ! ? ' "` are trimmed,
///   and a closing `)`, `]` or `}` is trimmed while the address has more of them than of the
///   opening one, as twitter-text trims: `(see https://x.com/a_(b))` keeps `_(b)`.
struct EntityScanner {
    enum Found: Equatable {
        case hashtag(tag: String)
        case mention(name: String)
        /// A web address and the URL it links to (`www.` ones get `https://`).
        case url(href: String)
    }

    /// One entity: scalar indices into the text, and what it is.
    struct Entity: Equatable {
        var start: Int
        var end: Int
        var found: Found
    }

    let scalars: [Unicode.Scalar]
    /// Whether each scalar may be part of an entity (false inside code, links and table cell gaps).
    let open: [Bool]

    /// Every entity of `kinds` in order; web addresses are always found, so that no hashtag or
    /// mention is taken from inside one, and returned only if asked for.
    func entities(_ kinds: EntityDetection.Kinds) -> [Entity] {
        var found: [Entity] = []
        var index = 0
        while index < scalars.count {
            guard open[index] else {
                index += 1
                continue
            }
            if let end = webAddressEnd(at: index) {
                if kinds.contains(.urls) { found.append(Entity(start: index, end: end, found: .url(href: href(index, end)))) }
                index = end
                continue
            }
            let scalar = scalars[index]
            if scalar == "#" || scalar == "＃", kinds.contains(.hashtags), let end = hashtagEnd(at: index) {
                found.append(Entity(start: index, end: end, found: .hashtag(tag: string(index + 1, end))))
                index = end
                continue
            }
            if scalar == "@" || scalar == "＠", kinds.contains(.mentions), let end = mentionEnd(at: index) {
                found.append(Entity(start: index, end: end, found: .mention(name: string(index + 1, end))))
                index = end
                continue
            }
            index += 1
        }
        return found
    }

    // MARK: Hashtags

    private func hashtagEnd(at index: Int) -> Int? {
        guard index == 0 || Self.isWhitespace(scalars[index - 1]) || Self.isPunctuation(scalars[index - 1]) else { return nil }
        var end = index + 1
        var hasLetter = false
        while end < scalars.count, open[end], Self.isWordScalar(scalars[end]) {
            if Self.isLetter(scalars[end]) { hasLetter = true }
            end += 1
        }
        guard hasLetter else { return nil }
        if end < scalars.count, scalars[end] == "#" || scalars[end] == "＃" { return nil }
        return end
    }

    // MARK: Mentions

    private func mentionEnd(at index: Int) -> Int? {
        if index > 0 {
            let before = scalars[index - 1]
            guard Self.isWhitespace(before) || (Self.isPunctuation(before) && !"@＠!#%&*".unicodeScalars.contains(before)) else { return nil }
        }
        var end = index + 1
        var hasLetterOrDigit = false
        while end < scalars.count, open[end] {
            let scalar = scalars[end]
            if Self.isWordScalar(scalar) {
                if scalar != "_" { hasLetterOrDigit = true }
                end += 1
            } else if (scalar == "." || scalar == "-"), end > index + 1, end + 1 < scalars.count, open[end + 1],
                      Self.isWordScalar(scalars[end + 1]) {
                end += 1
            } else {
                break
            }
        }
        guard hasLetterOrDigit else { return nil }
        if end < scalars.count, scalars[end] == "@" || scalars[end] == "＠" { return nil }
        return end
    }

    // MARK: Web addresses

    private func webAddressEnd(at index: Int) -> Int? {
        let scalar = scalars[index]
        guard scalar == "h" || scalar == "H" || scalar == "w" || scalar == "W" else { return nil }
        if index > 0, Self.isWordScalar(scalars[index - 1]) { return nil }
        guard let prefix = Self.webPrefixes.first(where: { hasPrefix($0, at: index) }) else { return nil }
        let hostStart = index + prefix.count
        guard hostStart < scalars.count, open[hostStart], Self.isLetterOrDigit(scalars[hostStart]) else { return nil }
        var end = hostStart
        // Brackets counted as the run is read, so trimming stays linear.
        var brackets: [Unicode.Scalar: Int] = [:]
        while end < scalars.count, open[end], !Self.endsWebAddress(scalars[end]) {
            if "()[]{}".unicodeScalars.contains(scalars[end]) { brackets[scalars[end], default: 0] += 1 }
            end += 1
        }
        // Trim what ends a sentence rather than the address.
        while end > hostStart {
            let last = scalars[end - 1]
            if ".,:;!?'\"".unicodeScalars.contains(last) {
                end -= 1
            } else if let opening = Self.openingBracket(of: last), brackets[last, default: 0] > brackets[opening, default: 0] {
                brackets[last, default: 0] -= 1
                end -= 1
            } else {
                break
            }
        }
        return end > hostStart ? end : nil
    }

    private func hasPrefix(_ prefix: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + prefix.count <= scalars.count else { return false }
        for (offset, expected) in prefix.enumerated() {
            let scalar = scalars[index + offset]
            guard open[index + offset], scalar == expected || Self.asciiLowercase(scalar) == expected else { return false }
        }
        return true
    }

    private func href(_ start: Int, _ end: Int) -> String {
        let text = string(start, end)
        return hasPrefix(Self.webPrefixes[2], at: start) ? "https://" + text : text
    }

    private static let webPrefixes = [Array("https://".unicodeScalars), Array("http://".unicodeScalars), Array("www.".unicodeScalars)]

    private func string(_ start: Int, _ end: Int) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        return text
    }

    // MARK: Character classes

    /// A letter, a combining mark, a decimal digit or `_`: what tags and names are made of.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || scalar.properties.generalCategory == .decimalNumber
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            true
        default:
            false
        }
    }

    private static func endsWebAddress(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F || scalar == "<" || scalar == ">" || scalar == "\""
            || scalar == "\u{FFFC}"
    }

    private static func openingBracket(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case ")": "("
        case "]": "["
        case "}": "{"
        default: nil
        }
    }

    private static func asciiLowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value + 32)) : scalar
    }
}
