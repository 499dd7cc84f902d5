import Foundation
import Testing
import MarkbridgeAttributedString
import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeHTML
import MarkbridgeTestSupport

/// Documents as `AttributedString` (``AttributedStringWriter``): each run's text and every
/// attribute value, compared in full.
@Suite("AttributedString writer")
struct AttributedStringWriterTests {
    typealias Keys = AttributeScopes.MarkbridgeAttributes

    /// Each run as its text and its inline attributes, in a fixed order.
    static func inlineRuns(_ string: AttributedString) -> [String] {
        string.runs.map { run in
            let a = run.attributes
            var parts: [String] = []
            if a[Keys.StrongAttribute.self] == true { parts.append("strong") }
            if a[Keys.EmphasisAttribute.self] == true { parts.append("emphasis") }
            if a[Keys.CodeAttribute.self] == true { parts.append("code") }
            if a[Keys.StrikethroughAttribute.self] == true { parts.append("strikethrough") }
            if a[Keys.UnderlineAttribute.self] == true { parts.append("underline") }
            if a[Keys.SuperscriptAttribute.self] == true { parts.append("superscript") }
            if a[Keys.SubscriptAttribute.self] == true { parts.append("subscript") }
            if a[Keys.HighlightAttribute.self] == true { parts.append("highlight") }
            if let href = a[Keys.LinkHrefAttribute.self] { parts.append("linkHref=\(href)") }
            if let url = a.link { parts.append("link=\(url.absoluteString)") }
            if let color = a[Keys.TextColorAttribute.self] { parts.append("textColor=\(color)") }
            if let color = a[Keys.BackgroundColorAttribute.self] { parts.append("backgroundColor=\(color)") }
            if let image = a[Keys.ImageAttribute.self] {
                let size = image.width == nil && image.height == nil ? "" : ",\(image.width.map(String.init) ?? "-")x\(image.height.map(String.init) ?? "-")"
                parts.append("image=\(image.src),\(image.alt ?? "-"),\(image.title ?? "-")\(size)")
            }
            if let url = a.imageURL { parts.append("imageURL=\(url.absoluteString)") }
            if let tag = a[Keys.HashtagAttribute.self] { parts.append("hashtag=\(tag)") }
            if let name = a[Keys.MentionAttribute.self] { parts.append("mention=\(name)") }
            return String(string[run.range].characters) + (parts.isEmpty ? "" : " {" + parts.joined(separator: " ") + "}")
        }
    }

    /// Each run as its text and its block attributes.
    static func blockRuns(_ string: AttributedString) -> [String] {
        string.runs.map { run in
            let a = run.attributes
            var parts = [a[Keys.BlockKindAttribute.self]?.rawValue ?? "?", "#\(a[Keys.BlockIndexAttribute.self].map(String.init) ?? "?")",
                         "d\(a[Keys.DepthAttribute.self].map(String.init) ?? "?")", "q\(a[Keys.QuoteDepthAttribute.self].map(String.init) ?? "?")"]
            if let alignment = a[Keys.AlignmentAttribute.self] { parts.append(alignment.rawValue) }
            if let cell = a[Keys.TableCellAttribute.self] { parts.append("cell\(cell)") }
            return String(string[run.range].characters).debugDescription + " " + parts.joined(separator: " ")
        }
    }

    static func write(_ blocks: [Block]) throws -> AttributedString {
        try AttributedStringWriter().write(Document(blocks: blocks))
    }

    @Test("Each markup kind: its attribute over its range, nothing around it", arguments: [
        (MarkupKind.strong, "{strong}"),
        (.emphasis, "{emphasis}"),
        (.code, "{code}"),
        (.strike, "{strikethrough}"),
        (.underline, "{underline}"),
        (.superscript, "{superscript}"),
        (.subscript, "{subscript}"),
        (.highlight, "{highlight}"),
        (.link(LinkTarget(href: "https://e.x/a?b=1", title: "T")), "{linkHref=https://e.x/a?b=1 link=https://e.x/a?b=1}"),
        (.color(CSSColor(red: 255, green: 0, blue: 0)), "{textColor=#FF0000}"),
        (.background(CSSColor(red: 0, green: 128, blue: 255, alpha: 128)), "{backgroundColor=#0080FF80}"),
        (.hashtag("東京"), "{hashtag=東京}"),
        (.mention("ana"), "{mention=ana}"),
    ])
    func markup(_ kind: MarkupKind, _ expected: String) throws {
        let string = try Self.write([Block(.paragraph, text: "a bc d", markups: [Markup(kind, start: 2, end: 4)])])
        #expect(Self.inlineRuns(string) == ["a ", "bc " + expected, " d"])
    }

