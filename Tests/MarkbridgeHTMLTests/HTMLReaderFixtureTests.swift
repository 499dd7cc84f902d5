import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("HTML reader: golden fixtures")
struct HTMLReaderFixtureTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeHTMLTests/Fixtures/reader.txt"))

    @Test("The fixture file is there and parsed")
    func loaded() throws {
        #expect(Self.fixtures.count >= 25)
    }

    @Test("Each HTML input reads as its JSON, with exactly its diagnostics", arguments: fixtures)
    func read(_ fixture: Fixture) throws {
        let read = try HTMLReader().read(fixture.input)
        #expect(read.value.invariantViolations().isEmpty)
        let json = String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        let actual = ([String(json.dropLast())] + read.diagnostics.map(\.description)).joined(separator: "\n")
        #expect(actual == fixture.expected, "\(fixture.origin) \(fixture.title)")
    }
}

extension Fixture: CustomTestStringConvertible {}
