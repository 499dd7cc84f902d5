/// The order of markups in canonical form: by start, then longest first, then kind, then the
/// kind's attributes. Total but for images that differ only in size, which no key compares:
/// those keep the order they came in, the sort being stable.
enum MarkupOrder {
    static func precedes(_ lhs: Markup, _ rhs: Markup) -> Bool {
        if lhs.range.start != rhs.range.start { return lhs.range.start < rhs.range.start }
        if lhs.range.end != rhs.range.end { return lhs.range.end > rhs.range.end }
        return kindPrecedes(lhs.kind, rhs.kind)
    }

    /// Sorts `markups` into this order, stably, as the standard library's sort does. A block's
    /// markups are few and nearly in order (an element's opened in its rules' order, not the
    /// kinds'), so an insertion sort finishes in about a pass; the general sort sets up a merge
    /// each time, several times the cost for the usual two or three markups.
    static func sort(_ markups: inout [Markup]) {
        guard markups.count <= 32 else {
            markups.sort(by: precedes)
            return
        }
        for index in markups.indices.dropFirst() {
            var slot = index
            while slot > 0, precedes(markups[slot], markups[slot - 1]) {
                markups.swapAt(slot, slot - 1)
                slot -= 1
            }
        }
    }

    /// Orders kinds by rank, then by attributes; equal kinds are not ordered.
    static func kindPrecedes(_ lhs: MarkupKind, _ rhs: MarkupKind) -> Bool {
        if lhs.canonicalRank != rhs.canonicalRank { return lhs.canonicalRank < rhs.canonicalRank }
        return attributeKey(lhs).lexicographicallyPrecedes(attributeKey(rhs))
    }

    /// The attributes of a kind as one list of UTF-8 strings, absent values before present ones.
    private static func attributeKey(_ kind: MarkupKind) -> [OptionalKey] {
        switch kind {
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight:
            []
        case .link(let target):
            [OptionalKey(target.href), OptionalKey(target.title)]
        case .color(let color), .background(let color):
            [OptionalKey(color.hex)]
        case .image(let image):
            [OptionalKey(image.src), OptionalKey(image.alt), OptionalKey(image.title)]
        case .hashtag(let value), .mention(let value):
            [OptionalKey(value)]
        }
    }

    private struct OptionalKey: Comparable {
        let value: String?
        init(_ value: String?) { self.value = value }

        static func < (lhs: OptionalKey, rhs: OptionalKey) -> Bool {
            switch (lhs.value, rhs.value) {
            case (nil, nil): false
            case (nil, _): true
            case (_, nil): false
            case let (l?, r?): l.utf8.lexicographicallyPrecedes(r.utf8)
            }
        }
    }
}
