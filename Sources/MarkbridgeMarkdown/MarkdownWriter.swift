import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// Writes the IR as CommonMark with the guarantee that reading it back gives the same IR.
///
/// cmark's own renderer cannot keep that promise (emphasis that does not flank, adjacent runs,
/// leading spaces, link destinations with spaces), so this is an emitter of our own, with
/// cmark's context-sensitive escaping. Each block's inline content is read back as it is
/// written: if `*` delimiters do not give the same markups, `_` is tried, then inline HTML, and
/// a block CommonMark cannot express at all (alignment, an empty paragraph) is written as an
/// HTML block. With ``HTMLPolicy/drop`` no HTML is written, and what needs it is reported.
public struct MarkdownWriter: DocumentWriter {
    public enum HTMLPolicy: String, Sendable, CaseIterable {
        /// Inline and block HTML where CommonMark has no syntax, so nothing is lost (the default).
        case keep
        /// Pure CommonMark; each markup or attribute that needs HTML is dropped and reported.
        case drop
    }

    /// The Markdown written.
    public enum Dialect: String, Sendable, CaseIterable {
        /// CommonMark, read back by cmark as the same document.
        case commonMark
        /// GitHub Flavored Markdown (tables and strikethrough extensions): CommonMark, with pipe
        /// tables where a table has one header row and only inline cells, `~~strike~~`, and `~`
        /// and `|` escaped in text. Checked against cmark-gfm. Text its autolink extension
        /// (which GitHub also runs) would link is kept plain (see ``GFMAutolinks``), or, an
        /// e-mail address without HTML, reported.
        case gfm
    }

    public struct Options: Hashable, Sendable {
        public var html: HTMLPolicy
        public var urlPolicy: URLPolicy
        public var dialect: Dialect

        public init(html: HTMLPolicy = .keep, urlPolicy: URLPolicy = .default, dialect: Dialect = .commonMark) {
            self.html = html
            self.urlPolicy = urlPolicy
            self.dialect = dialect
        }

        public static let `default` = Options()
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    /// The document as CommonMark; `invalid-document` when it is not one our readers read
    /// back (see ``Document/checkWritable()``).
    public func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]> {
        try document.checkWritable()
        var emitter = MarkdownBlockEmitter(options: options)
        // Reserved once: an output that outgrows its buffer is held twice for a moment.
        emitter.out.reserveCapacity(document.estimatedWrittenSize(perBlock: 12, perMarkup: 10, perCell: 3))
        let tight = MarkdownListLayout.tightBreaks(document.blocks)
        let blocks = document.blocks
        var index = 0
        var countdown = DeadlineCountdown(every: 64)
        while index < blocks.count, !countdown.shouldStop() {
            let block = blocks[index]
            // A caption and its table, with HTML: one `<table>` block holding both (a pipe
            // table has no caption). Without HTML the caption is a paragraph before its table.
            if block.kind == .tableCaption, emitter.allowsHTML, index + 1 < blocks.count, block.captions(blocks[index + 1]) {
                let end = blocks.endOfTable(startingAt: index + 1)
                writeGroup(blocks, index..<end, emitter: &emitter)
                index = end
                continue
            }
            if case .tableRow = block.kind {
                // The whole table at once, as HTML or a pipe table, where ranges need no trimming
                // (a pipe table's cells are trimmed one by one).
                let end = blocks.endOfTable(startingAt: index)
                if emitter.allowsHTML || MarkdownPipeTable.fits(blocks[index..<end], dialect: options.dialect) {
                    writeGroup(blocks, index..<end, emitter: &emitter)
                    index = end
                    continue
                }
            }
            if block.kind.isDefinition && emitter.allowsHTML {
                let end = blocks.endOfDefinitionList(startingAt: index)
                writeGroup(blocks, index..<end, emitter: &emitter)
                index = end
                continue
            }
            emitter.write(trimmed(safe(block, index: index, emitter: &emitter), index: index, emitter: &emitter), index: index, tight: tight[index],
                          next: index + 1 < blocks.count ? blocks[index + 1] : nil)
            index += 1
        }
        // Stopped at the deadline or on cancellation (here, or in an HTML block's writer):
        // what was written is cut short, and never returned.
        try ConversionDeadline.check()
        return Diagnosed(emitter.out, diagnostics: emitter.diagnostics)
    }

    /// A table or a definition list written whole, as one HTML block or a pipe table.
    private func writeGroup(_ blocks: [Block], _ range: Range<Int>, emitter: inout MarkdownBlockEmitter) {
        let group = range.map { safe(blocks[$0], index: $0, emitter: &emitter) }
        emitter.write(group[0], index: range.lowerBound, tight: false, group: group[...])
    }

    /// The block with no formatting beginning or ending on whitespace, which CommonMark cannot
    /// mark (`**very **` is not emphasis) and our reader would trim: each range moved, reported.
    private func trimmed(_ block: Block, index: Int, emitter: inout MarkdownBlockEmitter) -> Block {
        guard !block.markups.isEmpty else { return block }
        var copy = block
        copy.canonicalize()
        guard copy.markups != block.markups else { return block }
        for markup in block.markups where !copy.markups.contains(markup) {
            emitter.diagnostics.append(.warning("markup-range-adjusted",
                "\(markup.kind.name) \(markup.range) in block \(index) begins or ends on whitespace, which Markdown cannot mark; written without it", block: index))
        }
        return copy
    }

    /// The block with links and images the URL policy refuses taken out, reported.
    private func safe(_ block: Block, index: Int, emitter: inout MarkdownBlockEmitter) -> Block {
        // Most blocks have no link or image that the policy refuses: they are not copied.
        let refuses = block.markups.contains { markup in
            guard let (url, use) = markup.kind.url, case .rejected = options.urlPolicy.check(url, for: use) else { return false }
            return true
        }
        guard refuses else { return block }
        var copy = block
        copy.markups = block.markups.filter { markup in
            guard let (url, use) = markup.kind.url, case .rejected(let reason) = options.urlPolicy.check(url, for: use) else { return true }
            emitter.diagnostics.append(.warning("unsafe-url", "\(markup.kind.name) \(markup.range) in block \(index) not written: \(reason)", block: index))
            return false
        }
        return copy
    }
}
