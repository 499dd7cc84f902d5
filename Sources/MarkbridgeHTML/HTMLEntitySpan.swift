@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeIR

/// How HTML says a hashtag or a mention: a `span` whose `class` list names the entity and
/// whose data attribute carries its value, `<span class="hashtag" data-tag="東京">#東京</span>`
/// and `<span class="mention" data-name="ana">@ana</span>`, the way clients style and find
/// them. The writer writes this form and both HTML readers (documents and Markdown's inline
/// HTML) read it; a span with the class and no value is an ordinary span.
package enum HTMLEntitySpan {
    /// The class and the data attribute for an entity kind; nil for every other kind.
    static func spelling(of tag: MarkupKind.Tag) -> (className: String, attribute: String)? {
        switch tag {
        case .hashtag: ("hashtag", "data-tag")
        case .mention: ("mention", "data-name")
        case .strong, .emphasis, .code, .link, .strike, .underline, .superscript, .subscript, .highlight, .color,
             .background, .image: nil
        }
    }

    /// The markup a `span` with these attributes opens, if it is an entity's.
    static func markup(attribute: (String) -> String?) -> MarkupKind? {
        guard let classes = attribute("class") else { return nil }
        for tag in [MarkupKind.Tag.hashtag, .mention] {
            guard let (className, name) = spelling(of: tag), hasClass(className, in: classes),
                  let value = attribute(name), !value.isEmpty else { continue }
            return tag == .hashtag ? .hashtag(value) : .mention(value)
        }
        return nil
    }

    /// The start tag for an entity markup.
    static func startTag(_ kind: MarkupKind) -> String {
        guard let (className, attribute) = spelling(of: kind.tag), let value = kind.entityValue else { return "" }
        return "<span class=\"\(className)\" \(attribute)=\"\(HTMLEscaping.attribute(value))\">"
    }

    /// Whether a `class` attribute's whitespace-separated list holds `name` (ASCII case-insensitive,
    /// as class selectors match in quirks mode, so an upper-case spelling is not a silent miss).
    private static func hasClass(_ name: String, in classes: String) -> Bool {
        // By bytes, as HTML splits the list by scalars: a space that a combining mark follows is
        // a separator, though one character with the mark. `name` is lower-case ASCII.
        classes.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C })
            .contains { token in
                token.count == name.utf8.count && zip(token, name.utf8).allSatisfy { byte, lower in
                    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == lower
                }
            }
    }
}
