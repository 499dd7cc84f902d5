import Foundation
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

@Suite("The library as a service uses it: typed formats, text and Data, limits")
struct ServiceAPITests {
    @Test("Typed formats convert bytes, text and Data alike, diagnostics included")
    func typedFormats() throws {
        let converter = Converter()
        let html = #"<p>a <b>b</b> <a href="javascript:x">c</a></p>"#
        let text = try converter.convert(html, from: .html, to: .markdown)
        #expect(text.value == "a **b** c\n")
        #expect(text.diagnostics.map(\.code) == ["unsafe-url"])
        let data = try converter.convert(Data(html.utf8), from: .html, to: .markdown)
        #expect(data.value == Data("a **b** c\n".utf8))
        let bytes = try converter.convert(Array(html.utf8), from: .html, to: .plainText)
        #expect(bytes.value == Array("a b c\n".utf8))
        #expect(try converter.read(Array("x\ny\n\nz".utf8), from: .plainText).value == Document(blocks: [Block(.paragraph, text: "x\ny"), Block(.paragraph, text: "z")]))
        #expect(throws: ConversionError(code: "unknown-format", message: "format 'shout' cannot be read")) {
            try converter.read(Array("x".utf8), from: .writtenOnly)
        }
    }

    @Test("Limits are options: input size, HTML depth, JSON nesting and URL length")
    func limits() throws {
        let small = Converter(options: ConversionOptions(limits: ConversionLimits(maxInputBytes: 10, maxHTMLDepth: 8, maxJSONNesting: 3, maxURLLength: 12)))
        #expect(throws: ConversionError(code: "input-too-large", message: "input is 15 bytes, over the limit of 10")) {
            try small.convert("<p>too long</p>", from: .html, to: .markupJSON)
        }
        let deep = Converter(options: ConversionOptions(limits: ConversionLimits(maxHTMLDepth: 8)))
        let nested = try deep.convert(String(repeating: "<div>", count: 20) + "x", from: .html, to: .plainText)
        #expect(nested.value == "x\n")
        #expect(nested.diagnostics.map(\.code) == ["depth-limit"])
        let shallowJSON = Converter(options: ConversionOptions(limits: ConversionLimits(maxJSONNesting: 3)))
        do {
            _ = try shallowJSON.convert(#"{"paragraphs":[{"type":"P","text":"x","extra":[[[[1]]]]}]}"#, from: .markupJSON, to: .plainText)
            Issue.record("nesting past the limit was read")
        } catch {
            #expect(error.code == "too-deep")
        }
        let shortURLs = Converter(options: ConversionOptions(limits: ConversionLimits(maxURLLength: 12)))
        let link = try shortURLs.convert(#"<p><a href="https://example.com/long">x</a></p>"#, from: .html, to: .markdown)
        #expect(link.value == "x\n")
        #expect(link.diagnostics.map(\.code) == ["unsafe-url"])
    }

    @Test("Errors and diagnostics encode as JSON for structured logs, and decode back")
    func codable() throws {
        let error = ConversionError(code: "invalid-json", message: "unexpected end of input",
                                    at: SourceLocation(line: 1, column: 9, byteOffset: 8, jsonPointer: "/paragraphs"))
        #expect(try JSONDecoder().decode(ConversionError.self, from: JSONEncoder().encode(error)) == error)
        #expect((error.line, error.column, error.byteOffset, error.jsonPointer) == (1, 9, 8, "/paragraphs"))
        let diagnostic = Diagnostic.warning("unsafe-url", "link dropped", at: SourceLocation(line: 2, column: 3, byteOffset: 10))
        #expect(try JSONDecoder().decode(Diagnostic.self, from: JSONEncoder().encode(diagnostic)) == diagnostic)
    }
}
