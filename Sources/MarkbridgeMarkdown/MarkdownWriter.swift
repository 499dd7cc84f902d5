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
        // The HTML or Markdown reader's document is canonical: no formatting in it begins or
        // ends on whitespace, so none needs trimming.
        let knownCanonical = document.isKnownCanonical
        // One loop over the block events, as the HTML writer's. Markdown writes each block's
        // containers as its lines' prefixes, so only the blocks are written; what the events
        // add is whether a container begins at a block. A table or definition list written
        // whole, as one HTML block or a pipe table, is written at its first block.
        var written = 0
        var groupEnd = 0
        var beginsContainers = false
        var countdown = DeadlineCountdown(every: 64)
        // The blocks up to `end`: those the events do not show (an empty quote's paragraph,
        // shown as the quote alone) are written in their places too, and are no items.
        func writeBlocks(upTo end: Int, emitter: inout MarkdownBlockEmitter) {
            while written < end {
                let index = written
                written += 1
                if index < groupEnd { continue }
                if let group = groupRange(at: index, in: blocks, allowsHTML: emitter.allowsHTML) {
                    writeGroup(blocks, group, beginsContainers: beginsContainers, emitter: &emitter)
                    groupEnd = group.upperBound
                } else {
                    // Only an empty quote looks at the block after it.
                    let next = blocks[index].kind == .blockquote && blocks[index].text.isEmpty && index + 1 < blocks.count ? blocks[index + 1] : nil
                    if let adjusted = adjusted(blocks, at: index, knownCanonical: knownCanonical, emitter: &emitter) {
                        emitter.write(adjusted, index: index, beginsContainers: beginsContainers, tight: tight[index], next: next)
                    } else {
                        emitter.write(blocks[index], index: index, beginsContainers: beginsContainers, tight: tight[index], next: next)
                    }
                }
            }
            beginsContainers = false
        }
        var stopped = false
        events: for event in document.blockEvents {
            switch event {
            case .enter(.block(let index)), .enter(.tableRow(let index)):
                if countdown.shouldStop() {
                    stopped = true
                    break events
                }
                writeBlocks(upTo: index + 1, emitter: &emitter)
            case .enter(.listItem(block: .some)):
                // An item block's own item: not a container around it.
                break
            case .enter(.quote), .enter(.unorderedList), .enter(.orderedList), .enter(.listItem(block: nil)), .enter(.table), .enter(.definitionList):
                beginsContainers = true
            case .enter(.tableCell), .exit:
                break
            }
        }
        if !stopped { writeBlocks(upTo: blocks.count, emitter: &emitter) }
        // Stopped at the deadline or on cancellation (here, or in an HTML block's writer):
        // what was written is cut short, and never returned.
        try ConversionDeadline.check()
        return Diagnosed(emitter.out, diagnostics: emitter.diagnostics)
    }

    /// The table or definition list that begins at `index`, when it is written whole: with
    /// HTML as one HTML block (a caption with its table), without it a table as a pipe table
    /// where one can hold it (a caption is then a paragraph before its table).
    private func groupRange(at index: Int, in blocks: [Block], allowsHTML: Bool) -> Range<Int>? {
        let block = blocks[index]
        switch block.kind {
        case .tableCaption:
            guard allowsHTML, index + 1 < blocks.count, block.captions(blocks[index + 1]) else { return nil }
            return index..<blocks.endOfTable(startingAt: index + 1)
        case .tableRow:
            let end = blocks.endOfTable(startingAt: index)
            return allowsHTML || MarkdownPipeTable.fits(blocks[index..<end], dialect: options.dialect) ? index..<end : nil
        case .definitionTerm, .definitionDescription:
            return allowsHTML ? index..<blocks.endOfDefinitionList(startingAt: index) : nil
        case .paragraph, .heading, .blockquote, .unorderedListItem, .orderedListItem, .codeBlock, .image, .embed, .horizontalRule:
            return nil
        }
    }

    /// A table or a definition list written whole, as one HTML block or a pipe table.
    private func writeGroup(_ blocks: [Block], _ range: Range<Int>, beginsContainers: Bool, emitter: inout MarkdownBlockEmitter) {
        let group = range.map { safe(blocks[$0], index: $0, emitter: &emitter) }
        emitter.write(group[0], index: range.lowerBound, beginsContainers: beginsContainers, tight: false, group: group[...])
    }

    /// The block as it must be written, or nil when that is the block as it stands (the usual
    /// case, which then is not copied): links and images the URL policy refuses taken out, and
    /// formatting trimmed of whitespace at its edges, each change reported.
    private func adjusted(_ blocks: [Block], at index: Int, knownCanonical: Bool, emitter: inout MarkdownBlockEmitter) -> Block? {
        let refuses = refusesURL(in: blocks[index].markups)
        if !refuses && (knownCanonical || blocks[index].markups.isEmpty) {
            assert(!knownCanonical || {
                var copy = blocks[index]
                copy.canonicalize()
                return copy == blocks[index]
            }(), "a reader said its document is canonical, and a block is not")
            return nil
        }
        let safe = refuses ? withoutRefusedURLs(blocks[index], index: index, emitter: &emitter) : blocks[index]
        return trimmed(safe, index: index, emitter: &emitter)
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
        refusesURL(in: block.markups) ? withoutRefusedURLs(block, index: index, emitter: &emitter) : block
    }

    /// Whether the URL policy refuses a link or image among `markups`.
    private func refusesURL(in markups: [Markup]) -> Bool {
        markups.contains { markup in
            guard let (url, use) = markup.kind.url, case .rejected = options.urlPolicy.check(url, for: use) else { return false }
            return true
        }
    }

    /// The block without the links and images the URL policy refuses, each reported.
    private func withoutRefusedURLs(_ block: Block, index: Int, emitter: inout MarkdownBlockEmitter) -> Block {
        var copy = block
        copy.markups = block.markups.filter { markup in
            guard let (url, use) = markup.kind.url, case .rejected(let reason) = options.urlPolicy.check(url, for: use) else { return true }
            emitter.diagnostics.append(.warning("unsafe-url", "\(markup.kind.name) \(markup.range) in block \(index) not written: \(reason)", block: index))
            return false
        }
        return copy
    }
}
