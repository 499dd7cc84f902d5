import Foundation
import Markbridge
import MarkbridgeTestSupport
import Testing

/// Hashtags by the scanner's rule: `#` after a line start, whitespace or punctuation, then
/// letters, marks, digits and `_` of any script with at least one letter.
@Suite("Hashtag detection")
struct HashtagTests {
    static func detected(_ text: String, _ kinds: EntityDetection.Kinds = .hashtags, links: EntityDetection? = nil) -> [Markup] {
        let document = Document(blocks: [Block(.paragraph, text: text)])
        return (links ?? EntityDetection(kinds: kinds)).apply(to: document).value.blocks[0].markups
    }

    @Test("The shared sample: hashtags in three scripts, none for an emoji, none inside a word; offsets exact in every unit")
    func sharedSample() throws {
        let path = TestPaths.sharedData("samples/hashtags.txt")
        guard let input = FileManager.default.contents(atPath: path) else {
            print("↳ skipped: \(path) is absent")
            return
        }
        let expected: [(OffsetUnit, String)] = [
            (.utf16, #"[{"type":"HASHTAG","start":19,"end":25,"tag":"sushi"},{"type":"HASHTAG","start":26,"end":29,"tag":"東京"},{"type":"HASHTAG","start":38,"end":44,"tag":"λόγος"},{"type":"HASHTAG","start":46,"end":52,"tag":"start"},{"type":"HASHTAG","start":96,"end":102,"tag":"after"}]"#),
            (.scalar, #"[{"type":"HASHTAG","start":19,"end":25,"tag":"sushi"},{"type":"HASHTAG","start":26,"end":29,"tag":"東京"},{"type":"HASHTAG","start":37,"end":43,"tag":"λόγος"},{"type":"HASHTAG","start":45,"end":51,"tag":"start"},{"type":"HASHTAG","start":91,"end":97,"tag":"after"}]"#),
            (.utf8, #"[{"type":"HASHTAG","start":19,"end":25,"tag":"sushi"},{"type":"HASHTAG","start":26,"end":33,"tag":"東京"},{"type":"HASHTAG","start":44,"end":55,"tag":"λόγος"},{"type":"HASHTAG","start":57,"end":63,"tag":"start"},{"type":"HASHTAG","start":121,"end":127,"tag":"after"}]"#),
        ]
        for (unit, markups) in expected {
            let converter = Converter(options: ConversionOptions(offsetUnit: unit, entityDetection: EntityDetection(kinds: .hashtags)))
            let json = String(decoding: try converter.convert(Array(input), from: .plainText, to: .markupJSON).value, as: UTF8.self)
            #expect(json.contains(#""markups":"# + markups + "}"), "\(unit): \(json)")
        }
    }

    @Test("What is and is not a hashtag", arguments: [
        ("#sushi", ["sushi"]),
        ("a #東京 b", ["東京"]),
        ("(#λόγος)", ["λόγος"]),
        ("not#tag", []),
        ("#123", []),
        ("#123abc", ["123abc"]),
        ("#_", []),
        ("#😡", []),
        ("#tag😡 x", ["tag"]),
        ("#a#b", []),
        ("##double", ["double"]),
        ("＃全角", ["全角"]),
        ("#snake_case, #done.", ["snake_case", "done"]),
        ("see https://example.com/#top and #real", ["real"]),
        ("👍#tag", []),
        ("#हिन्दी", ["हिन्दी"]),
    ])
    func rules(text: String, tags: [String]) {
        let found = Self.detected(text, [.hashtags, .urls]).compactMap { markup -> String? in
            if case .hashtag(let tag) = markup.kind { tag } else { nil }
        }
        #expect(found == tags, "\(text)")
    }

    @Test("A tag is normalised to NFC; the text and its range stay as written")
    func normalisation() {
        let text = "#cafe\u{301} ok"
        let markups = Self.detected(text)
        #expect(markups == [Markup(.hashtag("caf\u{E9}"), start: 0, end: 6)])
    }

    @Test("Surrogate pairs and ZWJ sequences before and inside a hashtag keep the offsets exact")
    func astralOffsets() {
        // 👨‍👩‍👧 is 8 UTF-16 units; 𝒜 (U+1D49C) is a letter outside the BMP, 2 units.
        let markups = Self.detected("👨‍👩‍👧 #𝒜b #x")
        #expect(markups == [Markup(.hashtag("𝒜b"), start: 9, end: 13), Markup(.hashtag("x"), start: 14, end: 16)])
    }

    @Test("Never inside code, an existing link or a code block")
    func excluded() {
        let document = Document(blocks: [
            Block(.paragraph, text: "`#a` #b [#c](u)", markups: [Markup(.code, start: 0, end: 4), Markup(.link(LinkTarget(href: "https://x.y/")), start: 8, end: 15)]),
            Block(.codeBlock(language: nil), text: "#d"),
        ])
        let result = EntityDetection(kinds: .hashtags).apply(to: document).value
        #expect(result.blocks[0].markups.filter { $0.kind.tag == .hashtag } == [Markup(.hashtag("b"), start: 5, end: 7)])
        #expect(result.blocks[1].markups.isEmpty)
    }

    @Test("With a link template, each hashtag also links there, its value percent-encoded")
    func linked() throws {
        let detection = EntityDetection(kinds: .hashtags, hashtagLink: try EntityLinkTemplate("app://hashtag?tag={tag}", placeholder: "{tag}"))
        let markups = Self.detected("#東京 #a&b", links: detection)
        #expect(markups == [Markup(.link(LinkTarget(href: "app://hashtag?tag=%E6%9D%B1%E4%BA%AC")), start: 0, end: 3),
                            Markup(.hashtag("東京"), start: 0, end: 3),
                            Markup(.link(LinkTarget(href: "app://hashtag?tag=a")), start: 4, end: 6),
                            Markup(.hashtag("a"), start: 4, end: 6)])
    }

    @Test("Link templates that cannot be used are refused with the reason")
    func badTemplates() {
        #expect(throws: EntityDetectionError(message: "'app://tag' has no {tag} to put the value in")) {
            try EntityLinkTemplate("app://tag", placeholder: "{tag}")
        }
        #expect(throws: EntityDetectionError(message: "'javascript:alert({tag})' uses the javascript: scheme, which is never linked to")) {
            try EntityLinkTemplate("javascript:alert({tag})", placeholder: "{tag}")
        }
        #expect(throws: EntityDetectionError(message: "'/tags/{tag}' is not an absolute URL (it needs a scheme, as in app://tag?t={tag})")) {
            try EntityLinkTemplate("/tags/{tag}", placeholder: "{tag}")
        }
    }
}