    @Test("Every markup kind there is sets an attribute (images on their U+FFFC, above)")
    func everyKind() throws {
        for tag in MarkupKind.Tag.allCases where tag != .image {
            let string = try Self.write([Block(.paragraph, text: "a bc d", markups: [Markup(MarkupKind.sample(tag), start: 2, end: 4)])])
            #expect(Self.inlineRuns(string)[1].hasPrefix("bc {"), "\(tag.name) set no attribute")
        }
    }

    @Test("An inline image is its U+FFFC with the image and its size, its URL as Foundation's imageURL")
    func image() throws {
        let image = MarkupKind.image(ImageSource(src: "https://e.x/a.png", alt: "A", title: "T", width: 640, height: 480))
        let string = try Self.write([Block(.paragraph, text: "x\u{FFFC}y", markups: [Markup(.strong, start: 0, end: 3), Markup(image, start: 1, end: 2)])])
        #expect(Self.inlineRuns(string) == ["x {strong}", "\u{FFFC} {strong image=https://e.x/a.png,A,T,640x480 imageURL=https://e.x/a.png}", "y {strong}"])
        let written = try #require(string.runs.first { $0.attributes[Keys.ImageAttribute.self] != nil }?.attributes[Keys.ImageAttribute.self])
        #expect(written == ImageSource(src: "https://e.x/a.png", alt: "A", title: "T", width: 640, height: 480))
    }

