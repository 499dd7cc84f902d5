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
    mutating func dropsAsElementContent(_ event: CmarkLibrary.Event, literal: Span<UInt8>) -> Bool {
        if let name = droppingElement {
            switch event.kind {
            case .text, .code, .softBreak, .lineBreak, .image:
                return true
            case .htmlInline:
                if let tag = Self.tagName(literal), tag.isEnd, Self.isName(literal.extracting(tag.name), name) { droppingElement = nil }
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
        guard case .htmlInline = event.kind, Self.mayStartContentDroppingElement(literal),
              let tag = Self.tagName(literal), !tag.isEnd,
              let name = Self.contentDroppingElements.first(where: { Self.isName(literal.extracting(tag.name), $0) }) else { return false }
        diagnose("dropped-element", "<\(name)> dropped with its content", event)
        // A self-closing spelling is still a start tag: HTML ignores the slash on these.
        droppingElement = name
        return true
    }

    /// Whether `literal` may be a start tag of one of ``contentDroppingElements``: its name's
    /// first letter, in either case, is one of theirs.
    static func mayStartContentDroppingElement(_ literal: Span<UInt8>) -> Bool {
        guard literal.count >= 2, literal[0] == UInt8(ascii: "<") else { return false }
        return contentDroppingInitials.contains(literal[1] | 0x20)
    }

    private static let contentDroppingInitials = Set(contentDroppingElements.compactMap(\.utf8.first))

    /// Whether a tag's name, as written, is `lowercased` (a lower-case ASCII name).
    static func isName(_ name: Span<UInt8>, _ lowercased: String) -> Bool {
        var expected = lowercased.utf8.makeIterator()
        for index in name.indices {
            guard let byte = expected.next(), name[index] | 0x20 == byte else { return false }
        }
        return expected.next() == nil
    }

    /// Where the name of a tag's source text lies in its bytes, and whether it is an end tag;
    /// nil for a comment, a declaration or anything else that is not a tag.
    static func tagName(_ literal: Span<UInt8>) -> (name: Range<Int>, isEnd: Bool)? {
        guard !literal.isEmpty, literal[0] == UInt8(ascii: "<") else { return nil }
        let isEnd = literal.count > 1 && literal[1] == UInt8(ascii: "/")
        let start = isEnd ? 2 : 1
        var end = start
        while end < literal.count, MarkdownEscaping.isLetter(literal[end]) || MarkdownEscaping.isDigit(literal[end]) || literal[end] == UInt8(ascii: "-") {
            end += 1
        }
        guard end > start, MarkdownEscaping.isLetter(literal[start]) else { return nil }
        return (start..<end, isEnd)
    }
}
