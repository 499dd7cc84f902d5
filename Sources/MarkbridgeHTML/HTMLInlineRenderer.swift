@_spi(Bytes) import MarkbridgeBytes
import MarkbridgeIR

/// Writes a block's text with its markups as properly nested inline elements. Overlapping
/// markups are split where they cross: at each offset the elements that end there are closed
/// (with those opened inside them), then reopened if they go on, longest first, which keeps
/// the number of splits low; markups starting at an offset open longest first, as outer ones.
public struct HTMLInlineRenderer {
    let urlPolicy: URLPolicy
    var diagnostics: [Diagnostic] = []

    init(urlPolicy: URLPolicy) {
        self.urlPolicy = urlPolicy
    }

    mutating func render(_ block: Block, blockIndex: Int, preformatted: Bool, into out: inout [UInt8]) {
        let markups = block.markups.filter { markup in
            switch markup.kind {
            case .link(let target):
                if case .rejected(let reason) = urlPolicy.check(target.href, for: .link) {
                    diagnostics.append(.warning("unsafe-url", "link \(markup.range) in block \(blockIndex) not written, its text kept: \(reason)"))
                    return false
                }
                return true
            case .code:
                // Inside <pre> a code span is the block's own code.
                return !preformatted
            case .strong, .emphasis, .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .image:
                // An image's URL is checked where its tag is written.
                return true
            }
        }
        var images: [Int: ImageSource] = [:]
        var spans: [Markup] = []
        for markup in markups {
            if case .image(let image) = markup.kind {
                if images[markup.range.start] == nil { images[markup.range.start] = image }
            } else {
                spans.append(markup)
            }
        }
        var state = RunState(spans: spans)
        // Boundaries are where a span starts or ends or an image stands, in UTF-16 offsets;
        // the text between two of them is escaped in one piece.
        var boundaries: [Int] = []
        boundaries.reserveCapacity(spans.count * 2 + images.count)
        for span in spans {
            boundaries.append(span.range.start)
            boundaries.append(span.range.end)
        }
        boundaries.append(contentsOf: images.keys)
        boundaries.sort()
        var text = block.text
        text.withUTF8 { buffer in
            let bytes = UnsafeBufferPointer(start: buffer.baseAddress, count: buffer.count)
            var walk = UTF16Walk()
            var runStart = 0
            var previous = -1
            for here in boundaries where here != previous {
                previous = here
                // A boundary inside a surrogate pair is none; one at the end is the closing.
                guard let byteIndex = walk.advance(to: here, in: bytes), byteIndex < bytes.count else { continue }
                HTMLEscaping.appendText(Self.slice(bytes, runStart..<byteIndex), to: &out, preformatted: preformatted)
                runStart = byteIndex
                state.boundary(at: here, out: &out)
                if let image = images[here], byteIndex + 2 < bytes.count,
                   bytes[byteIndex] == 0xEF, bytes[byteIndex + 1] == 0xBF, bytes[byteIndex + 2] == 0xBC {
                    out.append(contentsOf: imageTag(image).utf8)
                    runStart = byteIndex + 3
                }
            }
            HTMLEscaping.appendText(Self.slice(bytes, runStart..<bytes.count), to: &out, preformatted: preformatted)
        }
        state.closeAll(out: &out)
    }

