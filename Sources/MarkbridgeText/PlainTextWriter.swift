@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The plain text a reader sees (the "strip HTML" use): blocks separated by blank lines, list
/// items one a line with a bullet or their number, indented two spaces a level, a table's rows
/// one a line with their cells separated by ` | ` (a list beside another a blank line apart), hard breaks kept, images as their alt text,
/// formatting gone.
public struct PlainTextWriter: DocumentWriter {
    /// None yet: text is written one way. The record is there so that the writer is made as
    /// every writer is, and an option can come without a new initializer.
    public struct Options: Hashable, Sendable {
        public init() {}
    }

    public init(options: Options = Options()) {}

    /// The document's text; `invalid-document` when it is not one our readers could have
    /// produced (see ``Document/checkWritable()``).
    public func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try document.checkWritable()
        // Built over bytes: splitting a `String` at "\n" walks grapheme clusters and compares
        // `Character`s, which cost three quarters of HTML -> text on real content.
        var out: [UInt8] = []
        out.reserveCapacity(document.blocks.reduce(1) { $0 + $1.text.utf8.count + 2 * $1.depth + 8 })
        var previousWasListItem = false
        var replacedControls: [(block: Int, count: Int)] = []
        var countdown = DeadlineCountdown(every: 64)
        for (index, block) in document.blocks.enumerated() {
            if countdown.shouldStop() { break }
            let isListItem = block.kind.isListItem
            let text = Self.visibleText(block)
            if case .image = block.kind, text.isEmpty { continue }
            // A table's rows, and a definition list's terms and definitions, one a line, as list
            // items are (the group's blocks looked at only for those kinds).
            var continuesGroup = false
            if index > 0 {
                switch block.kind {
                case .tableRow(let row): continuesGroup = !row.startsTable && block.continuesTable(after: document.blocks[index - 1])
                case .definitionTerm, .definitionDescription: continuesGroup = block.continuesDefinitionList(after: document.blocks[index - 1])
                // A caption is a paragraph of its own above its table.
                case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableCaption, .horizontalRule: break
                }
            }
            // A list that begins beside another (``Block/containerStart``) is a paragraph apart.
            let continuesList = isListItem && previousWasListItem && block.containerStart == nil
            if !out.isEmpty { out.append(contentsOf: continuesList || continuesGroup ? [0x0A] : [0x0A, 0x0A]) }
            previousWasListItem = isListItem
            // A definition is indented under its term.
            let indent = [UInt8](repeating: 0x20, count: 2 * block.depth + (block.kind.tag == .definitionDescription ? 4 : 0))
            let marker: String
            switch block.kind {
            case .unorderedListItem: marker = "• "
            case .orderedListItem(let number): marker = "\(number). "
            case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule: marker = ""
            }
            // Continuation lines hang under the text, one space per character of the marker.
            let hanging = indent + [UInt8](repeating: 0x20, count: marker.count)
            out.append(contentsOf: indent)
            out.append(contentsOf: marker.utf8)
            let replaced = Self.appendLines(text.utf8.span, hanging: hanging, to: &out)
            if replaced > 0 { replacedControls.append((index, replaced)) }
        }
        // Stopped at the deadline or on cancellation: what was written is cut short, and never returned.
        try countdown.rethrow()
        if !out.isEmpty { out.append(0x0A) }
        guard !replacedControls.isEmpty else { return Diagnosed(out) }
        let total = replacedControls.reduce(0) { $0 + $1.count }
        let blocks = replacedControls.prefix(5).map { "\($0.block)" }.joined(separator: ", ") + (replacedControls.count > 5 ? ", ..." : "")
        return Diagnosed(out, diagnostics: [.warning("control-character-replaced",
            "\(total) control character\(total == 1 ? "" : "s") in block\(replacedControls.count == 1 ? "" : "s") \(blocks) written as U+FFFD (or a CR as a line break): text output carries none but tab and line feed")])
    }

    /// Appends `bytes`, starting each line after the first with `hanging`, and returns how
    /// many control characters it replaced. Text output carries no control character but tab
    /// and line feed, since whatever prints it (a terminal above all) would act on them: a CR
    /// LF or a lone CR ends a line as a line feed does, and every other C0 control, DEL and
    /// every C1 control (U+0080...U+009F, which some terminals also obey) becomes U+FFFD.
    private static func appendLines(_ bytes: Span<UInt8>, hanging: [UInt8], to out: inout [UInt8]) -> Int {
        typealias Block = SIMD16<UInt8>
        let space = Block(repeating: 0x20), delete = Block(repeating: 0x7F), c1Lead = Block(repeating: 0xC2)
        var replaced = 0
        var run = 0
        var index = 0
        while let next = ByteScan.firstIndex(in: bytes, from: index, whereBlock: { block in
            (block .< space) .| (block .== delete) .| (block .== c1Lead)
        }, whereByte: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) {
            let byte = bytes[next]
            index = next + 1
            if byte == 0x09 { continue }
            if byte == 0xC2 {
                // U+0080...U+009F are C2 80...C2 9F; the rest of C2's range is printable.
                guard next + 1 < bytes.count, bytes[next + 1] <= 0x9F else { continue }
                index = next + 2
            }
            out.append(copying: bytes.extracting(run..<next))
            switch byte {
            case 0x0A:
                out.append(0x0A)
                out.append(contentsOf: hanging)
            case 0x0D:
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                out.append(0x0A)
                out.append(contentsOf: hanging)
                replaced += 1
            default:
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                replaced += 1
            }
            run = index
        }
        out.append(copying: bytes.extracting(run...))
        return replaced
    }

    /// The block's text with inline images replaced by their alt text, a rule as `* * *`, and an
    /// embed as its caption or title with its source.
    static func visibleText(_ block: Block) -> String {
        switch block.kind {
        case .horizontalRule: return "* * *"
        case .image(let image): return block.text.isEmpty ? (image.alt ?? "") : block.text
        case .embed(let embed):
            // What it is called, and where to watch it: text has no frame to show it in.
            let label = block.text.isEmpty ? (embed.title ?? "") : Self.visibleText(Block(.paragraph, text: block.text, markups: block.markups))
            return label.isEmpty ? embed.src : "\(label) (\(embed.src))"
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .tableRow, .tableCaption, .definitionTerm, .definitionDescription: break
        }
        // Formatting is gone in text: only images matter, each written as its alt text.
        let images = block.markups.filter { if case .image = $0.kind { true } else { false } }
        guard !images.isEmpty else { return block.text }
        let text = block.text
        var out: [UInt8] = []
        do {
            let bytes = text.utf8.span
            InlineTraversal.walk(bytes, markups: images) { event in
                switch event {
                case .text(let range): out.append(copying: bytes.extracting(range))
                case .image(let index): if case .image(let image) = images[index].kind { out.append(contentsOf: (image.alt ?? "").utf8) }
                case .open, .close: break
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
