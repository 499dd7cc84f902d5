import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// Where containers begin (``Block/containerStart``): one rule, in ``ContainerWalk``, for
/// canonical form, the invariants and the readers' builder.
@Suite("Container starts")
struct ContainerStartTests {
    @Test("A block's chain: its quotes and enclosing items in nesting order, then its own list or definition list")
    func chain() {
        #expect(Block(.paragraph).containerChain == [])
        #expect(Block(.unorderedListItem, depth: 1, quoteDepth: 1).containerChain == [.quote, .listItem(depth: 0), .list(ordered: false)])
        #expect(Block(.blockquote, depth: 1, quoteDepth: 2, quoteListDepths: [0, 1]).containerChain == [.quote, .listItem(depth: 0), .quote])
        #expect(Block(.definitionDescription(continues: false), quoteDepth: 1).containerChain == [.quote, .definitionList])
        #expect(Block(.orderedListItem(number: 1), depth: 2).containerChainCount == 3)
    }

    @Test("Canonical form keeps a start only where the containers would otherwise go on", arguments: [
        // (blocks, canonical starts)
        ([Block(.unorderedListItem, text: "a", containerStart: 0)], [Int?.none]),
        ([Block(.paragraph, text: "p"), Block(.unorderedListItem, text: "a", containerStart: 0)], [nil, nil]),
        ([Block(.unorderedListItem, text: "a"), Block(.unorderedListItem, text: "b", containerStart: 0)], [nil, 0]),
        // Another kind of list begins anyway.
        ([Block(.unorderedListItem, text: "a"), Block(.orderedListItem(number: 1), text: "b", containerStart: 0)], [nil, nil]),
        // A nested list's first item begins its list anyway; its outer item cannot begin at it, so 0 moves in to 1.
        ([Block(.unorderedListItem, text: "a"), Block(.unorderedListItem, text: "b", depth: 1, containerStart: 0)], [nil, nil]),
        ([Block(.unorderedListItem, text: "a"), Block(.unorderedListItem, text: "b", depth: 1), Block(.unorderedListItem, text: "c", depth: 1, containerStart: 0)], [nil, nil, 1]),
        ([Block(.blockquote, text: "a", quoteDepth: 2), Block(.blockquote, text: "b", quoteDepth: 2, containerStart: 1)], [nil, 1]),
        // A deeper quote begins anyway; only the outer one may be said to.
        ([Block(.blockquote, text: "a"), Block(.blockquote, text: "b", quoteDepth: 2, containerStart: 1)], [nil, nil]),
        ([Block(.blockquote, text: "a"), Block(.blockquote, text: "b", quoteDepth: 2, containerStart: 0)], [nil, 0]),
        ([Block(.definitionTerm(continues: false), text: "a"), Block(.definitionTerm(continues: false), text: "b", containerStart: 0)], [nil, 0]),
        // A paragraph of an item cannot begin the item.
        ([Block(.unorderedListItem, text: "a"), Block(.paragraph, text: "b", depth: 1, containerStart: 0)], [nil, nil]),
    ])
    func canonical(_ blocks: [Block], _ starts: [Int?]) {
        var document = Document(blocks: blocks)
        document.canonicalize()
        #expect(document.blocks.map(\.containerStart) == starts)
        #expect(document.invariantViolations().isEmpty)
    }

