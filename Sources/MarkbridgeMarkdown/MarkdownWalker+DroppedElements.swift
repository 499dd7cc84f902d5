extension MarkdownWalker {
    /// Elements whose content is never text, dropped with it as the HTML reader drops them
    /// (HOSTILE-INPUTS A9): `alert(1)` between inline `<script>` and `</script>` is code, not
    /// prose. An HTML block goes to the HTML reader whole; inline, cmark gives the opener and
    /// the closer as separate nodes with the content between them, so the walker drops what
    /// comes between.
    static let contentDroppingElements = ["script", "style", "template", "noscript", "canvas"]

    /// Whether `event` is dropped as the content of an element opened inline: its text, code,
    /// breaks, tags and images, up to the element's end tag (dropped too) or the end of its
    /// block, whichever comes first (an end tag in a later block is no end of this one). The
    /// enter and exit of emphasis and links are kept, so that their markups stay paired; over
    /// dropped text they are empty, and canonicalization drops them.
    mutating func dropsAsElementContent(_ event: CmarkLibrary.Event) -> Bool {
        if let name = droppingElement {
            switch event.kind {
            case .text, .code, .softBreak, .lineBreak, .image:
                return true
            case .htmlInline:
                if let tag = Self.tagNameBytes(event.literal), tag.isEnd, Self.isName(tag.name, name) { droppingElement = nil }
                return true
            case .emphasis, .strong, .strikethrough, .link:
                return false
            default:
                droppingElement = nil
                return false
            }
        }
        // Compared by bytes, with no string made: most inline tags are none of these, and their
        // first letter alone says so (`<u>`, `<em>`, `</b>`).
        guard case .htmlInline = event.kind, Self.mayStartContentDroppingElement(event.literal),
              let tag = Self.tagNameBytes(event.literal), !tag.isEnd,
              let name = Self.contentDroppingElements.first(where: { Self.isName(tag.name, $0) }) else { return false }
        diagnose("dropped-element", "<\(name)> dropped with its content", event)
        // A self-closing spelling is still a start tag: HTML ignores the slash on these.
        droppingElement = name
        return true
    }

    /// Whether `literal` may be a start tag of one of ``contentDroppingElements``: its name's
    /// first letter, in either case, is one of theirs.
    static func mayStartContentDroppingElement(_ literal: String) -> Bool {
        var bytes = literal.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "<"), let first = bytes.next() else { return false }
        let initial = first | 0x20
        return contentDroppingInitials.contains(initial)
    }

    private static let contentDroppingInitials = Set(contentDroppingElements.compactMap(\.utf8.first))

    /// Whether a tag's name, as written, is `lowercased` (a lower-case ASCII name).
    static func isName(_ name: Substring.UTF8View, _ lowercased: String) -> Bool {
        name.count == lowercased.utf8.count && name.lazy.map { $0 | 0x20 }.elementsEqual(lowercased.utf8)
    }

    /// The name of a tag's source text as written (a slice of its bytes), and whether it is an
    /// end tag; nil for a comment, a declaration or anything else that is not a tag.
    static func tagNameBytes(_ literal: String) -> (name: Substring.UTF8View, isEnd: Bool)? {
        var bytes = literal.utf8[...]
        guard bytes.first == UInt8(ascii: "<") else { return nil }
        bytes = bytes.dropFirst()
        let isEnd = bytes.first == UInt8(ascii: "/")
        if isEnd { bytes = bytes.dropFirst() }
        let name = bytes.prefix { byte in
            (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        }
        guard let first = name.first, first | 0x20 >= UInt8(ascii: "a"), first | 0x20 <= UInt8(ascii: "z") else { return nil }
        return (name, isEnd)
    }
}
