import MarkbridgeIR

/// Two texts compared token by token (``TextTokens``): the runs that were removed, added or
/// replaced, and a map from offsets in the old text to offsets in the new one, which the markup
/// comparison uses to tell a markup that moved with its text from one that changed.
struct TextComparison {
    private(set) var edits: [TextEdit] = []
    private var segments: [Segment] = []

    /// A stretch of the old text and what became of it: kept (the same tokens, maybe with
    /// whitespace of another length when whitespace is ignored) or replaced by a stretch of the
    /// new text (either side possibly empty).
    private struct Segment {
        var old: TextRange
        var new: TextRange
        var isKept: Bool
    }

    /// `oldImages` and `newImages` name the inline image at each U+FFFC (by UTF-16 offset), so
    /// that one image replaced by another is an edit, not the same placeholder.
    init(_ old: String, _ new: String, ignoresWhitespace: Bool, oldImages: [Int: String] = [:], newImages: [Int: String] = [:]) {
        // What both texts begin and end with, up to a word boundary, is kept without tokenizing:
        // one word changed in a long paragraph costs the paragraph's length once, not per token.
        let shared = SharedEdges(old, new, oldImages: oldImages, newImages: newImages)
        if shared.prefixUnits > 0 {
            segments.append(Segment(old: TextRange(start: 0, end: shared.prefixUnits), new: TextRange(start: 0, end: shared.prefixUnits), isKept: true))
        }
        let oldTokens = TextTokens(old, range: shared.oldMiddle, startOffset: shared.prefixUnits).tokens
        let newTokens = TextTokens(new, range: shared.newMiddle, startOffset: shared.prefixUnits).tokens
        var identities: [TokenKey: Int] = [:]
        func identity(_ token: TextTokens.Token, images: [Int: String]) -> Int {
            // With whitespace ignored, every run of it is the same token.
            var key = TokenKey(text: ignoresWhitespace && token.kind == .space ? " " : token.text, image: nil)
            if token.text == "\u{FFFC}" { key.image = images[token.range.start] }
            if let known = identities[key] { return known }
            identities[key] = identities.count
            return identities.count - 1
        }
        let steps = SequenceAlignment.align(oldTokens.map { identity($0, images: oldImages) }, newTokens.map { identity($0, images: newImages) })

        var oldOffset = shared.prefixUnits, newOffset = shared.prefixUnits
        var pending: (old: TextRange, new: TextRange)?
        func flush() {
            guard let run = pending else { return }
            segments.append(Segment(old: run.old, new: run.new, isKept: false))
            pending = nil
        }
        for step in steps {
            switch step {
            case .keep(let i, let j):
                flush()
                segments.append(Segment(old: oldTokens[i].range, new: newTokens[j].range, isKept: true))
                oldOffset = oldTokens[i].range.end
                newOffset = newTokens[j].range.end
            case .delete(let i):
                let run = pending ?? (TextRange(start: oldOffset, end: oldOffset), TextRange(start: newOffset, end: newOffset))
                pending = (TextRange(start: run.old.start, end: oldTokens[i].range.end), run.new)
                oldOffset = oldTokens[i].range.end
            case .insert(let j):
                let run = pending ?? (TextRange(start: oldOffset, end: oldOffset), TextRange(start: newOffset, end: newOffset))
                pending = (run.old, TextRange(start: run.new.start, end: newTokens[j].range.end))
                newOffset = newTokens[j].range.end
            }
        }
        flush()
        if shared.suffixUnits > 0 {
            let oldEnd = shared.oldUnits, newEnd = shared.newUnits
            segments.append(Segment(old: TextRange(start: oldEnd - shared.suffixUnits, end: oldEnd),
                                    new: TextRange(start: newEnd - shared.suffixUnits, end: newEnd), isKept: true))
        }
        edits = Self.edits(from: segments, old: old, new: new, ignoresWhitespace: ignoresWhitespace)
    }

