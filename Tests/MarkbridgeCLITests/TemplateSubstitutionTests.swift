import Markbridge
import Testing

/// A template is read first, by any reader, and filled afterwards: a value is plain text, and
/// every markup keeps covering the characters of the template it covered, a value when it
/// covers its whole placeholder.
@Suite("Templates: substituting placeholders")
struct TemplateSubstitutionTests {
    static func html(_ html: String) throws -> Document {
        try Converter().read(Array(html.utf8), from: .html).value
    }

    static func paragraph(_ text: String, _ markups: [Markup] = []) -> Document {
        Document(blocks: [Block(.paragraph, text: text, markups: markups)])
    }

    @Test("A value full of markup characters stays those characters, and is not substituted again",
          arguments: ["<b>x</b>", "**y** _z_", "&amp; &lt;", "{name}", "%@ %1$@ %d %%", "{x}", "<script>alert(1)</script>"])
    func valuesAreText(value: String) throws {
        let template = try Self.html("<p>Hi <b>{name}</b>!</p>")
        let filled = try template.substitutingPlaceholders(named: ["name": value])
        let length = value.utf16.count
        #expect(filled.value == Self.paragraph("Hi \(value)!", [Markup(.strong, start: 3, end: 3 + length)]))
        #expect(filled.diagnostics.isEmpty)
        #expect(filled.value.invariantViolations().isEmpty)
    }

