@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Writes a block's text with its markups as properly nested inline elements, from the IR's
/// one inline traversal (``InlineTraversal``), which splits crossing markups.
package struct HTMLInlineRenderer {
    let urlPolicy: URLPolicy
    var diagnostics: [Diagnostic] = []
    /// Per markup of the block being written, whether it opened yet and whether it begins or
    /// ends on whitespace; and the markups opened since the last text. Kept from block to block.
    private var edges: [UInt8] = []
    private var awaitingText: [Int] = []

    init(urlPolicy: URLPolicy) {
        self.urlPolicy = urlPolicy
    }

    mutating func render(_ block: Block, blockIndex: Int, preformatted: Bool, into out: inout [UInt8]) {
        let markups = block.markups.filter { markup in
            switch markup.kind {
            case .link(let target):
                if case .rejected(let reason) = urlPolicy.check(target.href, for: .link) {
                    diagnostics.append(.warning("unsafe-url", "link \(markup.range) in block \(blockIndex) not written, its text kept: \(reason)", block: blockIndex))
                    return false
                }
                return true
            case .code:
                // Inside <pre> a code span is the block's own code.
                return !preformatted
            case .strong, .emphasis, .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .image,
                 .hashtag, .mention:
                // An image's URL is checked where its tag is written.
                return true
            }
        }
        let text = block.text
        // Formatting that begins or ends on whitespace is written as given, and HTML readers
        // (ours among them) move the whitespace out of it: the byte after a markup's first
        // opening and the last before its last closing are looked at as the walk passes them,
        // so the check costs no pass of its own.
        edges.removeAll(keepingCapacity: true)
        edges.append(contentsOf: repeatElement(0, count: markups.count))
        awaitingText.removeAll(keepingCapacity: true)
        var lastContentIsSpace = false
        do {
            let bytes = text.utf8.span
            InlineTraversal.walk(bytes, markups: markups) { event in
                switch event {
                case .text(let range):
                    HTMLEscaping.appendText(bytes.extracting(range), to: &out, preformatted: preformatted)
                    guard !range.isEmpty else { return }
                    if !awaitingText.isEmpty {
                        if Self.isSpace(bytes[range.lowerBound]) { for index in awaitingText { edges[index] |= Self.startsOnSpace } }
                        awaitingText.removeAll(keepingCapacity: true)
                    }
                    lastContentIsSpace = Self.isSpace(bytes[range.upperBound - 1])
                case .open(let index):
                    Self.appendOpenTag(markups[index].kind, to: &out)
                    if edges[index] & Self.opened == 0 {
                        edges[index] |= Self.opened
                        awaitingText.append(index)
                    }
                case .close(let index):
                    Self.appendCloseTag(markups[index].kind, to: &out)
                    edges[index] = lastContentIsSpace ? edges[index] | Self.endsOnSpace : edges[index] & ~Self.endsOnSpace
                case .image(let index):
                    if case .image(let image) = markups[index].kind { out.append(contentsOf: imageTag(image).utf8) }
                    awaitingText.removeAll(keepingCapacity: true)
                    lastContentIsSpace = false
                }
            }
        }
        for (index, markup) in markups.enumerated() where edges[index] & (Self.startsOnSpace | Self.endsOnSpace) != 0 && markup.kind.trimsWhitespaceEdges {
            diagnostics.append(.warning("markup-range-adjusted",
                "\(markup.kind.name) \(markup.range) in block \(blockIndex) begins or ends on whitespace, written so; read back, the whitespace is outside it", block: blockIndex))
        }
    }

    private static let opened: UInt8 = 1, startsOnSpace: UInt8 = 2, endsOnSpace: UInt8 = 4

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A
    }

    func imageTag(_ image: ImageSource) -> String {
        Self.imageTag(image)
    }

    /// `<img src alt title width height>`, with what the image has of them; for the Markdown
    /// writer too, which writes an image with a size as this inline HTML.
    package static func imageTag(_ image: ImageSource) -> String {
        var tag = "<img src=\"\(HTMLEscaping.attribute(image.src))\""
        if let alt = image.alt { tag += " alt=\"\(HTMLEscaping.attribute(alt))\"" }
        if let title = image.title { tag += " title=\"\(HTMLEscaping.attribute(title))\"" }
        if let width = image.width { tag += " width=\"\(width)\"" }
        if let height = image.height { tag += " height=\"\(height)\"" }
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

    /// The start tag for `kind`, appended: the fixed ones from static text, a link's written
    /// in place (the commonest tag with attributes), the rest built as strings.
    static func appendOpenTag(_ kind: MarkupKind, to out: inout [UInt8]) {
        switch kind {
        case .link(let target):
            out.append("<a href=\"")
            out.append(contentsOf: HTMLEscaping.attribute(target.href).utf8)
            if let title = target.title {
                out.append("\" title=\"")
                out.append(contentsOf: HTMLEscaping.attribute(title).utf8)
            }
            out.append("\">")
        case .color(let color): out.append(contentsOf: "<span style=\"color:\(color.hex)\">".utf8)
        case .background(let color): out.append(contentsOf: "<span style=\"background-color:\(color.hex)\">".utf8)
        case .hashtag, .mention: out.append(contentsOf: HTMLEntitySpan.startTag(kind).utf8)
        // An image is written as a tag of its own.
        case .image: break
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight:
            if let fixed = fixedOpenTag(kind) { out.append(fixed) }
        }
    }

    static func appendCloseTag(_ kind: MarkupKind, to out: inout [UInt8]) {
        out.append(closeTagText(kind))
    }

    static func openTag(_ kind: MarkupKind) -> String {
        var tag: [UInt8] = []
        appendOpenTag(kind, to: &tag)
        return String(decoding: tag, as: UTF8.self)
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
        case .link, .color, .background, .image, .hashtag, .mention: nil
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
        case .color, .background, .hashtag, .mention: "</span>"
        case .image: ""
        }
    }
}