    /// Replaced stretches as edits. Two edits with only whitespace kept between them read as
    /// one ("the quick fox" → "a slow fox" is one edit, not two with a space between).
    private static func edits(from segments: [Segment], old: String, new: String, ignoresWhitespace: Bool) -> [TextEdit] {
        var edits: [TextEdit] = []
        var index = 0
        while index < segments.count {
            guard !segments[index].isKept else {
                index += 1
                continue
            }
            var last = index
            var probe = index + 1
            while probe + 1 < segments.count, segments[probe].isKept, !segments[probe + 1].isKept,
                  isWhitespace(old, segments[probe].old) {
                last = probe + 1
                probe += 2
            }
            let oldRange = TextRange(start: segments[index].old.start, end: segments[last].old.end)
            let newRange = TextRange(start: segments[index].new.start, end: segments[last].new.end)
            let edit = TextEdit(old: oldRange, new: newRange, removed: slice(old, oldRange), added: slice(new, newRange))
            let isWhitespaceOnly = edit.removed.unicodeScalars.allSatisfy(\.properties.isWhitespace)
                && edit.added.unicodeScalars.allSatisfy(\.properties.isWhitespace)
            if !(ignoresWhitespace && isWhitespaceOnly) { edits.append(edit) }
            index = last + 1
        }
        return edits
    }