    @Test("Nested and crossing markups: each run has every markup over it; the inner of two colors holds")
    func nesting() throws {
        let string = try Self.write([Block(.paragraph, text: "one two three", markups: [
            Markup(.strong, start: 0, end: 7), Markup(.emphasis, start: 4, end: 13),
            Markup(.color(CSSColor(red: 1, green: 2, blue: 3)), start: 0, end: 13), Markup(.color(CSSColor(red: 0xAA, green: 0xBB, blue: 0xCC)), start: 8, end: 13),
        ])])
        #expect(Self.inlineRuns(string) == ["one  {strong textColor=#010203}", "two {strong emphasis textColor=#010203}",
                                            "  {emphasis textColor=#010203}", "three {emphasis textColor=#AABBCC}"])
    }

    @Test("A link whose href is no URL keeps its href alone")
    func relativeLink() throws {
        let string = try Self.write([Block(.paragraph, text: "ab", markups: [Markup(.link(LinkTarget(href: "a b|c")), start: 0, end: 2)])])
        #expect(Self.inlineRuns(string) == (URL(string: "a b|c") == nil ? ["ab {linkHref=a b|c}"] : ["ab {linkHref=a b|c link=\(URL(string: "a b|c")!.absoluteString)}"]))
    }

    @Test("Every block kind: its text, then \"\\n\" with its block attributes; an image block its U+FFFC then its caption; a row its cells")
    func blockKinds() throws {
        let row = Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1), isHeader: true), TableCell(TextRange(start: 4, end: 6))], startsTable: true)),
                        text: "h | c2")
        let string = try Self.write([
            Block(.paragraph, text: "p", alignment: .center),
            Block(.heading(level: 3), text: "h"),
            Block(.blockquote, text: "q", quoteDepth: 1),
            Block(.codeBlock(language: "swift"), text: "let x = 1\nx"),
            Block(.unorderedListItem, text: "u"),
            Block(.orderedListItem(number: 7), text: "o", depth: 1),
            Block(.image(ImageSource(src: "https://e.x/i.png", alt: "I", height: 90)), text: "cap"),
            Block(.embed(Embed(.video, src: "https://e.x/v.mp4")), text: "fallback"),
            Block(.tableCaption, text: "c"),
            row,
            Block(.definitionTerm(continues: false), text: "t"),
            Block(.definitionDescription(continues: false), text: "d"),
            Block(.horizontalRule),
        ])
        #expect(Self.blockRuns(string) == [
            "\"p\\n\" P #0 d0 q0 center",
            "\"h\\n\" H3 #1 d0 q0",
            "\"q\\n\" BQ #2 d0 q1",
            "\"let x = 1\\nx\\n\" PRE #3 d0 q0",
            "\"u\\n\" ULI #4 d0 q0",
            "\"o\\n\" OLI #5 d1 q0",
            "\"\u{FFFC}\" IMG #6 d0 q0",
            "\"cap\\n\" IMG #6 d0 q0",
            "\"fallback\\n\" EMBED #7 d0 q0",
            "\"c\\n\" CAPTION #8 d0 q0",
            "\"h\" TR #9 d0 q0 cell0",
            "\" | \" TR #9 d0 q0",
            "\"c2\" TR #9 d0 q0 cell1",
            "\"\\n\" TR #9 d0 q0",
            "\"t\\n\" DT #10 d0 q0",
            "\"d\\n\" DD #11 d0 q0",
            "\"\\n\" HR #12 d0 q0",
        ])
        #expect(Self.inlineRuns(string).contains("\u{FFFC} {image=https://e.x/i.png,I,-,-x90 imageURL=https://e.x/i.png}"))
    }

    @Test("A list in a quote, a quote in a list item: each block's depth and quote depth; the last block has no separator")
    func nestedContainers() throws {
        let string = try Self.write([
            Block(.blockquote, text: "quote", quoteDepth: 1),
            Block(.unorderedListItem, text: "item", quoteDepth: 1),
            Block(.unorderedListItem, text: "inner", depth: 1, quoteDepth: 1),
            Block(.orderedListItem(number: 1), text: "next"),
            Block(.blockquote, text: "in item", depth: 1, quoteDepth: 1, quoteListDepths: [1]),
        ])
        #expect(Self.blockRuns(string) == [
            "\"quote\\n\" BQ #0 d0 q1", "\"item\\n\" ULI #1 d0 q1", "\"inner\\n\" ULI #2 d1 q1", "\"next\\n\" OLI #3 d0 q0", "\"in item\" BQ #4 d1 q1",
        ])
    }

    @Test("An empty quote has no text; an empty paragraph is a line of its own")
    func emptyBlocks() throws {
        let string = try Self.write([Block(.paragraph, text: "a"), Block(.blockquote, quoteDepth: 1), Block(.paragraph), Block(.paragraph, text: "b")])
        #expect(Self.blockRuns(string) == ["\"a\\n\" P #0 d0 q0", "\"\\n\" P #2 d0 q0", "\"b\" P #3 d0 q0"])
    }

    @Test("UTF-16 offsets past emoji and surrogate pairs land on the right characters")
    func emoji() throws {
        // 👍🏽 is four UTF-16 units, 😀 two, é one.
        let json = #"{"paragraphs":[{"type":"P","text":"👍🏽 é😀b","markups":[{"type":"STRONG","start":0,"end":4},{"type":"EM","start":6,"end":8},{"type":"CODE","start":5,"end":6}]}]}"#
        let string = try AttributedStringWriter().write(markupJSON: Array(json.utf8)).value
        #expect(Self.inlineRuns(string) == ["👍🏽 {strong}", " ", "é {code}", "😀 {emphasis}", "b"])
    }

    @Test("Markup JSON bytes: the reader's diagnostics come back, its errors are thrown")
    func markupJSON() throws {
        let json = #"{"paragraphs":[{"type":"P","text":"x","markups":[{"type":"LINK","start":0,"end":1,"href":"javascript:alert(1)"}]}]}"#
        let written = try AttributedStringWriter().write(markupJSON: Array(json.utf8))
        #expect(Self.inlineRuns(written.value) == ["x"])
        #expect(written.diagnostics.map(\.code) == ["unsafe-url"])
        #expect(throws: ConversionError.self) { try AttributedStringWriter().write(markupJSON: Array("{".utf8)) }
    }

    @Test("The characters are the blocks' texts joined by \"\\n\", each run in one block, over 500 generated documents")
    func generated() throws {
        var generator = DocumentGenerator(seed: 12, profile: .hostile)
        for index in 0..<500 {
            let document = generator.document(blockCount: 1 + index % 30)
            let string = try AttributedStringWriter().write(document)
            var lines: [String] = []
            var lastIsEmpty = false
            for event in document.blockEvents {
                switch event {
                case .enter(.block(let block)), .enter(.tableRow(let block)):
                    let text = document.blocks[block].text
                    if case .image = document.blocks[block].kind { lines.append("\u{FFFC}" + text) } else { lines.append(text) }
                    lastIsEmpty = text.isEmpty && lines.last == text
                default: break
                }
            }
            let expected = lines.joined(separator: "\n") + (lastIsEmpty ? "\n" : "")
            #expect(String(string.characters) == expected)
            for run in string.runs {
                let block = try #require(run.attributes[Keys.BlockIndexAttribute.self])
                #expect(run.attributes[Keys.BlockKindAttribute.self] == document.blocks[block].kind.tag)
            }
        }
    }

    @Test("Many documents written at once, from many tasks, as one at a time")
    func concurrent() async throws {
        var generator = DocumentGenerator(seed: 3, profile: .realistic)
        let documents = (0..<64).map { generator.document(blockCount: 5 + $0 % 20) }
        let json = try documents.map { try MarkupJSONWriter().write($0).value }
        let serial = try json.map { try AttributedStringWriter().write(markupJSON: $0).value }
        let parallel = await withTaskGroup(of: (Int, AttributedString?).self) { group in
            for (index, bytes) in json.enumerated() {
                group.addTask { (index, try? AttributedStringWriter().write(markupJSON: bytes).value) }
            }
            var results = [AttributedString?](repeating: nil, count: json.count)
            for await (index, string) in group { results[index] = string }
            return results
        }
        #expect(parallel == serial.map { Optional($0) })
    }

    @Test("Block kinds and alignments are coded as their markup JSON and CSS names")
    func coding() throws {
        struct Coded: Codable {
            var kind: BlockKind.Tag
            var alignment: TextAlignment
            init(kind: BlockKind.Tag, alignment: TextAlignment) { (self.kind, self.alignment) = (kind, alignment) }
            enum Keys: CodingKey { case kind, alignment }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try AttributeScopes.MarkbridgeAttributes.BlockKindAttribute.encode(kind, to: container.superEncoder(forKey: .kind))
                try AttributeScopes.MarkbridgeAttributes.AlignmentAttribute.encode(alignment, to: container.superEncoder(forKey: .alignment))
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                kind = try AttributeScopes.MarkbridgeAttributes.BlockKindAttribute.decode(from: container.superDecoder(forKey: .kind))
                alignment = try AttributeScopes.MarkbridgeAttributes.AlignmentAttribute.decode(from: container.superDecoder(forKey: .alignment))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Coded(kind: .heading2, alignment: .right))
        #expect(String(decoding: data, as: UTF8.self) == #"{"alignment":"right","kind":"H2"}"#)
        let decoded = try JSONDecoder().decode(Coded.self, from: data)
        #expect(decoded.kind == .heading2 && decoded.alignment == .right)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Coded.self, from: Data(#"{"alignment":"right","kind":"H9"}"#.utf8)) }
    }
}

/// What Samples/attributed-string/README.md says its snippet prints.
@Suite("AttributedString sample")
struct AttributedStringSampleTests {
    @Test("The sample's markup JSON and HTML give the runs its comments show")
    func sample() throws {
        let json = Array(#"{"paragraphs":[{"type":"H2","text":"Title"},{"type":"P","text":"Hello 👋 world","markups":[{"type":"STRONG","start":9,"end":14}]}]}"#.utf8)
        let text = try AttributedStringWriter().write(markupJSON: json).value
        let runs = text.runs.map { "\(String(text[$0.range].characters).debugDescription) \($0.blockKind?.rawValue ?? "") \($0.strong ?? false)" }
        #expect(runs == [#""Title\n" H2 false"#, #""Hello 👋 " P false"#, #""world" P true"#])
        let page = try AttributedStringWriter().write(try HTMLReader().read(Array(#"<ul><li>One <a href="https://e.x">link</a></li></ul>"#.utf8)).value)
        #expect(page.runs.compactMap { $0.linkHref } == ["https://e.x"])
    }
}
