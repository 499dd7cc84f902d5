import Foundation
import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

@Suite("Markup JSON writer")
struct WriterTests {
    static let fixtures = FixtureFile.load(TestPaths.tests("MarkbridgeJSONTests/Fixtures/writer.txt"))

    @Test("The fixture file is there and parsed")
    func fixturesLoaded() throws {
        #expect(Self.fixtures.count >= 3)
    }

    @Test("Exact output bytes", arguments: fixtures)
    func golden(_ fixture: Fixture) throws {
        let read = try MarkupJSONReader().read(fixture.input)
        #expect(read.diagnostics.isEmpty)
        let written = String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        #expect(written == fixture.expected + "\n", "\(fixture.origin) \(fixture.title)")
    }

    /// The escaping rules written out one scalar at a time, as the reference the writer's
    /// word-at-a-time skipping must agree with.
    static func referenceLiteral(_ text: String) -> String {
        func hex(_ unit: UInt32) -> String {
            let digits = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20, 0x2028, 0x2029, 0xFDD0...0xFDEF: out += hex(value)
            case _ where value & 0xFFFE == 0xFFFE:
                if value > 0xFFFF {
                    out += hex(0xD800 + ((value - 0x10000) >> 10)) + hex(0xDC00 + ((value - 0x10000) & 0x3FF))
                } else {
                    out += hex(value)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("String escaping agrees with the rules one scalar at a time, over random text", arguments: [3, 8, 9, 17, 40])
    func escaping(length: Int) {
        var random = SystemRandomNumberGenerator()
        // Noncharacters cannot be written in a literal: they are made from their values.
        let pieces = ["a", "a", "a", " ", "П", "日", "👍", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}",
                      "\u{2027}", "\u{FFFD}", "é"]
            + [0xFDD0, 0xFFFE, 0x1FFFF, 0x10FFFE].map { String(Character(Unicode.Scalar($0)!)) }
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            #expect(JSONStringLiteral.encode(text) == Self.referenceLiteral(text), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("Pretty output: two-space indentation, one key a line")
    func pretty() throws {
        let document = Document(blocks: [Block(.paragraph, text: "ab", markups: [Markup(.strong, start: 0, end: 1)]), Block(.horizontalRule)])
        let written = String(decoding: try MarkupJSONWriter(options: .init(prettyPrinted: true)).write(document).value, as: UTF8.self)
        #expect(written == """
            {
              "version": 1,
              "offsetUnit": "utf16",
              "paragraphs": [
                {
                  "type": "P",
                  "text": "ab",
                  "markups": [
                    {
                      "type": "STRONG",
                      "start": 0,
                      "end": 1
                    }
                  ]
                },
                {
                  "type": "HR"
                }
              ]
            }

            """)
    }

    @Test("Compact output is pretty output without its layout, for every markup kind")
    func compactMatchesPretty() throws {
        let kinds: [MarkupKind] = [
            .strong, .emphasis, .code, .link(LinkTarget(href: "https://e.com/", title: "t")), .strike, .underline,
            .superscript, .subscript, .highlight, .color(try #require(CSSColor(hex: "#FF0000"))),
            .background(try #require(CSSColor(hex: "#00FF00"))), .image(ImageSource(src: "https://e.com/i.png", alt: "a")),
        ]
        // Every kind over two characters, but the image over its U+FFFC.
        let document = Document(blocks: [Block(.paragraph, text: "abcdefghijklmnop\u{FFFC}",
                                               markups: kinds.enumerated().map { index, kind in
            if case .image = kind { return Markup(kind, start: 16, end: 17) }
            return Markup(kind, start: index, end: index + 2)
        })])
        let compact = String(decoding: try MarkupJSONWriter().write(document).value, as: UTF8.self)
        let pretty = String(decoding: try MarkupJSONWriter(options: .init(prettyPrinted: true)).write(document).value, as: UTF8.self)
        let unindented = pretty.split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
            .replacingOccurrences(of: "\": ", with: "\":")
        #expect(compact == unindented + "\n")
        for kind in kinds { #expect(compact.contains("{\"type\":\"\(kind.name)\",\"start\":")) }
    }

    @Test("Offsets are written in the unit asked for")
    func units() throws {
        let document = Document(blocks: [Block(.paragraph, text: "日👍 b", markups: [Markup(.strong, start: 3, end: 5)])])
        func markup(_ unit: OffsetUnit) throws -> String {
            let json = String(decoding: try MarkupJSONWriter(options: .init(offsetUnit: unit)).write(document).value, as: UTF8.self)
            return String(json[json.range(of: "\"markups\"")!.lowerBound...])
        }
        #expect(try markup(.utf16) == #""markups":[{"type":"STRONG","start":3,"end":5}]}]}"# + "\n")
        #expect(try markup(.scalar) == #""markups":[{"type":"STRONG","start":2,"end":4}]}]}"# + "\n")
        #expect(try markup(.utf8) == #""markups":[{"type":"STRONG","start":7,"end":9}]}]}"# + "\n")
    }

    @Test("An unsafe URL in a hand-built IR does not reach the output")
    func unsafeURL() throws {
        let document = Document(blocks: [Block(.paragraph, text: "x", markups: [Markup(.link(LinkTarget(href: "javascript:alert(1)")), start: 0, end: 1)])])
        let written = try MarkupJSONWriter().write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"}]}"# + "\n")
        #expect(written.diagnostics.map(\.description) == ["warning: LINK 0..<1 dropped from /paragraphs/0: scheme 'javascript:' is not allowed [unsafe-url]"])
    }
}
