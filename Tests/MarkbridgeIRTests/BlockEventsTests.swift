import Testing
import MarkbridgeIR
import MarkbridgeTestSupport

/// The public block iterator (``Document/blockEvents``): the tree a document's flat blocks
/// stand for, as enter and exit events. Expectations are written as a tree dump: `ul[ ... ]`
/// is a container entered and exited, `b3` is block 3 entered and exited.
@Suite("Block events")
struct BlockEventsTests {
    static func dump(_ blocks: [Block]) -> String {
        var out: [String] = []
        for event in Document(blocks: blocks).blockEvents {
            switch event {
            case .enter(let node): out.append(name(node))
            case .exit(.block): break
            case .exit: out.append("]")
            }
        }
        return out.joined(separator: " ")
    }

    static func name(_ node: BlockNode) -> String {
        switch node {
        case .quote: "quote["
        case .unorderedList: "ul["
        case .orderedList(let start): "ol\(start)["
        case .listItem(let block): "li\(block.map(String.init) ?? "-")["
        case .table: "table["
        case .tableRow(let block): "tr\(block)["
        case .tableCell(_, let cell): "td\(cell)["
        case .definitionList: "dl["
        case .block(let index): "b\(index)"
        }
    }

    static func row(_ cells: [String], startsTable: Bool = false) -> Block {
        let joined = TableRow.joiningForTests(cells)
        return Block(.tableRow(TableRow(cells: joined.cells, startsTable: startsTable)), text: joined.text)
    }

    @Test("Each block kind, and the containers around it", arguments: [
        // (blocks, dump)
        ([Block(.paragraph, text: "p"), Block(.heading(level: 2), text: "h"), Block(.codeBlock(language: "swift"), text: "x"), Block(.horizontalRule)],
         "b0 b1 b2 b3"),
        ([Block(.image(ImageSource(src: "a.png")), text: ""), Block(.embed(Embed(.video, src: "v.mp4")), text: "caption")], "b0 b1"),
        // An item holds its own text first, then the blocks one depth deeper.
        ([Block(.unorderedListItem, text: "a"), Block(.paragraph, text: "more", depth: 1), Block(.unorderedListItem, text: "b")],
         "ul[ li0[ b0 b1 ] li2[ b2 ] ]"),
        ([Block(.orderedListItem(number: 3), text: "a"), Block(.orderedListItem(number: 4), text: "b"),
          Block(.unorderedListItem, text: "c", depth: 1), Block(.orderedListItem(number: 5), text: "d")],
         "ol3[ li0[ b0 ] li1[ b1 ul[ li2[ b2 ] ] ] li3[ b3 ] ]"),
        // A list in a quote, a quote in a list item.
        ([Block(.blockquote, text: "q", quoteDepth: 1), Block(.unorderedListItem, text: "a", quoteDepth: 1), Block(.paragraph, text: "after")],
         "quote[ b0 ul[ li1[ b1 ] ] ] b2"),
        ([Block(.unorderedListItem, text: "a"), Block(.blockquote, text: "q", depth: 1, quoteDepth: 1, quoteListDepths: [1])],
         "ul[ li0[ b0 quote[ b1 ] ] ]"),
        // Two lists side by side: the second begins at its first item.
        ([Block(.unorderedListItem, text: "a"), Block(.unorderedListItem, text: "b", containerStart: 0)],
         "ul[ li0[ b0 ] ] ul[ li1[ b1 ] ]"),
        // Another kind of list begins anyway.
        ([Block(.unorderedListItem, text: "a"), Block(.orderedListItem(number: 1), text: "b")],
         "ul[ li0[ b0 ] ] ol1[ li1[ b1 ] ]"),
        // Two quotes side by side, and an empty quote, which is its quote alone.
        ([Block(.blockquote, text: "a", quoteDepth: 1), Block(.blockquote, text: "b", quoteDepth: 1, containerStart: 0),
          Block(.paragraph, text: "p"), Block(.blockquote, quoteDepth: 1)],
         "quote[ b0 ] quote[ b1 ] b2 quote[ ]"),
        // A quote around a list item, in a paragraph's place: the item has no block of its own.
        ([Block(.paragraph, text: "p", depth: 1, quoteDepth: 1)], "quote[ ul[ li-[ b0 ] ] ]"),
        // A table: its caption, its rows, their cells; a row that starts a table begins another.
        ([Block(.tableCaption, text: "cap"), row(["h1", "h2"], startsTable: true), row(["a", "b"]), row(["c"], startsTable: true)],
         "table[ b0 tr1[ td0[ ] td1[ ] ] tr2[ td0[ ] td1[ ] ] ] table[ tr3[ td0[ ] ] ]"),
        // A definition list, a further paragraph of a definition, and another list beside it.
        ([Block(.definitionTerm(continues: false), text: "t"), Block(.definitionDescription(continues: false), text: "d"),
          Block(.definitionDescription(continues: true), text: "d2"), Block(.definitionTerm(continues: false), text: "u", containerStart: 0)],
         "dl[ b0 b1 b2 ] dl[ b3 ]"),
    ])
    func shapes(_ blocks: [Block], _ expected: String) {
        #expect(Self.dump(blocks) == expected)
    }

