import MarkbridgeIR

/// Block against block, under the caller's ``DiffOptions``: the key blocks are aligned by, whether
/// two blocks are counterparts (one edited into the other), and what differs between them.
struct BlockComparator {
    let options: DiffOptions

    /// The block as the options see it: ignored markups gone, link targets blanked, attributes
    /// cleared, whitespace collapsed. Two blocks with equal keys are the same to the caller.
    func key(_ block: Block) -> Block {
        var key = block
        if !options.ignoredMarkups.isEmpty || options.ignoresLinkTargets { key.markups = block.markups.compactMap(comparedForm) }
        if options.ignoresAttributes {
            key.depth = 0
            key.quoteDepth = 0
            key.alignment = nil
            switch block.kind {
            case .codeBlock: key.kind = .codeBlock(language: nil)
            case .orderedListItem: key.kind = .orderedListItem(number: 1)
            case .image: key.kind = .image(ImageSource(src: ""))
            case .embed(let embed): key.kind = .embed(Embed(embed.kind, src: ""))
            case .paragraph, .heading, .blockquote, .unorderedListItem, .horizontalRule: break
            }
        }
        if options.ignoresWhitespace { Self.collapseWhitespace(&key) }
        return key
    }

    /// A markup as compared: nil when its kind is ignored, its link target blank when those are.
    private func comparedForm(_ markup: Markup) -> Markup? {
        guard !options.ignoredMarkups.contains(markup.kind.tag) else { return nil }
        if options.ignoresLinkTargets, case .link = markup.kind { return Markup(.link(LinkTarget(href: "")), markup.range) }
        return markup
    }

    /// Runs of whitespace as one space, none at the edges; markups moved onto the collapsed text.
    private static func collapseWhitespace(_ block: inout Block) {
        var collapsed = String.UnicodeScalarView()
        // The collapsed offset of each UTF-16 offset of the original.
        var offsets: [Int] = []
        offsets.reserveCapacity(block.text.utf16.count + 1)
        var length = 0, pendingSpace = false
        for scalar in block.text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = length > 0
            } else {
                if pendingSpace {
                    collapsed.append(" ")
                    length += 1
                    pendingSpace = false
                }
                collapsed.append(scalar)
            }
            for _ in 0..<scalar.utf16.count { offsets.append(length) }
            if !scalar.properties.isWhitespace { length += scalar.utf16.count }
        }
        offsets.append(length)
        block.text = String(collapsed)
        for index in block.markups.indices {
            let range = block.markups[index].range
            let start = offsets[min(max(0, range.start), offsets.count - 1)]
            let end = offsets[min(max(0, range.end), offsets.count - 1)]
            block.markups[index].range = TextRange(start: min(start, length), end: min(max(start, end), length))
        }
    }

    /// Whether `new` reads as `old` edited, rather than as another block in its place: the same
    /// kind with at least a third of its words in common, or any kinds with most of them.
    func areCounterparts(_ old: Block, _ oldWords: WordProfile, _ new: Block, _ newWords: WordProfile) -> Bool {
        let sameKind = old.kind.tag == new.kind.tag
        if old.text.isEmpty && new.text.isEmpty { return sameKind }
        let similarity = oldWords.similarity(to: newWords)
        return sameKind ? similarity >= 0.34 : similarity >= 0.6
    }

    /// What differs between two blocks, or nil when, under the options, nothing does.
    func compare(_ old: Block, _ new: Block) -> BlockDifferences? {
        let text = TextComparison(old.text, new.text, ignoresWhitespace: options.ignoresWhitespace)
        let markups = MarkupComparison.changes(
            old: old.markups.compactMap(comparedForm), in: old.text,
            new: new.markups.compactMap(comparedForm), in: new.text,
            text: text)
        let attributes = attributeChanges(old, new)
        guard !text.edits.isEmpty || !markups.isEmpty || !attributes.isEmpty else { return nil }
        return BlockDifferences(text: text.edits, markups: markups, attributes: attributes, old: old, new: new)
    }

    /// The block's attributes that differ, named and spelled as markup JSON has them.
    private func attributeChanges(_ old: Block, _ new: Block) -> [AttributeChange] {
        var changes: [AttributeChange] = []
        func note(_ name: String, _ a: String, _ b: String) {
            if a != b { changes.append(AttributeChange(name: name, old: a, new: b)) }
        }
        note("type", old.kind.tag?.rawValue ?? "", new.kind.tag?.rawValue ?? "")
        guard !options.ignoresAttributes else { return changes }
        let oldFields = Self.fields(old), newFields = Self.fields(new)
        for name in Self.fieldNames {
            note(name, oldFields[name] ?? "", newFields[name] ?? "")
        }
        return changes
    }

    /// Block attributes in the order markup JSON writes them.
    private static let fieldNames = ["depth", "quoteDepth", "number", "language", "embed", "src", "poster", "width", "height", "alt", "title", "align"]

    private static func fields(_ block: Block) -> [String: String] {
        var fields: [String: String] = [:]
        if block.depth != 0 { fields["depth"] = String(block.depth) }
        if block.quoteDepth != 0 { fields["quoteDepth"] = String(block.quoteDepth) }
        switch block.kind {
        case .orderedListItem(let number): fields["number"] = String(number)
        case .codeBlock(let language): fields["language"] = language
        case .image(let image):
            fields["src"] = image.src
            fields["alt"] = image.alt
            fields["title"] = image.title
        case .embed(let embed):
            fields["embed"] = embed.kind.rawValue
            fields["src"] = embed.src
            fields["poster"] = embed.poster
            fields["width"] = embed.width.map(String.init)
            fields["height"] = embed.height.map(String.init)
            fields["title"] = embed.title
        case .paragraph, .heading, .blockquote, .unorderedListItem, .horizontalRule: break
        }
        fields["align"] = block.alignment?.rawValue
        return fields
    }
}

/// A block's words as a sorted multiset of hashes, made once per block, so that comparing one
/// block with several candidates is a merge of two arrays, not a tokenizing of both texts.
struct WordProfile {
    private let hashes: [Int]

    init(_ text: String) {
        hashes = TextTokens(text).tokens.compactMap { token in
            token.isSpace ? nil : token.text.hashValue
        }.sorted()
    }

    /// The share of words two texts have in common (Dice's coefficient over word multisets).
    func similarity(to other: WordProfile) -> Double {
        guard !hashes.isEmpty || !other.hashes.isEmpty else { return 1 }
        var i = 0, j = 0, common = 0
        while i < hashes.count && j < other.hashes.count {
            if hashes[i] == other.hashes[j] {
                common += 1
                i += 1
                j += 1
            } else if hashes[i] < other.hashes[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return 2 * Double(common) / Double(hashes.count + other.hashes.count)
    }
}

/// Word profiles of both documents' blocks, each made when first asked for.
struct WordProfiles {
    private let old: Document, new: Document
    private var oldProfiles: [WordProfile?], newProfiles: [WordProfile?]

    init(_ old: Document, _ new: Document) {
        self.old = old
        self.new = new
        oldProfiles = Array(repeating: nil, count: old.blocks.count)
        newProfiles = Array(repeating: nil, count: new.blocks.count)
    }

    mutating func old(_ index: Int) -> WordProfile {
        if let known = oldProfiles[index] { return known }
        let profile = WordProfile(old.blocks[index].text)
        oldProfiles[index] = profile
        return profile
    }

    mutating func new(_ index: Int) -> WordProfile {
        if let known = newProfiles[index] { return known }
        let profile = WordProfile(new.blocks[index].text)
        newProfiles[index] = profile
        return profile
    }
}
