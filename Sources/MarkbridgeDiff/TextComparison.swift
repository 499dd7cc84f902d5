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

    init(_ old: String, _ new: String, ignoresWhitespace: Bool) {
        let oldTokens = TextTokens(old).tokens, newTokens = TextTokens(new).tokens
        var identities: [Substring: Int] = [:]
        func identity(_ token: TextTokens.Token) -> Int {
            // With whitespace ignored, every run of it is the same token.
            let text = ignoresWhitespace && token.isSpace ? " " : token.text
            if let known = identities[text] { return known }
            identities[text] = identities.count
            return identities.count - 1
        }
        let steps = SequenceAlignment.align(oldTokens.map(identity), newTokens.map(identity))

        var oldOffset = 0, newOffset = 0
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
