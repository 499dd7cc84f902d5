@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Writes the IR as semantic HTML5: nested lists from depths, block quotes from quote depths,
/// properly nested inline elements, every attribute double-quoted and escaped, URLs through the
/// URL policy. The output reads back through ``HTMLReader`` as the same IR.
public struct HTMLWriter: DocumentWriter {
    public struct Options: Hashable, Sendable {
        /// A whole document with a UTF-8 `meta` tag, instead of a fragment.
        public var standalone: Bool
        public var urlPolicy: URLPolicy

        public init(standalone: Bool = false, urlPolicy: URLPolicy = .default) {
            self.standalone = standalone
            self.urlPolicy = urlPolicy
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    /// The document as HTML; `invalid-document` when it is not one every reader reads back
    /// (see ``Document/checkWritable()``).
    public func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try document.checkWritable()
        var written = writeChecked(document)
        // Stopped at the deadline or on cancellation: what was written is cut short, and never returned.
        try ConversionDeadline.check()
        written.diagnostics += Self.readBackChanges(document.blocks, urlPolicy: options.urlPolicy)
        return written
    }

    /// The same for a document already checked (the Markdown writer's HTML blocks).
    package func writeChecked(_ document: Document) -> Diagnosed<[UInt8]> {
        var emitter = HTMLBlockEmitter(urlPolicy: options.urlPolicy)
        emitter.looseItems = document.blocks.itemsOfLooseLists()
        // Reserved once, and the page's head and foot written around the blocks in place: an
        // output that outgrows its buffer, or is copied into a page, is held twice for a moment.
        emitter.out.reserveCapacity(document.estimatedWrittenSize(perBlock: 24, perMarkup: 24))
        if options.standalone {
            emitter.out.append(contentsOf: "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title></title>\n</head>\n<body>\n".utf8)
        }
        emitter.write(document.blocks, events: document.blockEvents)
        if options.standalone { emitter.out.append(contentsOf: "</body>\n</html>\n".utf8) }
        return Diagnosed(emitter.out, diagnostics: emitter.inline.diagnostics)
    }

    /// An empty list item's paragraph (or image, or an embed the policy has written as a
    /// paragraph), which `<li><p>x</p></li>` makes the item's own text: written as given, said
    /// so that nothing changes unreported (the Markdown writer says the same). Formatting on
    /// whitespace is said by the inline renderer, which passes its edges.
    static func readBackChanges(_ blocks: [Block], urlPolicy: URLPolicy) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for index in blocks.indices.dropFirst() {
            // An image block is written as `<p><img></p>` (with a caption, a `<figure>`), which
            // reads back as the item's image.
            let merged: (what: String, element: String)? = switch blocks[index].kind {
            case .paragraph, .blockquote: ("paragraph", "<p>")
            case .image: blocks[index].text.isEmpty ? ("image", "<p>") : ("captioned image", "<figure>")
            case .embed(let embed) where blocks[index].isFirstInEmptyItem(blocks[index - 1]):
                // As the block emitter decides: a refused host makes a link paragraph, a
                // rejected source leaves the block's text as a paragraph. Checked only here,
                // where it can merge: the emitter checks every embed's source already.
                switch urlPolicy.check(embed.src, for: .embed(embed.kind)) {
                case .allowed: nil
                case .linkOnly: ("embed", "a link in <p>")
                case .rejected: blocks[index].text.isEmpty ? nil : ("embed's text", "<p>")
                }
            default: nil
            }
            if let merged, blocks[index].isFirstInEmptyItem(blocks[index - 1]) {
                diagnostics.append(.warning("empty-item-merged", "list item at block \(index - 1) is empty and the \(merged.what) in it at block \(index) is written inside it as \(merged.element): read back, that \(merged.what) is the item's own text", block: index - 1))
            }
        }
        return diagnostics
    }

    /// The block's anchor as an `id` attribute, escaped (sanitized already, so only to be safe).
    static func anchorAttribute(for block: Block) -> String {
        guard let anchor = block.anchor else { return "" }
        return " id=\"\(HTMLEscaping.attribute(anchor))\""
    }

    /// Alignment, and `white-space:pre-wrap` where the text has whitespace that collapsing
    /// would lose (leading, trailing or repeated spaces, tabs, form feeds).
    static func style(for block: Block) -> String {
        var declarations: [String] = []
        if let alignment = block.alignment { declarations.append("text-align:\(alignment.rawValue)") }
        if case .codeBlock = block.kind {} else if needsPreservedWhitespace(block.text) || codeSpanTouchesSpace(block) {
            declarations.append("white-space:pre-wrap")
        }
        return declarations.isEmpty ? "" : " style=\"\(declarations.joined(separator: ";"))\""
    }

    /// A code span's edge spaces are content, and collapsing would move them out of it.
    static func codeSpanTouchesSpace(_ block: Block) -> Bool {
        var edges: [Int] = []
        for markup in block.markups where markup.kind == .code {
            edges += [markup.range.start, markup.range.end - 1, markup.range.start - 1, markup.range.end]
        }
        // A tab counts too, but any tab already makes `needsPreservedWhitespace` true.
        return !edges.isEmpty && Block.hasWhitespace(atUTF16Offsets: edges, in: block.text)
    }

    static func needsPreservedWhitespace(_ text: String) -> Bool {
        needsPreservedWhitespace(text.utf8.span)
    }

    private static func needsPreservedWhitespace(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        let first = bytes[0]
        if first == 0x20 || first == 0x09 || first == 0x0C || first == 0x0D || bytes[bytes.count - 1] == 0x20 { return true }
        // Sixteen bytes at a time, each against the byte before it (the block one byte back):
        // a tab, form feed or carriage return, a space after a space or a line feed, or a line
        // feed after a space. The first byte, checked above, and the tail go byte by byte.
        typealias Block = SIMD16<UInt8>
        let tab = Block(repeating: 0x09), lineFeed = Block(repeating: 0x0A), formFeed = Block(repeating: 0x0C)
        let carriageReturn = Block(repeating: 0x0D), space = Block(repeating: 0x20)
        var index = 1
        while index + 16 <= bytes.count {
            let block = ByteScan.loadBlock(bytes, at: index)
            let before = ByteScan.loadBlock(bytes, at: index - 1)
            let controls = (block .== tab) .| (block .== formFeed) .| (block .== carriageReturn)
            let spaceAfter = (block .== space) .& ((before .== space) .| (before .== lineFeed))
            let lineFeedAfterSpace = (block .== lineFeed) .& (before .== space)
            if ByteScan.anyLane(controls .| spaceAfter .| lineFeedAfterSpace) { return true }
            index += 16
        }
        var previous: UInt8? = bytes[index - 1]
        for position in index..<bytes.count {
            let byte = bytes[position]
            switch byte {
            case 0x09, 0x0C, 0x0D:
                return true
            case 0x20 where previous == nil || previous == 0x20 || previous == 0x0A:
                return true
            case 0x0A where previous == 0x20:
                return true
            default:
                break
            }
            previous = byte
        }
        return previous == 0x20
    }
}
