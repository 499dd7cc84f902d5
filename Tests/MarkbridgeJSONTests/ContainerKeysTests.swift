import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON

/// `containerStart` and `name`: optional keys, absent from documents without containers side
/// by side or anchors, so old output and old readers are unaffected.
@Suite("Markup JSON: containerStart and name")
struct ContainerKeysTests {
    /// A document as version 1 wrote it before the keys: lists, quotes, a quote in an item, a
    /// definition list, a table.
    static let old = #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a"},{"type":"ULI","text":"b","depth":1},{"type":"BQ","text":"q","depth":2,"quoteListDepths":[2]},{"type":"OLI","text":"c","number":1},{"type":"BQ","text":"x"},{"type":"BQ","text":"y","quoteDepth":2},{"type":"DT","text":"t"},{"type":"DD","text":"d"},{"type":"TR","text":"r","startsTable":true,"cells":[{"start":0,"end":1}]}]}"#

    @Test("Old markup JSON without the keys reads as before, and is written back byte for byte")
    func oldDocuments() throws {
        let read = try MarkupJSONReader().read(Self.old)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.blocks.allSatisfy { $0.containerStart == nil && $0.anchor == nil })
        #expect(String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self) == Self.old + "\n")
    }

    @Test("The keys are read and written where they say something, and dropped where the containers begin anyway")
    func keys() throws {
        let input = #"{"paragraphs":[{"type":"ULI","text":"a","containerStart":0,"name":"top"},{"type":"ULI","text":"b","containerStart":0},{"type":"P","text":"p"},{"type":"BQ","containerStart":0},{"type":"BQ","quoteDepth":2,"containerStart":1}]}"#
        let read = try MarkupJSONReader().read(input)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.invariantViolations().isEmpty)
        #expect(read.value.blocks.map(\.containerStart) == [nil, 0, nil, nil, nil])
        #expect(String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
            == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a","name":"top"},{"type":"ULI","text":"b","containerStart":0},{"type":"P","text":"p"},{"type":"BQ"},{"type":"BQ","quoteDepth":2}]}"# + "\n")
    }

    @Test("A name with what an anchor may not hold is kept without it, and said")
    func sanitizedName() throws {
        let read = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"P","text":"a","name":"a b<c>"}]}"#)
        #expect(read.value.blocks[0].anchor == "abc")
        #expect(read.diagnostics.map(\.description) == [
            #"1:46: warning: paragraph name "a b<c>" kept as "abc": an anchor holds no whitespace, control, quote, <, >, ` or \, and at most 256 bytes (at /paragraphs/0/name) [anchor-changed]"#,
        ])
    }
}