    @Test("An empty document has no events; a document's last containers close at its end")
    func ends() {
        #expect(Array(Document().blockEvents).isEmpty)
        #expect(Array(Document(blocks: [Block(.unorderedListItem, text: "a")]).blockEvents)
            == [.enter(.unorderedList), .enter(.listItem(block: 0)), .enter(.block(0)), .exit(.block(0)), .exit(.listItem(block: 0)), .exit(.unorderedList)])
    }

    @Test("Events are balanced and properly nested, and every block is entered once in order, over 3,000 generated documents")
    func balanced() {
        for seed in 0..<3 as Range<UInt64> {
            var generator = DocumentGenerator(seed: 900 + seed, profile: seed == 0 ? .realistic : .hostile)
            for index in 0..<1_000 {
                let document = generator.document(blockCount: 1 + index % 40)
                if let problem = Self.structureProblem(document) {
                    Issue.record("seed \(seed), document \(index): \(problem)\n\(Self.dump(document.blocks))")
                    return
                }
            }
        }
    }

    /// Why the events of `document` are not a well-formed tree, if they are not.
    static func structureProblem(_ document: Document) -> String? {
        var stack: [BlockNode] = []
        var nextBlock = 0
        for event in document.blockEvents {
            switch event {
            case .enter(let node):
                let parent = stack.last
                switch node {
                case .listItem:
                    guard parent == .unorderedList || { if case .orderedList = parent { true } else { false } }() else {
                        return "a list item outside a list"
                    }
                case .tableCell(let block, _):
                    guard parent == .tableRow(block: block) else { return "a cell outside its row" }
                case .block(let index), .tableRow(let index):
                    // Blocks that stand for an empty quote are passed over.
                    while nextBlock < index, document.blocks[nextBlock].kind == .blockquote, document.blocks[nextBlock].text.isEmpty { nextBlock += 1 }
                    guard index == nextBlock else { return "block \(index) entered where \(nextBlock) was due" }
                    nextBlock += 1
                    if case .tableRow = node, parent != .table { return "a row outside a table" }
                    if case .listItem(let own?) = parent, own == index, !document.blocks[index].kind.isListItem { return "item \(own) is no item block" }
                case .quote, .unorderedList, .orderedList, .table, .definitionList: break
                }
                if case .unorderedList = parent, !{ if case .listItem = node { true } else { false } }() { return "a list holds \(node)" }
                if case .orderedList = parent, !{ if case .listItem = node { true } else { false } }() { return "a list holds \(node)" }
                stack.append(node)
            case .exit(let node):
                guard stack.popLast() == node else { return "\(node) exited while another was open" }
            }
        }
        guard stack.isEmpty else { return "\(stack.count) nodes left open" }
        while nextBlock < document.blocks.count, document.blocks[nextBlock].kind == .blockquote, document.blocks[nextBlock].text.isEmpty { nextBlock += 1 }
        guard nextBlock == document.blocks.count else { return "blocks from \(nextBlock) on were never entered" }
        return nil
    }

    @Test("The walk takes linear time: 20,000 nested blocks")
    func linear() {
        var blocks: [Block] = []
        for index in 0..<20_000 {
            blocks.append(Block(.unorderedListItem, text: "x", depth: index % 50, quoteDepth: index % 7 == 0 ? 1 : 0))
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var count = 0
            for _ in Document(blocks: blocks).blockEvents { count += 1 }
            #expect(count > 80_000)
        }
        #expect(elapsed < .seconds(10))
    }

    @Test("A document built by hand with negative depths walks without a trap, its blocks in no container")
    func negativeDepths() {
        var nested = Block(.blockquote, text: "q", depth: -1, quoteDepth: 1)
        nested.quoteListDepths = [1]
        let document = Document(blocks: [Block(.paragraph, text: "p", depth: -3, quoteDepth: -2), nested])
        let events = Array(document.blockEvents)
        #expect(events.first == .enter(.block(0)))
        #expect(events.count == 6)
    }
}

extension TableRow {
    /// The row's text and cells from each cell's text, joined by `" | "`.
    static func joiningForTests(_ cellTexts: [String]) -> (text: String, cells: [TableCell]) {
        var text = "", cells: [TableCell] = [], offset = 0
        for (index, cell) in cellTexts.enumerated() {
            if index > 0 {
                text += " | "
                offset += 3
            }
            cells.append(TableCell(TextRange(start: offset, end: offset + cell.utf16.count)))
            text += cell
            offset += cell.utf16.count
        }
        return (text, cells)
    }
}
