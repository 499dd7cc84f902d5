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
            key.quoteListDepths = []
            key.containerStart = nil
            key.alignment = nil
            key.anchor = nil
            key.taskState = nil
            switch block.kind {
            case .codeBlock: key.kind = .codeBlock(language: nil)
            case .orderedListItem: key.kind = .orderedListItem(number: 1)
            case .image: key.kind = .image(ImageSource(src: ""))
            case .embed(let embed): key.kind = .embed(Embed(embed.kind, src: ""))
            case .tableRow: key.kind = .tableRow(TableRow(cells: []))
            case .paragraph, .heading, .blockquote, .unorderedListItem, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule: break
            }
        }
        if options.ignoresWhitespace {
            Self.collapseWhitespace(&key)
            // The cells' offsets move with the whitespace; what is compared is their text, as the row's.
            if case .tableRow(var row) = key.kind {
                for index in row.cells.indices { row.cells[index].range = TextRange(start: 0, end: 0) }
                key.kind = .tableRow(row)
            }
        }
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

    /// Whether block `newIndex` of the new document reads as block `oldIndex` of the old edited,
    /// rather than as another block in its place: the same kind with at least a third of its
    /// words in common, or any kinds with most of them. Texts that share most of their length at
    /// their edges are counterparts without counting words.
    func areCounterparts(_ oldIndex: Int, _ newIndex: Int, in profiles: inout WordProfiles) -> Bool {
        let old = profiles.oldBlock(oldIndex), new = profiles.newBlock(newIndex)
        let sameKind = old.kind.tag == new.kind.tag
        if old.text.isEmpty && new.text.isEmpty { return sameKind }
        // The same text in another spelling (composed or not) is the same paragraph.
        if old.text == new.text { return true }
        let longer = max(old.text.utf8.count, new.text.utf8.count)
        if longer > 256 {
            let shared = SharedEdges(old.text, new.text)
            let sharedBytes = old.text.utf8.count - old.text.utf8.distance(from: shared.oldMiddle.lowerBound, to: shared.oldMiddle.upperBound)
            if 2 * sharedBytes >= longer { return sameKind || 5 * sharedBytes >= 4 * longer }
        }
        let similarity = profiles.old(oldIndex).similarity(to: profiles.new(newIndex))
        return sameKind ? similarity >= 0.34 : similarity >= 0.6
    }

    /// What differs between two blocks, or nil when, under the options, nothing does.
    func compare(_ old: Block, _ new: Block) -> BlockDifferences? {
        let text = TextComparison(old.text, new.text, ignoresWhitespace: options.ignoresWhitespace,
                                  oldImages: Self.imageSources(old), newImages: Self.imageSources(new))
        let markups = MarkupComparison.changes(
            old: old.markups.compactMap(comparedForm), in: old.text,
            new: new.markups.compactMap(comparedForm), in: new.text,
            text: text)
        let attributes = attributeChanges(old, new)
        guard !text.edits.isEmpty || !markups.isEmpty || !attributes.isEmpty else { return nil }
        return BlockDifferences(text: text.edits, markups: markups, attributes: attributes, old: old, new: new)
    }

    /// Each inline image's source by the offset of its U+FFFC.
    private static func imageSources(_ block: Block) -> [Int: String] {
        var sources: [Int: String] = [:]
        for markup in block.markups { if case .image(let image) = markup.kind { sources[markup.range.start] = image.src } }
        return sources
    }

    /// The block's attributes that differ, named and spelled as markup JSON has them.
    private func attributeChanges(_ old: Block, _ new: Block) -> [AttributeChange] {
        var changes: [AttributeChange] = []
        func note(_ name: String, _ a: String, _ b: String) {
            if a != b { changes.append(AttributeChange(name: name, old: a, new: b)) }
        }
        note(BlockAttribute.type.rawValue, old.kind.tag?.rawValue ?? "", new.kind.tag?.rawValue ?? "")
        guard !options.ignoresAttributes else { return changes }
        let oldFields = Dictionary(uniqueKeysWithValues: DocumentDiff.attributes(of: old).map { ($0.name, $0.value) })
        let newFields = Dictionary(uniqueKeysWithValues: DocumentDiff.attributes(of: new).map { ($0.name, $0.value) })
        for name in DocumentDiff.attributeNames {
            note(name, oldFields[name] ?? "", newFields[name] ?? "")
        }
        return changes
    }
}

/// A block's words as a sorted multiset of hashes, made once per block, so that comparing one
/// block with several candidates is a merge of two arrays, not a tokenizing of both texts.
struct WordProfile {
    private let hashes: [Int]

    /// Words only: spaces, punctuation and bare numbers say little about whether two
    /// paragraphs are one edited ("Paragraph 0." and "Inserted 0!" share only "0").
    init(_ text: String) {
        hashes = TextTokens(text).tokens.compactMap { token in
            guard token.kind == .word || token.kind == .ideograph, !token.text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            var hasher = Hasher()
            for byte in token.text.utf8 { hasher.combine(byte) }
            return hasher.finalize()
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

    func oldBlock(_ index: Int) -> Block { old.blocks[index] }
    func newBlock(_ index: Int) -> Block { new.blocks[index] }

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