    @Test("Written out, a value is escaped as text: HTML and Markdown")
    func valuesWrittenAsText() throws {
        let template = try Self.html("<p>Hi <b>{name}</b> &amp; %@</p>")
        let filled = try template.substitutingPlaceholders(["**one** {name}"], named: ["name": "<i>Tanaka</i> &amp;"]).value
        let converter = Converter()
        #expect(String(decoding: try converter.write(filled, to: .html).value, as: UTF8.self)
            == "<p>Hi <strong>&lt;i&gt;Tanaka&lt;/i&gt; &amp;amp;</strong> &amp; **one** {name}</p>\n")
        #expect(String(decoding: try converter.write(filled, to: .markdown).value, as: UTF8.self)
            == #"Hi **\<i\>Tanaka\</i\> \&amp;** & \*\*one\*\* {name}"# + "\n")
    }

    /// "ab{x}cd" with x = "VALUE": the placeholder is 2..<5, its value 2..<7 of "abVALUEcd".
    @Test("A markup covers a value when it covers its whole placeholder; edges inside one move off the value", arguments: [
        (TextRange(start: 0, end: 2), TextRange(start: 0, end: 2), 0),   // ends at the placeholder's start: before it
        (TextRange(start: 5, end: 7), TextRange(start: 7, end: 9), 0),   // starts at its end: after it
        (TextRange(start: 2, end: 5), TextRange(start: 2, end: 7), 0),   // exactly the placeholder
        (TextRange(start: 1, end: 6), TextRange(start: 1, end: 8), 0),   // around it
        (TextRange(start: 0, end: 7), TextRange(start: 0, end: 9), 0),   // the whole text
        (TextRange(start: 2, end: 7), TextRange(start: 2, end: 9), 0),   // from its start to the end
        (TextRange(start: 3, end: 7), TextRange(start: 7, end: 9), 1),   // starts inside: the value left out
        (TextRange(start: 0, end: 4), TextRange(start: 0, end: 2), 1),   // ends inside
        (TextRange(start: 3, end: 4), nil, 1),                           // inside it alone: nothing left
        (TextRange(start: 2, end: 4), nil, 1),                           // from its start to inside it
    ] as [(TextRange, TextRange?, Int)])
    func markupEdges(template range: TextRange, expected: TextRange?, warnings: Int) throws {
        let template = Self.paragraph("ab{x}cd", [Markup(.emphasis, range)])
        let filled = try template.substitutingPlaceholders(named: ["x": "VALUE"])
        #expect(filled.value == Self.paragraph("abVALUEcd", expected.map { [Markup(.emphasis, $0)] } ?? []))
        #expect(filled.diagnostics == Array(repeating: Diagnostic(.warning, code: "placeholder-split",
                                                                   message: "EM over part of '{x}' (block 0, UTF-16 offset 2) leaves its value out",
                                                                   block: 0), count: warnings))
    }

    @Test("A markup edge inside a placeholder does not hide it: {na<b>me}</b> is found, and the bold leaves the value out")
    func placeholderSplitByMarkup() throws {
        let template = try Self.html("<p>{na<b>me}</b> and <b>more</b></p>")
        #expect(template == Self.paragraph("{name} and more", [Markup(.strong, start: 3, end: 6), Markup(.strong, start: 11, end: 15)]))
        let filled = try template.substitutingPlaceholders(named: ["name": "Tanaka"])
        #expect(filled.value == Self.paragraph("Tanaka and more", [Markup(.strong, start: 11, end: 15)]))
        #expect(filled.diagnostics.map(\.description) == ["warning: STRONG over part of '{name}' (block 0, UTF-16 offset 0) leaves its value out [placeholder-split]"])
    }

    @Test("Positional placeholders in another order: English, Arabic (right to left) and Japanese, each with its markups")
    func reorderedLanguages() throws {
        let english = try Self.html("<p><b>%1$@</b> sent <i>%2$@</i> a gift.</p>").substitutingPlaceholders(["Sara", "Omar"])
        #expect(english.value == Self.paragraph("Sara sent Omar a gift.", [Markup(.strong, start: 0, end: 4), Markup(.emphasis, start: 10, end: 14)]))
        // "%2$@ received a gift from %1$@": the receiver first.
        let arabic = try Self.html("<p dir=\"rtl\">تلقّى <i>%2$@</i> هدية من <b>%1$@</b>.</p>").substitutingPlaceholders(["سارة", "عمر"])
        #expect(arabic.value == Self.paragraph("تلقّى عمر هدية من سارة.", [Markup(.emphasis, start: 6, end: 9), Markup(.strong, start: 18, end: 22)]))
        let japanese = try Self.html("<p><i>%2$@</i>さんは<b>%1$@</b>さんから贈り物を受け取りました。</p>").substitutingPlaceholders(["佐藤", "田中"])
        #expect(japanese.value == Self.paragraph("田中さんは佐藤さんから贈り物を受け取りました。", [Markup(.emphasis, start: 0, end: 2), Markup(.strong, start: 5, end: 7)]))
        for filled in [english, arabic, japanese] {
            #expect(filled.diagnostics.isEmpty)
            #expect(filled.value.invariantViolations().isEmpty)
        }
    }

    @Test("Emoji and surrogate pairs, in the template and in values, shift ranges by their exact UTF-16 length")
    func surrogatePairs() throws {
        // 👍 is 2 units, the family 8 (three pairs, two joiners), the flag 4 (two pairs).
        let template = Self.paragraph("👍 {who} liked {what}", [Markup(.strong, start: 9, end: 14), Markup(.emphasis, start: 15, end: 21)])
        let filled = try template.substitutingPlaceholders(named: ["who": "👨‍👩‍👧", "what": "🇯🇵"])
        #expect(filled.value == Self.paragraph("👍 👨‍👩‍👧 liked 🇯🇵", [Markup(.strong, start: 12, end: 17), Markup(.emphasis, start: 18, end: 22)]))
        #expect(filled.value.invariantViolations().isEmpty)
        let json = String(decoding: try Converter().write(filled.value, to: .markupJSON).value, as: UTF8.self)
        #expect(json == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"👍 👨‍👩‍👧 liked 🇯🇵","markups":[{"type":"STRONG","start":12,"end":17},{"type":"EM","start":18,"end":22}]}]}"# + "\n")
    }

    @Test("Sequential placeholders count on across blocks; %d, %i and %u take whole numbers, written as Swift writes them; %% is a percent sign")
    func acrossBlocks() throws {
        let template = Document(blocks: [
            Block(.heading(level: 1), text: "%@ has %ld new", markups: [Markup(.emphasis, start: 0, end: 2)]),
            Block(.unorderedListItem, text: "%i%% of %llu, {name}", markups: [Markup(.code, start: 0, end: 4)]),
        ])
        let filled = try template.substitutingPlaceholders(["Ada", "+07", "-5", "0012"], named: ["name": "{name}"])
        #expect(filled.value == Document(blocks: [
            Block(.heading(level: 1), text: "Ada has 7 new", markups: [Markup(.emphasis, start: 0, end: 3)]),
            Block(.unorderedListItem, text: "-5% of 12, {name}", markups: [Markup(.code, start: 0, end: 3)]),
        ]))
    }

    @Test("Only a { that begins {name} is a placeholder; the rest is text")
    func bracesAsText() throws {
        let template = Self.paragraph("{ x } {} {1} {a-b} {name {_ok}")
        let filled = try template.substitutingPlaceholders(named: ["_ok": "yes"])
        #expect(filled.value == Self.paragraph("{ x } {} {1} {a-b} {name yes"))
    }

    @Test("Table cells stretch around their values")
    func tableCells() throws {
        let template = try Self.html("<table><tr><td>{a}</td><td><b>%@</b> x</td></tr></table>")
        let filled = try template.substitutingPlaceholders(["12345"], named: ["a": "Z"])
        let expected = try Self.html("<table><tr><td>Z</td><td><b>12345</b> x</td></tr></table>")
        #expect(filled.value == expected)
        #expect(filled.value.invariantViolations().isEmpty)
    }

    @Test("URLs are never substituted: a link keeps its href, a {name} in it is reported, and a value cannot make a javascript: link")
    func urls() throws {
        let template = try Self.html(#"<p><a href="https://example.com/u/{id}">{label}</a> <a href="https://example.com/">{url}</a></p>"#)
        let filled = try template.substitutingPlaceholders(named: ["label": "profile", "url": "javascript:alert(1)"])
        #expect(filled.value == Self.paragraph("profile javascript:alert(1)", [
            Markup(.link(LinkTarget(href: "https://example.com/u/{id}")), start: 0, end: 7),
            Markup(.link(LinkTarget(href: "https://example.com/")), start: 8, end: 27),
        ]))
        #expect(filled.diagnostics.map(\.description) == [
            "warning: LINK URL 'https://example.com/u/{id}' keeps '{id}' as written: values never enter URLs (block 0) [placeholder-in-url]",
        ])
        #expect(throws: ConversionError(code: "unused-argument",
                                        message: "argument 'id' is taken by no placeholder (its placeholder in a URL is not substituted: values never enter URLs)")) {
            try template.substitutingPlaceholders(named: ["label": "x", "url": "y", "id": "7"])
        }
    }

    @Test("Errors name the placeholder, its block and its UTF-16 offset", arguments: [
        (["Hi {name}!"], [], [:], "missing-argument", "no argument for '{name}' (block 0, UTF-16 offset 3)"),
        (["%@ and %@"], ["a"], [:], "missing-argument", "no argument for '%@' (block 0, UTF-16 offset 7): it takes argument 2, and 1 was given"),
        (["%1$@", "👍 %3$@"], ["a", "b"], [:], "missing-argument", "no argument for '%3$@' (block 1, UTF-16 offset 3): it takes argument 3, and 2 were given"),
        (["%@"], ["a", "b"], [:], "unused-argument", "argument 2 ('b') is taken by no placeholder"),
        (["%1$@ %3$@"], ["a", "b", "c"], [:], "unused-argument", "argument 2 ('b') is taken by no placeholder"),
        (["{a}"], [], ["a": "1", "c": "3", "b": "2"], "unused-argument", "argument 'b' is taken by no placeholder"),
        (["x %x"], [], [:], "invalid-placeholder",
         "unsupported placeholder '%x' (block 0, UTF-16 offset 2); templates read %@, %d, %i, %u, their positional forms (%1$@), {name} and %%"),
        (["50% off"], [], [:], "invalid-placeholder", "a '%' that begins no placeholder (block 0, UTF-16 offset 2); write '%%' for a percent sign"),
        (["100%"], [], [:], "invalid-placeholder", "a '%' that begins no placeholder (block 0, UTF-16 offset 3); write '%%' for a percent sign"),
        (["%5d"], ["1"], [:], "invalid-placeholder",
         "unsupported placeholder '%5d' (block 0, UTF-16 offset 0); templates read %@, %d, %i, %u, their positional forms (%1$@), {name} and %%"),
        (["%.2f"], ["1"], [:], "invalid-placeholder",
         "unsupported placeholder '%.2f' (block 0, UTF-16 offset 0); templates read %@, %d, %i, %u, their positional forms (%1$@), {name} and %%"),
        (["%ll@"], ["1"], [:], "invalid-placeholder",
         "unsupported placeholder '%ll@' (block 0, UTF-16 offset 0); templates read %@, %d, %i, %u, their positional forms (%1$@), {name} and %%"),
        (["%0$@"], ["1"], [:], "invalid-placeholder", "'%0$@' (block 0, UTF-16 offset 0) names position 0; positions count from 1"),
        (["%1$@ and", "%@"], ["a"], [:], "invalid-placeholder",
         "'%@' (block 1, UTF-16 offset 0) after '%1$@' (block 0, UTF-16 offset 0): a template's placeholders are all positional (%1$@) or all sequential (%@)"),
        (["%d"], ["three"], [:], "invalid-argument", "'%d' (block 0, UTF-16 offset 0) takes a whole number, not 'three' (argument 1)"),
        (["%2$@ %1$u"], ["-1", "x"], [:], "invalid-argument", "'%1$u' (block 0, UTF-16 offset 5) takes a whole number of 0 or more, not '-1' (argument 1)"),
        (["%i"], ["99999999999999999999"], [:], "invalid-argument",
         "'%i' (block 0, UTF-16 offset 0) takes a whole number, not '99999999999999999999' (argument 1)"),
    ] as [([String], [String], [String: String], String, String)])
    func errors(blocks: [String], values: [String], named: [String: String], code: String, message: String) {
        let template = Document(blocks: blocks.map { Block(.paragraph, text: $0) })
        #expect(throws: ConversionError(code: code, message: message)) {
            try template.substitutingPlaceholders(values, named: named)
        }
    }

    @Test("The README's example, as it stands there")
    func readmeExample() throws {
        let template = try Converter().read(Array("<p><b>%2$@</b> invited %1$@.</p>".utf8), from: .html).value
        let filled = try template.substitutingPlaceholders(["you", "Tanaka <admin>"])
        let html = try Converter().write(filled.value, to: .html).value
        #expect(String(decoding: html, as: UTF8.self) == "<p><strong>Tanaka &lt;admin&gt;</strong> invited you.</p>\n")
    }

    @Test("A template without placeholders comes back as it was")
    func noPlaceholders() throws {
        let template = try Self.html("<p>Plain <b>text</b> { }</p><ul><li>item</li></ul>")
        #expect(try template.substitutingPlaceholders() == Diagnosed(template))
    }
}
