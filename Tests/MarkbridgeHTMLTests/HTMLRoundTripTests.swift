import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

@Suite("HTML round trips")
struct HTMLRoundTripTests {
    @Test("IR -> HTML -> IR gives the same IR, over generated documents")
    func generated() throws {
        var generator = DocumentGenerator(seed: 77, profile: .hostile)
        for index in 0..<300 {
            let document = generator.document(blockCount: 1 + index % 24)
            let html = try HTMLWriter().write(document)
            #expect(html.diagnostics.isEmpty)
            let read = try HTMLReader().read(html.value)
            #expect(read.value.invariantViolations().isEmpty)
            if read.value != document {
                let written = String(decoding: html.value, as: UTF8.self)
                Issue.record("document \(index) differs after HTML\n\(written)\n\(Self.firstDifference(document, read.value))")
                return
            }
        }
    }

    @Test("HTML -> IR -> HTML -> IR is stable after one pass, over generated stored-content HTML")
    func corpus() throws {
        var generator = HTMLCorpusGenerator(seed: 5)
        for _ in 0..<150 {
            let html = generator.fragment(approximateBytes: 1_500)
            let first = try HTMLReader().read(html).value
            let second = try HTMLReader().read(try HTMLWriter().write(first).value).value
            #expect(first == second, "\(html)\n\(Self.firstDifference(first, second))")
            if first != second { return }
        }
    }

    static func firstDifference(_ lhs: Document, _ rhs: Document) -> String {
        for (index, (a, b)) in zip(lhs.blocks, rhs.blocks).enumerated() where a != b {
            return "block \(index):\n  expected \(a)\n  actual   \(b)"
        }
        return "block counts \(lhs.blocks.count) and \(rhs.blocks.count)"
    }
}
