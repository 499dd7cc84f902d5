@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// A block's inline content as the one sequence of events every writer consumes, in the manner
/// of cmark's iterator: runs of text, markups opened and closed, and images where their U+FFFC
/// stands. Crossing markups are already split into properly nested runs: at each offset the
/// markups that end there are closed (with those opened inside them), then the ones that go on
/// are reopened, longest first, which keeps the splits few; markups starting at an offset open
/// in canonical order (longest first, so outer ones first). A writer is one switch over
/// ``Event``. For this package's writers only, hence SPI.
@_spi(InlineTraversal) public enum InlineTraversal {
    public enum Event: Equatable {
        /// The block text's UTF-8 bytes in this range, which holds no image.
        case text(Range<Int>)
        /// The markup at this index of the given markups opens, or closes.
        case open(Int)
        case close(Int)
        /// The image markup at this index stands here, in place of its U+FFFC.
        case image(Int)
    }

    /// Walks `markups` over `bytes`, the UTF-8 of their block's text. An offset inside a
    /// surrogate pair is no boundary (a markup starting there opens at the next one); an image
    /// markup counts only over a U+FFFC (the first of several at one place), else it is text.
    @inlinable
    public static func walk(_ bytes: Span<UInt8>, markups: [Markup], _ visit: (Event) -> Void) {
        // Spans and images apart, each in markup order; boundaries are where a span starts or
        // ends or an image stands, in UTF-16 offsets: the text between two of them is one run.
        var spans: [Int] = []
        spans.reserveCapacity(markups.count)
        var images: [Int] = []
        var boundaries: [Int] = []
        boundaries.reserveCapacity(markups.count * 2)
        for index in markups.indices {
            let range = markups[index].range
            if case .image = markups[index].kind {
                images.append(index)
                boundaries.append(range.start)
            } else {
                spans.append(index)
                boundaries.append(range.start)
                boundaries.append(range.end)
            }
        }
        boundaries.sort()
        // Spans and images by start offset (ties in the order given, which canonical blocks
        // already have): the boundaries come in increasing order, so a cursor finds those that
        // start at one.
        var byStart = spans
        if !spans.indices.dropFirst().allSatisfy({ markups[spans[$0 - 1]].range.start <= markups[spans[$0]].range.start }) {
            byStart.sort { (markups[$0].range.start, $0) < (markups[$1].range.start, $1) }
        }
        if !images.indices.dropFirst().allSatisfy({ markups[images[$0 - 1]].range.start <= markups[images[$0]].range.start }) {
            images.sort { (markups[$0].range.start, $0) < (markups[$1].range.start, $1) }
        }
        var nextImage = 0
        var nextStart = 0
        var open: [Int] = []
        open.reserveCapacity(min(spans.count, 16))
        var walk = UTF16Walk()
        var runStart = 0
        var previous = -1
        for here in boundaries where here != previous {
            previous = here
            // A boundary inside a surrogate pair is none; one at the end is the closing.
            guard let byteIndex = walk.advance(to: here, in: bytes), byteIndex < bytes.count else { continue }
            if byteIndex > runStart { visit(.text(runStart..<byteIndex)) }
            runStart = byteIndex
            // Close down to the deepest open markup that ends here, reopening those that go on.
            if let deepest = open.firstIndex(where: { markups[$0].range.end == here }) {
                for position in stride(from: open.count - 1, through: deepest, by: -1) { visit(.close(open[position])) }
                // Usually everything closed here ends here; only crossing markups reopen.
                let reopen = open[deepest...].contains { markups[$0].range.end > here }
                    ? open[deepest...].filter { markups[$0].range.end > here }.sorted { markups[$0].range.end > markups[$1].range.end }
                    : []
                open.removeSubrange(deepest...)
                for markup in reopen {
                    visit(.open(markup))
                    open.append(markup)
                }
            }
            // Spans that start before this offset started where no boundary was taken (inside
            // a surrogate pair): they are passed over.
            while nextStart < byStart.count, markups[byStart[nextStart]].range.start <= here {
                let markup = byStart[nextStart]
                nextStart += 1
                guard markups[markup].range.start == here, markups[markup].range.end > here else { continue }
                visit(.open(markup))
                open.append(markup)
            }
            // The first image at this offset stands here; images at an offset passed over (inside
            // a surrogate pair) and the others at this one are text.
            while nextImage < images.count, markups[images[nextImage]].range.start < here { nextImage += 1 }
            if nextImage < images.count, markups[images[nextImage]].range.start == here {
                let image = images[nextImage]
                while nextImage < images.count, markups[images[nextImage]].range.start == here { nextImage += 1 }
                if ObjectReplacement.begins(at: byteIndex, in: bytes) {
                    visit(.image(image))
                    runStart = byteIndex + 3
                }
            }
        }
        if bytes.count > runStart { visit(.text(runStart..<bytes.count)) }
        for markup in open.reversed() { visit(.close(markup)) }
    }
}
