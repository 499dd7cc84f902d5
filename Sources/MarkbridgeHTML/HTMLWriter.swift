import MarkbridgeIR

/// Writes the IR as semantic HTML5: nested lists from depths, block quotes from quote depths,
/// properly nested inline elements, every attribute double-quoted and escaped, URLs through the
/// URL policy. The output reads back through ``HTMLReader`` as the same IR.
public struct HTMLWriter: Sendable {
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

    /// An open container around blocks.
    private enum Container: Equatable {
        case quote
        case list(ordered: Bool)
        case item
    }

    public func write(_ document: Document) -> Diagnosed<[UInt8]> {
        var out = ""
        var inline = HTMLInlineRenderer(urlPolicy: options.urlPolicy)
        var open: [Container] = []
        /// The number the next item of each open ordered list would show without a `value`.
        var nextNumbers: [Int] = []

        func close(to count: Int) {
            while open.count > count {
                switch open.removeLast() {
                case .quote: out += "</blockquote>\n"
                case .list(let ordered):
                    out += ordered ? "</ol>\n" : "</ul>\n"
                    nextNumbers.removeLast()
                case .item: out += "</li>\n"
                }
            }
        }

        for (index, block) in document.blocks.enumerated() {
            var target: [Container] = Array(repeating: .quote, count: block.quoteDepth)
            let base = target.count
            for level in 0..<block.depth {
                let position = base + level * 2
                let existing = position < open.count ? open[position] : nil
                if case .list(let ordered)? = existing { target.append(.list(ordered: ordered)) } else { target.append(.list(ordered: false)) }
                target.append(.item)
            }
            var itemNumber: Int?
            switch block.kind {
            case .unorderedListItem: target.append(.list(ordered: false))
            case .orderedListItem(let number):
                target.append(.list(ordered: true))
                itemNumber = number
            default: break
            }
            var common = 0
            while common < open.count, common < target.count, open[common] == target[common] { common += 1 }
            close(to: common)
            for container in target[common...] {
                open.append(container)
                switch container {
                case .quote: out += "<blockquote>\n"
                case .list(let ordered):
                    if ordered {
                        let start = itemNumber ?? 1
                        out += start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n"
                        nextNumbers.append(start)
                    } else {
                        out += "<ul>\n"
                        nextNumbers.append(1)
                    }
                case .item: out += "<li>"
                }
            }
            writeBlock(block, index: index, itemNumber: itemNumber, nextNumbers: &nextNumbers, open: &open, out: &out, inline: &inline)
        }
        close(to: 0)
        if options.standalone {
            out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title></title>\n</head>\n<body>\n" + out + "</body>\n</html>\n"
        }
        return Diagnosed(Array(out.utf8), diagnostics: inline.diagnostics)
    }

    private func writeBlock(
        _ block: Block, index: Int, itemNumber: Int?, nextNumbers: inout [Int], open: inout [Container],
        out: inout String, inline: inout HTMLInlineRenderer
    ) {
        let style = Self.style(for: block)
        switch block.kind {
        case .paragraph, .blockquote:
            out += "<p\(style)>"
            writeInline(block, index: index, out: &out, inline: &inline)
            out += "</p>\n"
        case .heading(let level):
            out += "<h\(level)\(style)>"
            writeInline(block, index: index, out: &out, inline: &inline)
            out += "</h\(level)>\n"
        case .unorderedListItem, .orderedListItem:
            var attributes = style
            if let number = itemNumber, let expected = nextNumbers.last, number != expected { attributes += " value=\"\(number)\"" }
            if let number = itemNumber, !nextNumbers.isEmpty { nextNumbers[nextNumbers.count - 1] = number + 1 }
            open.append(.item)
            out += "<li\(attributes)>"
            if !block.text.isEmpty { inline.render(block, blockIndex: index, preformatted: false, into: &out) }
            // A line break that ends an item: one more, as the reader drops the last.
            if block.text.hasSuffix("\n") { out += "<br>" }
        case .codeBlock(let language):
            let attribute = language.map { " class=\"language-\(HTMLEscaping.attribute($0))\"" } ?? ""
            out += "<pre\(style)><code\(attribute)>"
            // The parser drops a newline right after <pre>, and the reader one that ends the block.
            if block.text.hasPrefix("\n") { out += "\n" }
            inline.render(block, blockIndex: index, preformatted: true, into: &out)
            if block.text.hasSuffix("\n") { out += "\n" }
            out += "</code></pre>\n"
        case .image(let image):
            let checked = options.urlPolicy.check(image.src, for: .image)
            guard case .allowed = checked else {
                if case .rejected(let reason) = checked {
                    inline.diagnostics.append(.warning("unsafe-url", "image block \(index) not written: \(reason)"))
                }
                return
            }
            if block.text.isEmpty {
                out += "<p\(style)>\(inline.imageTag(image))</p>\n"
            } else {
                out += "<figure\(style)>\(inline.imageTag(image))<figcaption>"
                inline.render(block, blockIndex: index, preformatted: false, into: &out)
                out += "</figcaption></figure>\n"
            }
        case .horizontalRule:
            out += "<hr>\n"
        }
    }

    /// Paragraph-like content: an empty block is an intentional blank line, written as a lone
    /// `<br>`; a line break that ends the text gets one more `<br>`, since the reader (like a
    /// browser) does not count the last one.
    private func writeInline(_ block: Block, index: Int, out: inout String, inline: inout HTMLInlineRenderer) {
        if block.text.isEmpty {
            out += "<br>"
            return
        }
        inline.render(block, blockIndex: index, preformatted: false, into: &out)
        if block.text.hasSuffix("\n") { out += "<br>" }
    }

    /// Alignment, and `white-space:pre-wrap` where the text has whitespace that collapsing
    /// would lose (leading, trailing or repeated spaces, tabs, form feeds).
    static func style(for block: Block) -> String {
        var declarations: [String] = []
        if let alignment = block.alignment { declarations.append("text-align:\(alignment.rawValue)") }
        if case .codeBlock = block.kind {} else if needsPreservedWhitespace(block.text) {
            declarations.append("white-space:pre-wrap")
        }
        return declarations.isEmpty ? "" : " style=\"\(declarations.joined(separator: ";"))\""
    }

    static func needsPreservedWhitespace(_ text: String) -> Bool {
        var previous: UInt8?
        for byte in text.utf8 {
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
