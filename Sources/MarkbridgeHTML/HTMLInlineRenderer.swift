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

    mutating func render(_ block: Block, blockIndex: Int, preformatted: Bool, into out: inout String) {
        let markups = block.markups.filter { markup in
            switch markup.kind {
            case .link(let target):
                if case .rejected(let reason) = urlPolicy.check(target.href, for: .link) {
                    diagnostics.append(.warning("unsafe-url", "link \(markup.range) in block \(blockIndex) not written, its text kept: \(reason)"))
                    return false
                }
                return true
            case .code where preformatted:
                return false
            default:
                return true
            }
        }
        let images = Dictionary(markups.compactMap { markup -> (Int, ImageSource)? in
            if case .image(let image) = markup.kind { return (markup.range.start, image) }
            return nil
        }, uniquingKeysWith: { first, _ in first })
        let spans = markups.filter { if case .image = $0.kind { false } else { true } }
        var starts: [Int: [Int]] = [:]
        for (index, markup) in spans.enumerated() { starts[markup.range.start, default: []].append(index) }
        var state = RunState(spans: spans, starts: starts, renderer: self)
        let text = block.text
        let scalars = text.unicodeScalars
        var runStart = scalars.startIndex
        var index = scalars.startIndex
        var offset = 0
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if state.hasBoundary(at: offset) || images[offset] != nil {
                if runStart < index { HTMLEscaping.appendText(text[runStart..<index], to: &out, preformatted: preformatted) }
                state.boundary(at: offset, out: &out)
                runStart = index
            }
            let next = scalars.index(after: index)
            if let image = images[offset], scalar == "\u{FFFC}" {
                if runStart < index { HTMLEscaping.appendText(text[runStart..<index], to: &out, preformatted: preformatted) }
                out += imageTag(image)
                runStart = next
            }
            offset += scalar.value > 0xFFFF ? 2 : 1
            index = next
        }
        if runStart < scalars.endIndex { HTMLEscaping.appendText(text[runStart...], to: &out, preformatted: preformatted) }
        state.closeAll(out: &out)
    }

    /// The open elements while a block is written, and the opening and closing at offsets.
    private struct RunState {
        let spans: [Markup]
        let starts: [Int: [Int]]
        let renderer: HTMLInlineRenderer
        var open: [Int] = []

        init(spans: [Markup], starts: [Int: [Int]], renderer: HTMLInlineRenderer) {
            self.spans = spans
            self.starts = starts
            self.renderer = renderer
        }

        func hasBoundary(at offset: Int) -> Bool {
            starts[offset] != nil || open.contains { spans[$0].range.end == offset }
        }

        /// Close down to the deepest open markup that ends here, reopening those that go on
        /// (longest first), then open the markups starting here.
        mutating func boundary(at offset: Int, out: inout String) {
            if let deepest = open.firstIndex(where: { spans[$0].range.end == offset }) {
                let closing = open[deepest...]
                for markup in closing.reversed() { out += HTMLInlineRenderer.closeTag(spans[markup].kind) }
                let reopen = closing.filter { spans[$0].range.end > offset }.sorted { spans[$0].range.end > spans[$1].range.end }
                open.removeSubrange(deepest...)
                for markup in reopen {
                    out += renderer.openTag(spans[markup].kind)
                    open.append(markup)
                }
            }
            for markup in starts[offset] ?? [] where spans[markup].range.end > offset {
                out += renderer.openTag(spans[markup].kind)
                open.append(markup)
            }
        }

        mutating func closeAll(out: inout String) {
            for markup in open.reversed() { out += HTMLInlineRenderer.closeTag(spans[markup].kind) }
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
        HTMLInlineRenderer(urlPolicy: .unrestricted).openTag(kind)
    }

    /// The end tag for a markup.
    public static func endTag(_ kind: MarkupKind) -> String {
        closeTag(kind)
    }

    func openTag(_ kind: MarkupKind) -> String {
        switch kind {
        case .strong: "<strong>"
        case .emphasis: "<em>"
        case .code: "<code>"
        case .link(let target):
            "<a href=\"\(HTMLEscaping.attribute(target.href))\"" + (target.title.map { " title=\"\(HTMLEscaping.attribute($0))\"" } ?? "") + ">"
        case .strike: "<s>"
        case .underline: "<u>"
        case .superscript: "<sup>"
        case .subscript: "<sub>"
        case .highlight: "<mark>"
        case .color(let color): "<span style=\"color:\(color.hex)\">"
        case .background(let color): "<span style=\"background-color:\(color.hex)\">"
        case .image: ""
        }
    }

    static func closeTag(_ kind: MarkupKind) -> String {
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