    private static func isWhitespace(_ text: String, _ range: TextRange) -> Bool {
        slice(text, range).unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// A token as the alignment compares it: its text by code units (so canonically equivalent
    /// spellings differ, as they do to a client), and for a U+FFFC the image it stands for.
    private struct TokenKey: Hashable {
        var text: Substring
        var image: String?

        static func == (a: TokenKey, b: TokenKey) -> Bool { a.image == b.image && a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            hasher.combine(image)
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    /// The text of a UTF-16 range (token boundaries are scalar boundaries, so it is whole).
    static func slice(_ text: String, _ range: TextRange) -> String {
        let utf16 = text.utf16
        let start = utf16.index(utf16.startIndex, offsetBy: range.start, limitedBy: utf16.endIndex) ?? utf16.endIndex
        let end = utf16.index(start, offsetBy: max(0, range.length), limitedBy: utf16.endIndex) ?? utf16.endIndex
        return String(text[start..<end])
    }

    /// Where an old range's text is in the new text: its start and end carried across the kept
    /// stretches, and snapped to the edges of a replaced one (so a link whose words were edited
    /// maps onto the link over the new words).
    func map(_ range: TextRange) -> TextRange {
        let start = mapStart(range.start)
        return TextRange(start: start, end: max(start, mapEnd(range.end)))
    }

    private func mapStart(_ offset: Int) -> Int {
        // The first segment that ends after the offset holds it.
        guard let segment = firstSegment(where: { $0.old.end > offset }) else { return segments.last?.new.end ?? 0 }
        guard segment.isKept, offset > segment.old.start else { return segment.new.start }
        return min(segment.new.end, segment.new.start + (offset - segment.old.start))
    }

    private func mapEnd(_ offset: Int) -> Int {
        // The first segment that ends at or after the offset holds its last unit.
        guard offset > 0, let segment = firstSegment(where: { $0.old.end >= offset }) else { return segments.first?.new.start ?? 0 }
        guard segment.isKept else { return segment.new.end }
        return min(segment.new.end, segment.new.start + (offset - segment.old.start))
    }

    /// The first segment, in order, past a point (segments are in order of their old ranges).
    private func firstSegment(where isPast: (Segment) -> Bool) -> Segment? {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(segments[middle]) { high = middle } else { low = middle + 1 }
        }
        return low < segments.count ? segments[low] : nil
    }
}

/// The longest start and end two texts share, in UTF-8 code units, each cut back to a word
/// boundary (after whitespace), and what is left between them as ranges of whole characters.
struct SharedEdges {
    private(set) var prefixUnits = 0, suffixUnits = 0
    private(set) var oldUnits = 0, newUnits = 0
    private(set) var oldMiddle: Range<String.Index>, newMiddle: Range<String.Index>

    /// With the images of both texts by offset: a shared edge holding a U+FFFC whose image
    /// differs between the two is not shared, and the edges stop at the first U+FFFC instead.
    init(_ old: String, _ new: String, oldImages: [Int: String] = [:], newImages: [Int: String] = [:]) {
        self.init(old, new, stoppingAtImages: false)
        guard !oldImages.isEmpty || !newImages.isEmpty else { return }
        let shift = newUnits - oldUnits
        let prefixAgrees = oldImages.allSatisfy { $0.key >= prefixUnits || newImages[$0.key] == $0.value }
            && newImages.allSatisfy { $0.key >= prefixUnits || oldImages[$0.key] == $0.value }
        let suffixStart = oldUnits - suffixUnits
        let suffixAgrees = oldImages.allSatisfy { $0.key < suffixStart || newImages[$0.key + shift] == $0.value }
            && newImages.allSatisfy { $0.key < suffixStart + shift || oldImages[$0.key - shift] == $0.value }
        if !prefixAgrees || !suffixAgrees { self.init(old, new, stoppingAtImages: true) }
    }

    private init(_ old: String, _ new: String, stoppingAtImages: Bool) {
        let a = old.utf8, b = new.utf8
        // The shared start, then back to just after the last whitespace byte in it (ASCII
        // whitespace: a word never continues across it, whatever follows).
        var prefix = a.startIndex, otherPrefix = b.startIndex
        var boundary = a.startIndex, otherBoundary = b.startIndex
        // Where images differ, an inline image's U+FFFC (EF BF BC) is not shared text: which
        // image it is depends on the markups, so the scan stops there and leaves it to the tokens.
        func isObjectReplacement(_ text: String.UTF8View, _ index: String.Index) -> Bool {
            guard stoppingAtImages, text[index] == 0xEF else { return false }
            let second = text.index(after: index)
            guard second < text.endIndex, text[second] == 0xBF else { return false }
            let third = text.index(after: second)
            return third < text.endIndex && text[third] == 0xBC
        }
        while prefix < a.endIndex, otherPrefix < b.endIndex, a[prefix] == b[otherPrefix], !isObjectReplacement(a, prefix) {
            let byte = a[prefix]
            a.formIndex(after: &prefix)
            b.formIndex(after: &otherPrefix)
            if byte == 0x20 || byte == 0x0A || byte == 0x09 { boundary = prefix; otherBoundary = otherPrefix }
        }
        if prefix == a.endIndex && otherPrefix == b.endIndex { boundary = prefix; otherBoundary = otherPrefix }
        // The shared end, not reaching into the shared start, then forward to just before the
        // first whitespace byte in it.
        var suffix = a.endIndex, otherSuffix = b.endIndex
        var endBoundary = a.endIndex, otherEndBoundary = b.endIndex
        while suffix > boundary, otherSuffix > otherBoundary {
            let before = a.index(before: suffix), otherBefore = b.index(before: otherSuffix)
            guard a[before] == b[otherBefore], !isObjectReplacement(a, before) else { break }
            suffix = before
            otherSuffix = otherBefore
            if a[before] == 0x20 || a[before] == 0x0A || a[before] == 0x09 { endBoundary = suffix; otherEndBoundary = otherSuffix }
        }
        if suffix == boundary || otherSuffix == otherBoundary {
            // One middle is empty: the shared end may start right there.
            if endBoundary == a.endIndex { endBoundary = suffix; otherEndBoundary = otherSuffix }
        }
        // Whole characters: a boundary after ASCII whitespace is one, in any text.
        oldMiddle = boundary..<max(boundary, endBoundary)
        newMiddle = otherBoundary..<max(otherBoundary, otherEndBoundary)
        prefixUnits = old.utf16.distance(from: old.startIndex, to: boundary)
        oldUnits = old.utf16.count
        newUnits = new.utf16.count
        suffixUnits = old.utf16.distance(from: oldMiddle.upperBound, to: old.endIndex)
    }
}
