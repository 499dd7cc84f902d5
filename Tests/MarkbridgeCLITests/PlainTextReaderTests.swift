import Markbridge
import MarkbridgeTestSupport
import Testing

/// `--from text`: paragraphs apart by blank lines, line ends inside them hard breaks, nothing
/// else interpreted; what it reads written as HTML and Markdown, where markup characters of
/// the text must come out as text.
@Suite("Plain text reader")
struct PlainTextReaderTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeCLITests/Fixtures/plain-text.txt"))

    @Test("The fixture file is there and parsed")
    func loaded() {
        #expect(Self.fixtures.count >= 7)
    }

    /// The expected output's sections: the JSON first (no header), then `-- name` sections.
    static func sections(_ expected: String) -> [String: String] {
        var sections: [String: [String]] = [:]
        var current = "json"
        for line in expected.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- ") {
                current = String(line.dropFirst(3))
                continue
            }
            sections[current, default: []].append(String(line))
        }
        return sections.mapValues { $0.joined(separator: "\n") }
    }

    @Test("Each text reads as its JSON and is written as its HTML and Markdown", arguments: fixtures)
    func fixture(_ fixture: Fixture) throws {
        let input = Array(fixture.input.replacingOccurrences(of: "␍", with: "\r").utf8)
        let converter = Converter()
        let read = try converter.read(input, from: .plainText)
        #expect(read.value.invariantViolations().isEmpty)
        let expected = Self.sections(fixture.expected)
        let json = String(decoding: try converter.write(read.value, to: .markupJSON).value, as: UTF8.self)
        #expect(json == (expected["json"] ?? "") + "\n", "\(fixture.origin) \(fixture.title)")
        #expect(read.diagnostics.map(\.description).joined(separator: "\n") == expected["diagnostics"] ?? "", "\(fixture.origin)")
        if let html = expected["html"] {
            let written = try converter.write(read.value, to: .html)
            #expect(written.diagnostics.isEmpty)
            #expect(String(decoding: written.value, as: UTF8.self) == html + "\n", "\(fixture.origin) \(fixture.title)")
        }
        if let markdown = expected["markdown"] {
            let written = try converter.write(read.value, to: .markdown)
            #expect(written.diagnostics.isEmpty)
            #expect(String(decoding: written.value, as: UTF8.self) == markdown + "\n", "\(fixture.origin) \(fixture.title)")
            // And Markdown reads back as the text did: every character literal.
            #expect(try converter.read(written.value, from: .markdown).value == read.value, "\(fixture.origin)")
        }
    }

    @Test("A byte-order mark is dropped; a NUL becomes U+FFFD, reported where it is")
    func byteOrderMarkAndNUL() throws {
        let read = try PlainTextReader().read([0xEF, 0xBB, 0xBF] + Array("a\nb\0c\0".utf8))
        #expect(read.value == Document(blocks: [Block(.paragraph, text: "a\nb\u{FFFD}c\u{FFFD}")]))
        #expect(read.diagnostics.map(\.description) == ["2:2: warning: 2 U+0000 characters replaced with U+FFFD [nul-character]"])
    }

    @Test("Empty and blank input is a document without blocks")
    func empty() throws {
        for text in ["", "\n", " \r\n\t\r\u{3000}\n\u{A0}"] {
            #expect(try PlainTextReader().read(text).value == Document(), "\(text.debugDescription)")
        }
    }

    @Test("Bytes that are not UTF-8 are refused, naming the byte, its line and column; UTF-16 is named as such")
    func invalidUTF8() {
        #expect(throws: ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte 6",
                                        at: SourceLocation(line: 2, column: 3, byteOffset: 6))) {
            try PlainTextReader().read(Array("one\nab".utf8) + [0xC3, 0x28] + Array(" rest".utf8))
        }
        #expect(throws: ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte 0",
                                        at: SourceLocation(line: 1, column: 1, byteOffset: 0))) {
            try PlainTextReader().read([0xED, 0xA0, 0x80])
        }
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("hi".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: ConversionError(code: "not-utf8", message: "input is UTF-16LE, not UTF-8: it begins with a UTF-16LE byte-order mark; convert it first (for example `iconv -f UTF-16LE -t UTF-8`)",
                                        at: SourceLocation(line: 1, column: 1, byteOffset: 0))) {
            try PlainTextReader().read(utf16)
        }
    }

    @Test("Input over the limit is refused")
    func tooLarge() {
        #expect(throws: ConversionError(code: "input-too-large", message: "input is 5 bytes, over the limit of 4")) {
            try PlainTextReader(options: .init(maxInputBytes: 4)).read("hello")
        }
    }

    @Test("Text written as plain text reads back as the same paragraphs and breaks")
    func textRoundTrip() throws {
        let document = Document(blocks: [Block(.paragraph, text: "one\ntwo"), Block(.paragraph, text: "<b>three</b> *four*")])
        let written = try PlainTextWriter().write(document).value
        #expect(try PlainTextReader().read(written).value == document)
    }

    @Test("Linear: twice the input takes about twice as long, whatever its shape",
          arguments: ["word ", "\n", "\n \n", "\r", "a\0", "\u{3000}\n", "👨‍👩‍👧 "])
    func linear(_ unit: String) {
        let make = { (count: Int) in Array(String(repeating: unit, count: count).utf8) }
        let ratios = LinearTime.ratios(small: make(40_000), large: make(80_000), runs: 2) { bytes in
            _ = try? PlainTextReader().read(bytes)
        }
        #expect(ratios.contains { $0 < 2.5 }, "\(unit.debugDescription): time ratios for 2n against n were \(ratios)")
    }
}
