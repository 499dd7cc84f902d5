extension Block {
    /// The IMG block a paragraph (or quoted paragraph) holding only an inline image stands
    /// for, or nil: every reader makes an image standing alone an IMG block this way.
    package var asLoneImage: Block? {
        guard kind == .paragraph || kind == .blockquote, markups.count == 1, text == "\u{FFFC}",
              case .image(let image) = markups[0].kind else { return nil }
        return Block(.image(image), depth: depth, quoteDepth: quoteDepth, quoteListDepths: quoteListDepths, alignment: alignment,
                     containerStart: containerStart, anchor: anchor)
    }
}

extension Block {
    /// Whether the block is a paragraph that ``asLoneImage`` would promote, without building the IMG block.
    package var holdsOnlyAnImage: Bool {
        guard kind == .paragraph || kind == .blockquote, markups.count == 1, text == "\u{FFFC}", case .image = markups[0].kind else { return false }
        return true
    }
}

extension [Block] {
    /// Promotes every paragraph that holds only an image to an IMG block, as every reader does.
    package mutating func promoteLoneImages() {
        // Only the cheap fields are read through the array first: passing every block on
        // copied it (a retain and release of each of its references).
        for index in indices where self[index].markups.count == 1 && self[index].text.utf8.count == 3 {
            if let image = self[index].asLoneImage { self[index] = image }
        }
    }
}

extension DocumentBuilder {
    /// The document, with every paragraph that holds only an image promoted to an IMG block.
    package mutating func finishPromotingLoneImages() -> Document {
        var document = finish()
        document.blocks.promoteLoneImages()
        return document
    }
}
