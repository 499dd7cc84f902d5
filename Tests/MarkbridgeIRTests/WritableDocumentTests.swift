import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// Writers refuse a document no reader could have produced, with a typed error naming the
/// block and markup: what `checkWritable()` says, case by case.
@Suite("Documents writers refuse")
struct WritableDocumentTests {
    @Test("Each broken promise, named", arguments: [
        (Block(.heading(level: 9), text: "h"), "block 0: heading level 9 is not 1...6"),
        (Block(.horizontalRule, text: "x"), "block 0: a horizontal rule has text"),
        (Block(.codeBlock(language: "a b"), text: "x"), "block 0: code block language \"a b\" is not one word"),
        (Block(.blockquote, text: "q", quoteDepth: 0), "block 0: a blockquote block has quoteDepth 0"),
        (Block(.paragraph, text: "p", depth: -1), "block 0: depth -1 is outside 0...100"),
        (Block(.paragraph, text: "p", quoteDepth: 101), "block 0: quoteDepth 101 is outside 0...100"),
        (Block(.paragraph, text: "ab", markups: [Markup(.strong, start: 1, end: 5)]), "block 0, markup 0: range 1..<5 is empty or outside the text (2 UTF-16 units)"),
        (Block(.paragraph, text: "ab", markups: [Markup(.strong, start: 1, end: 1)]), "block 0, markup 0: range 1..<1 is empty or outside the text (2 UTF-16 units)"),
        (Block(.paragraph, text: "a👍", markups: [Markup(.emphasis, start: 0, end: 2)]), "block 0, markup 0: offset 2 splits a surrogate pair"),
        (Block(.paragraph, text: "ab", markups: [Markup(.image(ImageSource(src: "i")), start: 0, end: 1)]), "block 0, markup 0: an IMAGE markup must cover exactly one U+FFFC"),
        (Block(.paragraph, text: "abc", markups: [Markup(.link(LinkTarget(href: "a")), start: 0, end: 2), Markup(.link(LinkTarget(href: "b")), start: 1, end: 3)]),
         "block 0, markup 1: links overlap"),
    ])
    func refused(block: Block, reason: String) {
        #expect(throws: ConversionError(code: "invalid-document", message: "\(reason); no writer can write it as our readers read it")) {
            try Document(blocks: [block]).checkWritable()
        }
    }

    /// A generated document with one promise broken at random: a block attribute, a depth, a
    /// range, an image's place, two links.
    static func broken(_ document: Document, random: inout SeededRandom) -> Document {
        var document = document
        let index = random.below(document.blocks.count)
        var block = document.blocks[index]
        let length = block.text.utf16.count
        switch random.below(7) {
        case 0: block.kind = .heading(level: random.pick([0, 7, 9]))
        case 1: block.depth = random.pick([-1, IRLimits.maxDepth + 1, block.depth + 2])
        case 2: block.quoteDepth = random.pick([-1, IRLimits.maxDepth + 1])
        case 3: block.kind = .orderedListItem(number: ListNumber.range.upperBound + 1)
        case 4: block.markups.append(Markup(.strong, start: max(0, length - 1), end: length + 1 + random.below(3)))
        case 5: block.markups.append(Markup(.image(ImageSource(src: "i")), start: 0, end: max(1, length)))
        default:
            block.markups.append(Markup(.link(LinkTarget(href: "a")), start: 0, end: max(1, length)))
            block.markups.append(Markup(.link(LinkTarget(href: "b")), start: 0, end: max(1, length)))
        }
        document.blocks[index] = block
        return document
    }

    @Test("One set of rules at two levels: what a writer refuses is always a broken invariant, the first named alike")
    func levelsAgree() throws {
        var generator = DocumentGenerator(seed: 2612, profile: .hostile)
        var random = SeededRandom(seed: 77)
        var refused = 0
        for _ in 0..<400 {
            let document = Self.broken(generator.document(blockCount: 6), random: &random)
            let writable = document.violations(of: .writable)
            let canonical = document.violations(of: .canonical)
            #expect(Set(writable).isSubset(of: Set(canonical)), "\(writable) not within \(canonical)")
            guard let first = writable.first else {
                #expect(throws: Never.self) { try document.checkWritable() }
                continue
            }
            refused += 1
            #expect(throws: ConversionError(code: "invalid-document", message: "\(first); no writer can write it as our readers read it")) {
                try document.checkWritable()
            }
        }
        #expect(refused > 300, "most broken documents are refused (\(refused) of 400)")
    }

    @Test("Every generated document, and every reader's output, is writable")
    func generated() throws {
        var generator = DocumentGenerator(seed: 404, profile: .hostile)
        for _ in 0..<300 { try generator.document(blockCount: 10).checkWritable() }
    }
}