    @Test("A start the IR would not keep, or outside the chain, is a broken promise")
    func invariants() {
        let implied = Document(blocks: [Block(.unorderedListItem, text: "a", containerStart: 0)])
        #expect(implied.invariantViolations().map(\.description) == [
            "block 0: containerStart 0 is not canonical (nil: containers before 0 go on, and an enclosing list item cannot begin at the block)",
        ])
        let outside = Document(blocks: [Block(.unorderedListItem, text: "a"), Block(.unorderedListItem, text: "b", containerStart: 1)])
        #expect(outside.invariantViolations().map(\.description) == ["block 1: containerStart 1 is outside the block's 1 containers"])
        let anchor = Document(blocks: [Block(.paragraph, text: "a", anchor: "a b")])
        #expect(anchor.invariantViolations().count == 1)
    }

    @Test("A table row in a container that begins at it begins a table; a definition list or a list does not go on past a start")
    func groups() {
        var document = Document(blocks: [
            Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))], startsTable: true)), text: "a", quoteDepth: 1),
            Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))])), text: "b", quoteDepth: 1, containerStart: 0),
        ])
        document.canonicalize()
        guard case .tableRow(let row) = document.blocks[1].kind else { Issue.record("not a row"); return }
        #expect(row.startsTable)
        #expect(document.invariantViolations().isEmpty)
        let definitions = [Block(.definitionTerm(continues: false), text: "a"), Block(.definitionDescription(continues: false), text: "b"), Block(.definitionTerm(continues: false), text: "c", containerStart: 0)]
        #expect(definitions.endOfDefinitionList(startingAt: 0) == 2)
    }

    @Test("The builder marks the first block of each container that begins beside one of its kind, and an empty quote's block")
    func builder() {
        var builder = DocumentBuilder()
        var context = NestingContext()
        for text in ["a", "b"] {
            context.enterList(ordered: false, start: 1)
            context.enterItem()
            builder.startBlock(.paragraph, in: &context)
            builder.append(text)
            builder.endBlock()
            context.leaveItem()
            context.leaveList()
        }
        for _ in 0..<2 {
            context.enterQuote()
            builder.addBlockForEmptyQuote(in: &context)
            context.leaveQuote()
        }
        #expect(builder.finish().blocks == [
            Block(.unorderedListItem, text: "a"),
            Block(.unorderedListItem, text: "b", containerStart: 0),
            Block(.blockquote, quoteDepth: 1),
            Block(.blockquote, quoteDepth: 1, containerStart: 0),
        ])
    }

    @Test("Hostile generated documents hold every shape the round-trip properties must cover, canonically")
    func generatorCoverage() {
        var generator = GeneratedDocuments.hostile(seed: 3)
        var starts: [ContainerLink: Int] = [:]
        var emptyQuotes = 0, anchors = 0, captions = 0, continuedDefinitions = 0
        for _ in 0..<600 {
            let document = generator.document(blockCount: 12)
            #expect(document.invariantViolations().isEmpty)
            for block in document.blocks {
                if let start = block.containerStart { starts[block.containerChain[start], default: 0] += 1 }
                if block.kind == .blockquote && block.text.isEmpty { emptyQuotes += 1 }
                if block.anchor != nil { anchors += 1 }
                // Issue 22's shapes: a table's caption, a definition of two paragraphs.
                if block.kind == .tableCaption { captions += 1 }
                if block.kind.continuesDefinition { continuedDefinitions += 1 }
            }
        }
        #expect(captions >= 10)
        #expect(continuedDefinitions >= 10)
        // Lists, quotes (the outer one, an inner one, one in an item) and definition lists side by side.
        for link in [ContainerLink.list(ordered: false), .list(ordered: true), .quote, .definitionList] {
            #expect(starts[link, default: 0] >= 5, "\(link): \(starts)")
        }
        #expect(emptyQuotes >= 20)
        #expect(anchors >= 100)
    }

    @Test("Anchors keep what an id may hold, and the builder gives one to the block it begins")
    func anchors() {
        #expect(Block.sanitizedAnchor("section-2") == "section-2")
        #expect(Block.sanitizedAnchor(" a b\"c'<d>`e\\\u{7}\u{85}f ") == "abcdef")
        #expect(Block.sanitizedAnchor(" \t") == nil)
        #expect(Block.sanitizedAnchor(String(repeating: "é", count: 200))?.utf8.count == 256)
        var builder = DocumentBuilder()
        var placed: [Bool] = []
        placed.append(builder.anchorBlock("top"))
        placed.append(builder.anchorBlock("second"))
        builder.startBlock(.heading(level: 2))
        builder.append("T")
        placed.append(builder.anchorBlock("late"))
        builder.endBlock()
        builder.startBlock(.paragraph)
        placed.append(builder.anchorBlock("empty"))
        builder.endBlock(keepingIfEmpty: false)
        #expect(placed == [true, false, false, true])
        #expect(builder.finish().blocks == [Block(.heading(level: 2), text: "T", anchor: "top"), Block(.paragraph, anchor: "empty")])
    }
}
