import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("Markup JSON reader: accepted input and its diagnostics")
struct ReaderDiagnosticTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeJSONTests/Fixtures/diagnostics.txt"))

    @Test("The fixture file is there and parsed")
    func fixturesLoaded() throws {
        #expect(Self.fixtures.count >= 8)
    }

    @Test("Each input gives its canonical output and exactly its diagnostics", arguments: fixtures)
    func accepted(_ fixture: Fixture) throws {
        let read = try MarkupJSONReader().read(FixtureBytes.decode(fixture.input))
        #expect(read.value.invariantViolations().isEmpty)
        let written = String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        let diagnostics = read.diagnostics.map(\.description)
        let actual = ([written.trimmingTrailingNewline()] + diagnostics).joined(separator: "\n")
        #expect(actual == fixture.expected, "\(fixture.origin) \(fixture.title)")
    }

    /// STRONG 50..63 ends on a space and EM 55..69 starts on one; canonical form puts edge
    /// whitespace outside formatting, so they read as 50..62 and 56..69, still overlapping.
    @Test("The shared sample with overlapping markups reads as overlapping STRONG and EM",
          .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func overlappingSample() throws {
        let bytes = try #require(FileBytes.read(TestPaths.sharedData("samples/overlapping-markups.json")))
        let read = try MarkupJSONReader().read(bytes)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.invariantViolations().isEmpty)
        #expect(read.value.blocks.count == 1)
        #expect(read.value.blocks[0].markups == [
            Markup(.code, start: 5, end: 7),
            Markup(.link(LinkTarget(href: "http://zhgchg.li")), start: 18, end: 22),
            // As given: the whitespace at their edges is theirs (#16).
            Markup(.strong, start: 50, end: 63),
            Markup(.emphasis, start: 55, end: 69),
        ])
    }
}

extension String {
    func trimmingTrailingNewline() -> String {
        hasSuffix("\n") ? String(dropLast()) : self
    }

    /// Keys are compared as JSON compares them, by their bytes, and a repeat is found however
    /// many keys came before it or however long it is.
    @Test("C8: a repeated key is reported wherever it falls; keys that differ in bytes are different keys")
    func repeatedKeys() throws {
        func duplicateKeys(_ json: String) throws -> [String] {
            try MarkupJSONReader().read(Array(json.utf8)).diagnostics.filter { $0.code == "duplicate-key" }.map(\.message)
        }
        let many = (0..<20).map { "\"k\($0)\":1" }.joined(separator: ",")
        // After eight keys (kept inline), past them (in a set), long keys, escaped ones.
        #expect(try duplicateKeys(#"{"version":1,"paragraphs":[],"# + many + #","k3":2,"k19":2}"#) == [
            "duplicate key 'k3' in the document; the last one wins",
            "duplicate key 'k19' in the document; the last one wins",
        ])
        #expect(try duplicateKeys(#"{"paragraphs":[],"a-key-of-twenty-bytes":1,"a-key-of-twenty-bytes":2}"#) == [
            "duplicate key 'a-key-of-twenty-bytes' in the document; the last one wins",
        ])
        #expect(try duplicateKeys(#"{"paragraphs":[],"x\u0079":1,"xy":2}"#) == ["duplicate key 'xy' in the document; the last one wins"])
        // U+00E9 and e + U+0301 are equal as Swift strings, not as JSON keys.
        #expect(try duplicateKeys(#"{"paragraphs":[],"\u00e9":1,"e\u0301":2}"#) == [])
        // Fifteen bytes fit a packed key, sixteen do not: the two must still meet.
        let fifteen = String(repeating: "a", count: 15), sixteen = String(repeating: "a", count: 16)
        #expect(try duplicateKeys(#"{"paragraphs":[],"\#(fifteen)":1,"\#(sixteen)":1,"\#(sixteen)":2,"\#(fifteen)":2}"#).count == 2)
    }

    @Test("An object with tens of thousands of keys reads in linear time")
    func manyKeysLinear() throws {
        func object(_ keys: Int) -> [UInt8] {
            Array((#"{"version":1,"paragraphs":[],"# + (0..<keys).map { "\"k\($0)\":1" }.joined(separator: ",") + "}").utf8)
        }
        #expect(throws: Never.self) { try MarkupJSONReader().read(object(40_000)) }
        let ratios = LinearTime.ratios(small: object(10_000), large: object(40_000), limit: LinearTime.fourTimesBound, tries: 5) { bytes in
            _ = try? MarkupJSONReader().read(bytes)
        }
        #expect(ratios.contains { $0 < LinearTime.fourTimesBound }, "ratios \(ratios)")
    }
}
