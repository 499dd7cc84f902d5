import Testing
import Markbridge

/// The README's "From Swift" example, kept compiling and true.
@Suite("Library usage as the README shows it")
struct LibraryUsageTests {
    @Test("Converter: bytes in, bytes and diagnostics out; errors carry code and place")
    func converter() throws {
        let json = #"{"paragraphs":[{"type":"P","text":"x","extra":1}]}"#
        let converter = Converter()
        let result = try converter.convert(Array(json.utf8), from: "json", to: "json")
        #expect(result.diagnostics.map(\.description) == ["1:39: warning: unknown field 'extra' ignored (at /paragraphs/0/extra) [unknown-field]"])
        #expect(String(decoding: result.value, as: UTF8.self) == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"}]}"# + "\n")
        do {
            _ = try converter.convert(Array(#"{"paragraphs":[{"type":"P","text":"ab","markups":[{"type":"EM","start":0,"end":9}]}]}"#.utf8), from: "json", to: "json")
            Issue.record("accepted an offset past the text")
        } catch {
            #expect(error.code == "offset-out-of-range")
            #expect(error.description == "1:80: /paragraphs/0/markups/0/end: end 9 is past the end of the text (2 UTF-16 code units)")
        }
    }

    @Test("The IR can be edited directly and written in another unit")
    func directIR() throws {
        var document = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"P","text":"👍"}]}"#).value
        document.blocks.append(Block(.paragraph, text: "Added", markups: [Markup(.strong, start: 0, end: 5)]))
        document.canonicalize()
        let bytes = try MarkupJSONWriter(options: .init(offsetUnit: .scalar)).write(document).value
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"version":1,"offsetUnit":"scalar","paragraphs":[{"type":"P","text":"👍"},{"type":"P","text":"Added","markups":[{"type":"STRONG","start":0,"end":5}]}]}"# + "\n")
    }

    @Test("Unknown formats are errors, not traps")
    func unknownFormat() throws {
        #expect(throws: ConversionError(code: "unknown-format", message: "no reader for format 'rtf'")) {
            try Converter().read([], from: "rtf")
        }
    }
}
