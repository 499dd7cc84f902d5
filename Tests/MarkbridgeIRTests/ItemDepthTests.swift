import Testing
import MarkbridgeIR
import MarkbridgeTestSupport

/// ``ItemDepthWalk`` counts the items open outside quotes instead of walking the containers;
/// these hold it to the walk over every block shape, quoted and not, in any order.
@Suite("Item depths")
struct ItemDepthTests {
    /// What ``ItemDepthWalk`` answers, asked of ``ContainerWalk`` for every block.
    static func walked(_ blocks: [Block]) -> [Int] {
        var containers = ContainerWalk()
        return blocks.map { block in
            let allowed = containers.enclosingItemsGoingOn(block)
            _ = containers.place(allowed < block.depth ? block.moved(toDepth: allowed) : block)
            return allowed
        }
    }

    static func counted(_ blocks: [Block]) -> [Int] {
        var items = ItemDepthWalk()
        return blocks.map { items.allowedDepth(for: $0) }
    }

    @Test("Counted as walked: after an item one deeper, after anything else as deep, a quote's items its own")
    func examples() {
        let blocks = [
            Block(.paragraph, text: "lifted", depth: 2),
            Block(.unorderedListItem, text: "a"),
            Block(.orderedListItem(number: 1), text: "b", depth: 3),
            Block(.paragraph, text: "c", depth: 2),
            Block(.blockquote, text: "quote in b", depth: 2, quoteDepth: 1, quoteListDepths: [2]),
            Block(.paragraph, text: "d", depth: 2),
            Block(.blockquote, text: "quote outermost", depth: 1, quoteDepth: 1),
            Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))])), text: "t", depth: 1),
            Block(.paragraph, text: "e", depth: 1),
        ]
        #expect(Self.counted(blocks) == [0, 0, 1, 2, 2, 2, 0, 0, 0])
        #expect(Self.counted(blocks) == Self.walked(blocks))
    }

    @Test("Counted as walked over random blocks of every kind, depth and quote placement")
    func randomBlocks() {
        let kinds: [BlockKind] = [
            .paragraph, .blockquote, .unorderedListItem, .orderedListItem(number: 1), .heading(level: 2),
            .codeBlock(language: nil), .horizontalRule, .tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))])),
            .definitionTerm(continues: false), .definitionDescription(continues: true),
        ]
        var random = SeededRandom(seed: 27)
        for _ in 0..<2_000 {
            var blocks: [Block] = []
            for _ in 0..<Int(random.next() % 12) + 1 {
                let depth = Int(random.next() % 5) - (random.next() % 16 == 0 ? 1 : 0)
                // Mostly outside quotes, as documents are, so that the walk goes in and out.
                let quoteDepth = random.next() % 3 == 0 ? Int(random.next() % 3) + 1 : 0
                var quoteListDepths: [Int] = []
                if quoteDepth > 0, depth > 0, random.next() % 2 == 0 {
                    quoteListDepths = (0..<quoteDepth).map { _ in Int(random.next() % UInt64(depth + 1)) }.sorted()
                }
                let kind = kinds[Int(random.next() % UInt64(kinds.count))]
                blocks.append(Block(kind, text: "x", depth: depth, quoteDepth: quoteDepth, quoteListDepths: quoteListDepths))
            }
            let counted = Self.counted(blocks)
            #expect(counted == Self.walked(blocks), "\(blocks)")
            if counted != Self.walked(blocks) { return }
        }
    }

    @Test("Counted as walked over hostile generated documents")
    func generatedDocuments() {
        for seed in UInt64(0)..<200 {
            var generator = DocumentGenerator(seed: seed, profile: .hostile)
            let blocks = generator.document(blockCount: 40).blocks
            #expect(Self.counted(blocks) == Self.walked(blocks), "seed \(seed)")
        }
    }
}
