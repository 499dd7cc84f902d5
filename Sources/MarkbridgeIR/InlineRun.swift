/// A stretch of a block's text with the same markups over all of it, from
/// ``Block/inlineRuns(in:)``: what a renderer of its own writes, one run at a time.
public struct InlineRun: Hashable, Sendable {
    /// The run's text, a part of the block's: for an image, its U+FFFC alone.
    public var text: Substring
    /// Where the run lies in the block's text, in UTF-16 code units (`NSRange`'s).
    public var range: TextRange
    /// The markups over the whole run, outermost first (as the HTML writer nests them: a
    /// markup that crosses another is split, and goes on in the next run); an image's run
    /// has its ``MarkupKind/image(_:)`` markup last.
    public var markups: [Markup]
}

extension Block {
    /// The block's text cut where its markups begin and end, each run with the markups over it:
    /// the inline walk every writer of this package makes, as values. Runs cover the text in
    /// order without gaps and are never empty; an image markup makes a run of its own only
    /// over a U+FFFC (elsewhere it is passed over, as writers pass it over), and an offset
    /// inside a surrogate pair is no boundary. With `range`, only the runs over it, cut at its
    /// edges (a table cell's text, say: ``TableCell/range``).
    public func inlineRuns(in range: TextRange? = nil) -> [InlineRun] {
        // The walk, in UTF-8 byte ranges of the text, and the markups open over each.
        var pieces: [(bytes: Range<Int>, markups: [Int], image: Int?)] = []
        var open: [Int] = []
        let text = self.text
        // The one place the block's bytes are seen: only offsets leave the walk.
        do {
            let bytes = text.utf8.span
            InlineTraversal.walk(bytes, markups: markups) { event in
                switch event {
                case .text(let run): pieces.append((run, open, nil))
                case .open(let markup): open.append(markup)
                case .close(let markup): if let position = open.lastIndex(of: markup) { open.remove(at: position) }
                case .image(let markup):
                    // Its U+FFFC, which the walk passes over: the run before ends where it begins.
                    let start = pieces.last?.bytes.upperBound ?? 0
                    pieces.append((start..<start + 3, open, markup))
                }
            }
        }
        var runs: [InlineRun] = []
        runs.reserveCapacity(pieces.count)
        let utf8 = text.utf8
        var offset = 0
        var byteIndex = utf8.startIndex
        var byteOffset = 0
        for piece in pieces {
            // The walk leaves no gap but an image's U+FFFC, which has a piece of its own.
            let start = utf8.index(byteIndex, offsetBy: piece.bytes.lowerBound - byteOffset)
            let end = utf8.index(start, offsetBy: piece.bytes.count)
            byteIndex = end
            byteOffset = piece.bytes.upperBound
            let runText = Substring(text[start..<end])
            let length = runText.utf16.count
            var over = piece.markups.map { markups[$0] }
            if let image = piece.image { over.append(markups[image]) }
            runs.append(InlineRun(text: runText, range: TextRange(start: offset, end: offset + length), markups: over))
            offset += length
        }
        guard let range else { return runs }
        return runs.compactMap { run in
            let start = max(run.range.start, range.start), end = min(run.range.end, range.end)
            guard start < end else { return nil }
            if start == run.range.start && end == run.range.end { return run }
            let units = run.text.utf16
            let from = units.index(units.startIndex, offsetBy: start - run.range.start)
            let to = units.index(from, offsetBy: end - start)
            return InlineRun(text: run.text[from..<to], range: TextRange(start: start, end: end), markups: run.markups)
        }
    }
}
