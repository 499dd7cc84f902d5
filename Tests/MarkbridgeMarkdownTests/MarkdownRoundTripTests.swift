import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeMarkdown
import MarkbridgeTestSupport

@Suite("Markdown round trips")
struct MarkdownRoundTripTests {
    static func firstDifference(_ lhs: Document, _ rhs: Document) -> String {
        for (index, (a, b)) in zip(lhs.blocks, rhs.blocks).enumerated() where a != b {
            return "block \(index):\n  expected \(a)\n  actual   \(b)"
        }
        return "block counts \(lhs.blocks.count) and \(rhs.blocks.count)"
    }

    @Test("IR -> Markdown -> IR gives the same IR, over thousands of generated documents", arguments: [1, 2, 3, 4])
    func generated(seed: UInt64) throws {
        var generator = DocumentGenerator(seed: seed, profile: .hostile)
        for index in 0..<600 {
            let document = generator.document(blockCount: 1 + index % 12)
            let markdown = try MarkdownWriter().write(document)
            #expect(markdown.diagnostics.isEmpty)
            let read = try MarkdownReader().read(markdown.value)
            #expect(read.value.invariantViolations().isEmpty)
            if read.value != document {
                Issue.record("seed \(seed) document \(index)\n\(String(decoding: markdown.value, as: UTF8.self))\n\(Self.firstDifference(document, read.value))")
                return
            }
        }
    }

    @Test("Markdown -> Markdown is idempotent after the first pass")
    func idempotent() throws {
        var generator = DocumentGenerator(seed: 8, profile: .hostile)
        for _ in 0..<200 {
            let first = try MarkdownWriter().write(generator.document(blockCount: 8)).value
            let second = try MarkdownWriter().write(try MarkdownReader().read(first).value).value
            let third = try MarkdownWriter().write(try MarkdownReader().read(second).value).value
            #expect(second == third)
        }
    }
}
