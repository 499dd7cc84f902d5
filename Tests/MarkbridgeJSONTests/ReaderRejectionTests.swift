import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("Markup JSON reader: rejections")
struct ReaderRejectionTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeJSONTests/Fixtures/rejections.txt"))

    @Test("The fixture file is there and parsed")
    func fixturesLoaded() {
        #expect(Self.fixtures.count >= 30)
    }

    @Test("Each bad input is refused with its exact error", arguments: fixtures)
    func rejected(_ fixture: Fixture) throws {
        do {
            let document = try MarkupJSONReader().read(FixtureBytes.decode(fixture.input))
            Issue.record("\(fixture.origin) \(fixture.title): accepted as \(document.value)")
        } catch {
            #expect("\(error.description) [\(error.code)]" == fixture.expected, "\(fixture.origin) \(fixture.title)")
        }
    }

    @Test("Input over the size limit is refused before it is read")
    func tooLarge() throws {
        let reader = MarkupJSONReader(options: .init(maxInputBytes: 10))
        #expect(throws: ConversionError(code: "input-too-large", message: "input is 17 bytes, over the limit of 10")) {
            try reader.read(#"{"paragraphs":[]}"#)
        }
    }

    @Test("C7: 100,000 nested arrays are refused, without recursion")
    func deepNesting() throws {
        let input = #"{"paragraphs":[],"x":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: ConversionError.self) { try MarkupJSONReader().read(input) }
        let root = String(repeating: "[", count: 100_000)
        #expect(throws: ConversionError.self) { try MarkupJSONReader().read(root) }
    }
}

extension Fixture: CustomTestStringConvertible {}
