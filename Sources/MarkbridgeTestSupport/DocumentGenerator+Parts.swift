@_spi(InlineTraversal) import MarkbridgeIR

/// The generator's parts: containers around groups, tables, sentences, code and markups.
extension DocumentGenerator {
    /// The blocks with some groups put inside containers, so that every kind is seen in every
    /// container: a group right after a list item becomes a further block of that item (a
    /// heading, a code block, an image, a table or a definition list inside an item), and a
    /// group at the top level goes inside a quote of its own. A group is what writers write as
    /// one element: a list item with what it holds, a table with its caption, a definition list.
    mutating func nested(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        out.reserveCapacity(blocks.count)
        var index = 0
        // A list the generator ended before a group now inside its last item would go on
        // after it: the list after begins a list of its own, as it was drawn.
        var nextListBegins = false
        while index < blocks.count {
            let end = Self.groupEnd(blocks, from: index)
            var group = Array(blocks[index..<end])
            index = end
            if nextListBegins, group[0].kind.isListItem {
                group[0].containerStart = min(group[0].containerStart ?? Int.max, group[0].containerChainCount - 1)
            }
            nextListBegins = false
            let atTop = group.allSatisfy { $0.depth == 0 && $0.quoteDepth == 0 } || (group[0].kind.isListItem && group[0].depth == 0 && group.allSatisfy { $0.quoteDepth == 0 })
            guard atTop else {
                out += group
                continue
            }
            if !group[0].kind.isListItem, let item = out.last, item.kind.isListItem, item.depth + 1 < IRLimits.maxDepth, random.chance(35) {
                // Inside the item: one more list item around each block, in the item's quotes.
                let added = item.depth + 1 + item.quoteDepth
                for position in group.indices {
                    group[position].depth = item.depth + 1
                    group[position].quoteDepth = item.quoteDepth
                    group[position].quoteListDepths = item.quoteListDepths
                    if group[position].kind == .paragraph && item.quoteDepth > 0 { group[position].kind = .blockquote }
                    group[position].containerStart = group[position].containerStart.map { $0 + added }
                }
                nextListBegins = true
            } else if random.chance(12) {
                // Inside a quote of its own, around its lists.
                for position in group.indices {
                    group[position].quoteDepth += 1
                    if group[position].kind == .paragraph { group[position].kind = .blockquote }
                    group[position].containerStart = group[position].containerStart.map { $0 + 1 }
                }
                if (out.last?.quoteDepth ?? 0) > 0 { group[0].containerStart = 0 }
            }
            out += group
        }
        return out
    }

    /// Where the group beginning at `start` ends: a list item with the deeper blocks after it,
    /// a caption with its table, a table's rows, a definition list's terms and definitions.
    private static func groupEnd(_ blocks: [Block], from start: Int) -> Int {
        let first = blocks[start]
        var end = start + 1
        if first.kind.isListItem {
            while end < blocks.count, blocks[end].depth > first.depth { end += 1 }
        } else if first.kind == .tableCaption || first.kind.tag == .tableRow {
            while end < blocks.count, blocks[end].continuesTable(after: blocks[end - 1]) || (blocks[end - 1].captions(blocks[end])) { end += 1 }
        } else if first.kind.isDefinition {
            while end < blocks.count, blocks[end].continuesDefinitionList(after: blocks[end - 1]) { end += 1 }
        }
        return end
    }

    /// A table of one to four rows of one to four cells: half of them regular (a header row,
    /// one alignment a column, no spans: what a pipe table can be), the others with headers,
    /// spans and alignments anywhere; empty cells, line breaks and markups inside cells.
    public mutating func table() -> [Block] {
        let columns = 1 + random.below(4)
        let regular = random.chance(50)
        let hasHeader = regular || random.chance(50)
        let columnAlignments: [TextAlignment?] = (0..<columns).map { _ in random.chance(30) ? random.pick([.left, .center, .right]) : nil }
        return (0..<(1 + random.below(4))).map { rowIndex in
            var texts: [String] = []
            var cellMarkups: [[Markup]] = []
            for _ in 0..<columns {
                let text = random.chance(15) ? "" : sentence(words: 1 + random.below(6))
                texts.append(text)
                cellMarkups.append(text.isEmpty ? [] : markups(over: text))
            }
            let (text, joined) = TableRow.joining(texts, header: hasHeader && rowIndex == 0)
            var cells = joined
            var markups: [Markup] = []
            for (cell, own) in zip(cells, cellMarkups) {
                markups += own.map { Markup($0.kind, start: $0.range.start + cell.range.start, end: $0.range.end + cell.range.start) }
            }
            for index in cells.indices {
                if regular {
                    cells[index].alignment = columnAlignments[index]
                    continue
                }
                if random.chance(15) { cells[index].alignment = random.pick(TextAlignment.allCases) }
                if random.chance(10) { cells[index].columnSpan = 2 }
                if random.chance(5) { cells[index].rowSpan = 2 }
            }
            var block = Block(.tableRow(TableRow(cells: cells, startsTable: rowIndex == 0)), text: text, markups: markups)
            block.canonicalize()
            return block
        }
    }

