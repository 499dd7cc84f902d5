extension Document {
    /// A little more than a writer's output of the document takes, as a rule, for the writer to
    /// reserve once: an output that outgrows its buffer is copied into one twice as large,
    /// holding both for a moment, while a reserve past the end is never touched, which costs
    /// address space, not memory. The text, its URLs and attributes, `perBlock` bytes around
    /// each block, `perMarkup` for each markup and `perCell` for each table cell, and an eighth
    /// more for escapes.
    package func estimatedWrittenSize(perBlock: Int, perMarkup: Int, perCell: Int = 0) -> Int {
        // Each block's fields read in place: a block bound whole is copied out of the array.
        var size = 64
        for index in blocks.indices {
            size += blocks[index].text.utf8.count + perBlock + blocks[index].markups.count * perMarkup
            // By index: a markup bound whole is copied, its URL retained and released.
            for slot in blocks[index].markups.indices {
                switch blocks[index].markups[slot].kind {
                case .link(let target): size += target.href.utf8.count + (target.title?.utf8.count ?? 0)
                case .image(let image): size += image.src.utf8.count + (image.alt?.utf8.count ?? 0) + (image.title?.utf8.count ?? 0)
                case .hashtag(let value), .mention(let value): size += value.utf8.count
                case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight, .color, .background: break
                }
            }
            switch blocks[index].kind {
            case .image(let image): size += image.src.utf8.count + (image.alt?.utf8.count ?? 0) + (image.title?.utf8.count ?? 0)
            case .embed(let embed): size += embed.src.utf8.count + (embed.poster?.utf8.count ?? 0) + (embed.title?.utf8.count ?? 0) + perBlock
            case .tableRow(let row): size += row.cells.count * perCell
            case .codeBlock(let language): size += language?.utf8.count ?? 0
            case .paragraph, .heading, .blockquote, .unorderedListItem, .orderedListItem, .tableCaption, .definitionTerm, .definitionDescription,
                 .horizontalRule: break
            }
        }
        return size + size / 8
    }
}
