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

    @Test("Every generated document, and every reader's output, is writable")
    func generated() throws {
        var generator = DocumentGenerator(seed: 404, profile: .hostile)
        for _ in 0..<300 { try generator.document(blockCount: 10).checkWritable() }
    }
}
