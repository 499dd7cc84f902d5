@_spi(MarkbridgeBytes) import MarkbridgeBytes

extension Document {
    /// Throws `invalid-document`, naming the block and markup, unless every writer can write
    /// this document as something our readers read back: what every writer checks first.
    ///
    /// A reader's document always passes. One built by hand may not: a heading of level 9 (JSON
    /// our reader refuses, `<h9>`, Markdown that is no heading), a markup past the end of its
    /// text or splitting a surrogate pair, an image not over U+FFFC, overlapping links, a depth
    /// or list number outside what the formats carry. Canonical order is not required: writers
    /// take markups in any order. One pass over each block's bytes, and a sort of its markups'
    /// edges only where the text has characters outside the Basic Multilingual Plane.
    package func checkWritable() throws(ConversionError) {
        var items = ItemDepthWalk()
        for (index, block) in blocks.enumerated() {
            try block.checkWritable(index: index)
            if items.allowedDepth(for: block) < block.depth {
                throw ConversionError(code: "invalid-document", message: "block \(index): depth \(block.depth) has no list item at depth \(block.depth - 1) before it to be in; no writer can write it as our readers read it")
            }
            if block.kind == .tableCaption, !block.captions(index + 1 < blocks.count ? blocks[index + 1] : nil) {
                throw ConversionError(code: "invalid-document", message: "block \(index): a table caption not followed by the first row of its table at its place; no writer can write it as our readers read it")
            }
            if block.kind.continuesDefinition, !block.continuesDefinition(after: index > 0 ? blocks[index - 1] : nil) {
                throw ConversionError(code: "invalid-document", message: "block \(index): a term or definition that continues follows no term or definition of its kind at its place; no writer can write it as our readers read it")
            }
        }
    }
}

extension Block {
    func checkWritable(index: Int) throws(ConversionError) {
        func refuse(_ reason: String, markup: Int? = nil) -> ConversionError {
            let place = markup.map { "block \(index), markup \($0)" } ?? "block \(index)"
            return ConversionError(code: "invalid-document", message: "\(place): \(reason); no writer can write it as our readers read it")
        }
        switch kind {
        case .heading(let level) where !(1...6).contains(level):
            throw refuse("heading level \(level) is not 1...6")
        case .horizontalRule where !text.isEmpty:
            throw refuse("a horizontal rule has text")
        case .orderedListItem(let number) where !ListNumber.range.contains(number):
            throw refuse("list number \(number) is outside \(ListNumber.range.lowerBound)...\(ListNumber.range.upperBound)")
        case .codeBlock(let language?) where !CodeLanguage.isValid(language):
            throw refuse("code block language \(language.debugDescription) is not one word")
        case .blockquote where quoteDepth < 1:
            throw refuse("a blockquote block has quoteDepth \(quoteDepth)")
        case .embed(let embed) where embed.src.isEmpty:
            throw refuse("an embed has no source")
        case .embed(let embed) where [embed.width, embed.height].contains(where: { $0.map { !(0...Embed.maxDimension).contains($0) } ?? false }):
            throw refuse("an embed's width or height is outside 0...\(Embed.maxDimension)")
        case .tableRow(let row):
            if let violation = row.violation(in: text) { throw refuse(violation) }
        case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .image, .embed, .tableCaption, .definitionTerm,
             .definitionDescription, .horizontalRule:
            break
        }
        guard (0...IRLimits.maxDepth).contains(depth) else { throw refuse("depth \(depth) is outside 0...\(IRLimits.maxDepth)") }
        guard (0...IRLimits.maxDepth).contains(quoteDepth) else { throw refuse("quoteDepth \(quoteDepth) is outside 0...\(IRLimits.maxDepth)") }
        if let violation = quoteListDepthsViolation { throw refuse(violation) }
        guard !markups.isEmpty else { return }
        let length = OffsetTranslator.utf16Count(of: text)
        var linkEnd = 0
        var links: [TextRange] = []
        for (markupIndex, markup) in markups.enumerated() {
            guard markup.range.start >= 0, markup.range.start < markup.range.end, markup.range.end <= length else {
                throw refuse("range \(markup.range) is empty or outside the text (\(length) UTF-16 units)", markup: markupIndex)
            }
            if case .link = markup.kind { links.append(markup.range) }
        }
        links.sort { $0.start < $1.start }
        for link in links {
            if link.start < linkEnd {
                let markupIndex = markups.firstIndex { if case .link = $0.kind { $0.range == link } else { false } }
                throw refuse("links overlap", markup: markupIndex)
            }
            linkEnd = link.end
        }
        // Every edge on a scalar boundary, and every image over a U+FFFC: found by walking the
        // bytes once, edges in order. Without images and astral scalars, every edge in range is
        // on a boundary already.
        let hasImages = markups.contains { if case .image = $0.kind { true } else { false } }
        guard hasImages || OffsetTranslator.hasAstralScalars(text) else { return }
        var edges: [(offset: Int, markup: Int, isImageStart: Bool)] = []
        edges.reserveCapacity(markups.count * 2)
        for (markupIndex, markup) in markups.enumerated() {
            var isImage = false
            if case .image = markup.kind {
                isImage = true
                guard markup.range.length == 1 else { throw refuse("an IMAGE markup must cover exactly one U+FFFC", markup: markupIndex) }
            }
            edges.append((markup.range.start, markupIndex, isImage))
            edges.append((markup.range.end, markupIndex, false))
        }
        edges.sort { $0.offset < $1.offset }
        var copy = text
        let failure: ConversionError? = copy.withUTF8 { bytes in
            var walk = UTF16Walk()
            for edge in edges {
                guard let byte = walk.advance(to: edge.offset, in: bytes) else {
                    return refuse("offset \(edge.offset) splits a surrogate pair", markup: edge.markup)
                }
                if edge.isImageStart, !(byte + 2 < bytes.count && bytes[byte] == 0xEF && bytes[byte + 1] == 0xBF && bytes[byte + 2] == 0xBC) {
                    return refuse("an IMAGE markup must cover exactly one U+FFFC", markup: edge.markup)
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}