    /// Bytes of a buffer as an array slice, for the escaping that takes one.
    private static func slice(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ArraySlice<UInt8> {
        ArraySlice(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The open elements while a block is written, and the opening and closing at offsets.
    private struct RunState {
        let spans: [Markup]
        /// Span indices by start offset (ties in span order), and the next one to look at: the
        /// boundaries come in increasing order, so a cursor finds the spans that start at one
        /// (a dictionary of arrays cost two allocations a span).
        var byStart: [Int]
        var nextStart = 0
        var open: [Int] = []

        init(spans: [Markup]) {
            self.spans = spans
            byStart = Array(spans.indices)
            // Canonical blocks have their markups in start order already.
            if !spans.indices.dropFirst().allSatisfy({ spans[$0 - 1].range.start <= spans[$0].range.start }) {
                byStart.sort { (spans[$0].range.start, $0) < (spans[$1].range.start, $1) }
            }
        }

        /// Close down to the deepest open markup that ends here, reopening those that go on
        /// (longest first), then open the markups starting here.
        mutating func boundary(at offset: Int, out: inout [UInt8]) {
            if let deepest = open.firstIndex(where: { spans[$0].range.end == offset }) {
                let closing = open[deepest...]
                for markup in closing.reversed() { HTMLInlineRenderer.appendCloseTag(spans[markup].kind, to: &out) }
                // Usually everything closed here ends here; only crossing markups reopen.
                let reopen = closing.contains { spans[$0].range.end > offset }
                    ? closing.filter { spans[$0].range.end > offset }.sorted { spans[$0].range.end > spans[$1].range.end }
                    : []
                open.removeSubrange(deepest...)
                for markup in reopen {
                    HTMLInlineRenderer.appendOpenTag(spans[markup].kind, to: &out)
                    open.append(markup)
                }
            }
            // Spans that start before this offset started where no boundary was taken (inside
            // a surrogate pair): they are passed over, as they always were.
            while nextStart < byStart.count, spans[byStart[nextStart]].range.start <= offset {
                let markup = byStart[nextStart]
                nextStart += 1
                guard spans[markup].range.start == offset, spans[markup].range.end > offset else { continue }
                HTMLInlineRenderer.appendOpenTag(spans[markup].kind, to: &out)
                open.append(markup)
            }
        }

        mutating func closeAll(out: inout [UInt8]) {
            for markup in open.reversed() { HTMLInlineRenderer.appendCloseTag(spans[markup].kind, to: &out) }
            open.removeAll()
        }
    }

    func imageTag(_ image: ImageSource) -> String {
        var tag = "<img src=\"\(HTMLEscaping.attribute(image.src))\""
        if let alt = image.alt { tag += " alt=\"\(HTMLEscaping.attribute(alt))\"" }
        if let title = image.title { tag += " title=\"\(HTMLEscaping.attribute(title))\"" }
        return tag + ">"
    }

    /// The start tag for a markup, for other writers that embed inline HTML.
    public static func startTag(_ kind: MarkupKind) -> String {
        openTag(kind)
    }

    /// The end tag for a markup.
    public static func endTag(_ kind: MarkupKind) -> String {
        closeTag(kind)
    }

    /// The start tag for `kind`, appended: the fixed ones from static text.
    static func appendOpenTag(_ kind: MarkupKind, to out: inout [UInt8]) {
        guard let fixed = fixedOpenTag(kind) else {
            out.append(contentsOf: openTag(kind).utf8)
            return
        }
        fixed.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func appendCloseTag(_ kind: MarkupKind, to out: inout [UInt8]) {
        closeTagText(kind).withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func openTag(_ kind: MarkupKind) -> String {
        if let fixed = fixedOpenTag(kind) { return fixed.description }
        switch kind {
        case .link(let target):
            return "<a href=\"\(HTMLEscaping.attribute(target.href))\"" + (target.title.map { " title=\"\(HTMLEscaping.attribute($0))\"" } ?? "") + ">"
        case .color(let color): return "<span style=\"color:\(color.hex)\">"
        case .background(let color): return "<span style=\"background-color:\(color.hex)\">"
        // Written as fixed tags above, or (an image) as a tag of its own.
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight, .image: return ""
        }
    }

    /// The start tag of a kind that has no attributes; nil for links and colors (and images,
    /// which are written as tags of their own).
    private static func fixedOpenTag(_ kind: MarkupKind) -> StaticString? {
        switch kind {
        case .strong: "<strong>"
        case .emphasis: "<em>"
        case .code: "<code>"
        case .strike: "<s>"
        case .underline: "<u>"
        case .superscript: "<sup>"
        case .subscript: "<sub>"
        case .highlight: "<mark>"
        case .link, .color, .background, .image: nil
        }
    }

    static func closeTag(_ kind: MarkupKind) -> String {
        closeTagText(kind).description
    }

    private static func closeTagText(_ kind: MarkupKind) -> StaticString {
        switch kind {
        case .strong: "</strong>"
        case .emphasis: "</em>"
        case .code: "</code>"
        case .link: "</a>"
        case .strike: "</s>"
        case .underline: "</u>"
        case .superscript: "</sup>"
        case .subscript: "</sub>"
        case .highlight: "</mark>"
        case .color, .background: "</span>"
        case .image: ""
        }
    }
}
