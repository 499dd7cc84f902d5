import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("Markup JSON round trips over generated documents")
struct RoundTripTests {
    @Test("Write then read gives the same IR, and writing again the same bytes, in every unit",
          arguments: OffsetUnit.allCases)
    func roundTrip(unit: OffsetUnit) throws {
        var generator = DocumentGenerator(seed: 42, profile: .hostile)
        let writer = MarkupJSONWriter(options: .init(offsetUnit: unit))
        for index in 0..<300 {
            let document = generator.document(blockCount: 1 + index % 20)
            #expect(document.invariantViolations().isEmpty)
            let bytes = try writer.write(document)
            #expect(bytes.diagnostics.isEmpty)
            let read = try MarkupJSONReader().read(bytes.value)
            #expect(read.diagnostics.isEmpty)
            #expect(read.value == document, "document \(index)")
            #expect(read.value.invariantViolations().isEmpty)
            #expect(try writer.write(read.value).value == bytes.value, "document \(index)")
        }
    }

    @Test("Pretty and compact output read back the same")
    func prettyRoundTrip() throws {
        var generator = DocumentGenerator(seed: 9, profile: .hostile)
        for _ in 0..<50 {
            let document = generator.document(blockCount: 10)
            let pretty = try MarkupJSONWriter(options: .init(prettyPrinted: true)).write(document).value
            #expect(try MarkupJSONReader().read(pretty).value == document)
        }
    }
}