    /// A document of roughly `bytes` bytes of text.
    public mutating func document(approximateTextBytes bytes: Int) -> Document {
        var document = Document()
        var size = 0
        while size < bytes {
            let more = self.document(blockCount: max(1, min(16, (bytes - size) / 150)))
            size += more.blocks.reduce(0) { $0 + $1.text.utf8.count + 40 + $1.markups.count * 40 }
            document.blocks += more.blocks
        }
        return document
    }

    mutating func sentence(words: Int) -> String {
        var out = ""
        for index in 0..<words {
            if index > 0 { out += random.chance(3) ? "\n" : " " }
            if random.chance(2) {
                out += "\u{FFFC}"
                continue
            }
            out += random.chance(profile.hostileWordPercent) ? random.pick(Self.hostileWords) : random.pick(Self.ordinaryWords)
        }
        return out + random.pick([".", "!", "?", ":", ""])
    }

    mutating func code() -> String {
        (0..<(1 + random.below(6))).map { line in
            String(repeating: "  ", count: random.below(3)) + "let value\(line) = \"\(random.pick(Self.ordinaryWords))\" // ```"
        }.joined(separator: "\n")
    }

    /// The tags markups are drawn from: every one but IMAGE (which goes on a U+FFFC), strong
    /// and emphasis twice.
    static let drawnMarkupTags: [MarkupKind.Tag] = MarkupKind.Tag.allCases.filter { $0 != .image } + [.strong, .emphasis]

    /// Random markups on scalar boundaries, overlapping freely; every U+FFFC gets an IMAGE.
    mutating func markups(over text: String) -> [Markup] {
        var boundaries = [0]
        var images: [Int] = []
        var offset = 0
        for scalar in text.unicodeScalars {
            if scalar == "\u{FFFC}" { images.append(offset) }
            offset += scalar.value > 0xFFFF ? 2 : 1
            boundaries.append(offset)
        }
        var markups: [Markup] = []
        for offset in images {
            var source = ImageSource(src: hostileAttribute(Self.hostileURLs, else: "https://example.com/i\(offset).png"),
                                     alt: hostileAttribute(Self.hostileTitles, else: "icon"),
                                     title: profile.hostileAttributePercent > 0 && random.chance(20) ? random.pick(Self.hostileTitles) : nil)
            (source.width, source.height) = imageSize()
            markups.append(Markup(.image(source), start: offset, end: offset + 1))
        }
        guard boundaries.count > 2 else { return markups }
        var linkEnd = 0
        for _ in 0..<random.below(profile.maxMarkupsPerBlock + 1) {
            var start = random.pick(boundaries)
            var end = random.pick(boundaries)
            if start > end { swap(&start, &end) }
            if start == end { continue }
            let kind: MarkupKind
            // Drawn from every tag (strong and emphasis twice as often, as in real text; images
            // are placed on their U+FFFC above), and switched over exhaustively: a new kind
            // stops the build here until the generator makes it.
            switch random.pick(Self.drawnMarkupTags) {
            case .strong: kind = .strong
            case .emphasis: kind = .emphasis
            case .code: kind = .code
            case .link:
                // Links never overlap each other: place them left to right.
                guard start >= linkEnd else { continue }
                linkEnd = end
                kind = .link(LinkTarget(href: hostileAttribute(Self.hostileURLs, else: random.pick(["https://example.com/a", "http://zhgchg.li", "/relative/path?q=1", "mailto:a@b.c"])),
                                        title: random.chance(20) ? hostileAttribute(Self.hostileTitles, else: "A \"title\"") : nil))
            case .strike: kind = .strike
            case .underline: kind = .underline
            case .superscript: kind = .superscript
            case .subscript: kind = .subscript
            case .highlight: kind = .highlight
            // Never opaque black: the HTML reader takes it for the default text colour (see its
            // `default-color` diagnostic), which no format tells from no colour.
            case .color: kind = .color(CSSColor(red: UInt8(1 + random.below(255)), green: 0, blue: 0))
            case .background: kind = .background(CSSColor(red: 0, green: UInt8(random.below(256)), blue: 0, alpha: random.chance(30) ? 128 : 255))
            case .image: continue
            case .hashtag: kind = .hashtag(hostileAttribute(Self.hostileTitles, else: random.pick(["sushi", "東京", "λόγος", "a_b1"])))
            case .mention: kind = .mention(hostileAttribute(Self.hostileTitles, else: random.pick(["ana", "bob_99", "Łukasz"])))
            }
            markups.append(Markup(kind, start: start, end: end))
        }
        return markups
    }
}
