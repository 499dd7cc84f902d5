/// An `<abbr title>`'s expansion, as every reader that meets one writes it: after the
/// abbreviation's text, in parentheses (`HTML (HyperText Markup Language)`), as print style
/// sheets show it, since the IR has no tooltip and the expansion is content worth keeping.
package enum Abbreviation {
    /// The expansion to write after `shown`, the abbreviation's text: the title with its
    /// whitespace collapsed, or nil when there is none or it only repeats the text
    /// (`<abbr title="HTML">HTML</abbr>`), which then loses nothing.
    public static func expansion(title: String, shown: String) -> String? {
        let expansion = collapsingWhitespace(title)
        guard !expansion.isEmpty, collapsingWhitespace(shown).lowercased() != expansion.lowercased() else { return nil }
        return expansion
    }

    /// The expansion as written after the text.
    public static func written(_ expansion: String) -> String { "(" + expansion + ")" }

    static func collapsingWhitespace(_ text: String) -> String {
        // By scalars: a space that a combining mark follows is one character with it.
        text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }
}
