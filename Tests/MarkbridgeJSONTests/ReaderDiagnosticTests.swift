import Testing
import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("Markup JSON reader: accepted input and its diagnostics")
struct ReaderDiagnosticTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeJSONTests/Fixtures/diagnostics.txt"))

    @Test("The fixture file is there and parsed")
    func fixturesLoaded() {
        #expect(Self.fixtures.count >= 8)
    }

    @Test("Each input gives its canonical output and exactly its diagnostics", arguments: fixtures)
    func accepted(_ fixture: Fixture) throws {
        let read = try MarkupJSONReader().read(FixtureBytes.decode(fixture.input))
        #expect(read.value.invariantViolations().isEmpty)
        let written = String(decoding: MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        let diagnostics = read.diagnostics.map { "\($0) \($0.location?.jsonPointer ?? "")" }
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
            Markup(.strong, start: 50, end: 62),
            Markup(.emphasis, start: 56, end: 69),
        ])
    }
}

extension String {
    func trimmingTrailingNewline() -> String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
