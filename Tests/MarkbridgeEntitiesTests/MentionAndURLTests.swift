import Markbridge
import MarkbridgeTestSupport
import Testing

@Suite("Mention and web address detection")
struct MentionAndURLTests {
    static func entities(_ text: String, _ kinds: EntityDetection.Kinds) -> [String] {
        let document = Document(blocks: [Block(.paragraph, text: text)])
        let utf16 = Array(text.utf16)
        return EntityDetection(kinds: kinds).apply(to: document).value.blocks[0].markups.map { markup in
            let covered = String(decoding: utf16[markup.range.start..<markup.range.end], as: UTF16.self)
            switch markup.kind {
            case .mention(let name): return "@\(name)=\(covered)"
            case .link(let target): return "\(target.href)=\(covered)"
            default: return "\(markup.kind.name)=\(covered)"
            }
        }
    }

    @Test("Mentions, and e-mail addresses beside them that are none", arguments: [
        ("hi @ana!", ["@ana=@ana"]),
        ("mail ana@example.com or @bob.", ["@bob=@bob"]),
        ("@ana.b-c_d, ok", ["@ana.b-c_d=@ana.b-c_d"]),
        ("@ana@host.social", []),
        ("x.@ana", ["@ana=@ana"]),
        ("a!@ana", []),
        ("@_", []),
        ("(@Łukasz)", ["@Łukasz=@Łukasz"]),
        ("＠全角さん", ["@全角さん=＠全角さん"]),
        ("@ana-", ["@ana=@ana"]),
    ])
    func mentions(text: String, expected: [String]) {
        #expect(Self.entities(text, .mentions) == expected, "\(text)")
    }

    @Test("Web addresses: trailing punctuation and unbalanced closing brackets trimmed", arguments: [
        ("see https://example.com.", ["https://example.com=https://example.com"]),
        ("(see https://example.com/a)", ["https://example.com/a=https://example.com/a"]),
        ("https://en.wikipedia.org/wiki/Swift_(language)", ["https://en.wikipedia.org/wiki/Swift_(language)=https://en.wikipedia.org/wiki/Swift_(language)"]),
        ("(https://x.org/a_(b)), yes", ["https://x.org/a_(b)=https://x.org/a_(b)"]),
        ("www.example.com/path?q=1&r=2!", ["https://www.example.com/path?q=1&r=2=www.example.com/path?q=1&r=2"]),
        ("HTTP://EXAMPLE.COM", ["HTTP://EXAMPLE.COM=HTTP://EXAMPLE.COM"]),
        ("xhttp://example.com", []),
        ("http://", []),
        ("<https://a.b/c>", ["https://a.b/c=https://a.b/c"]),
        ("\"https://a.b/c\"", ["https://a.b/c=https://a.b/c"]),
        ("https://例え.jp/パス。", ["https://例え.jp/パス。=https://例え.jp/パス。"]),
    ])
    func urls(text: String, expected: [String]) {
        #expect(Self.entities(text, .urls) == expected, "\(text)")
    }

    @Test("A web address the URL policy refuses keeps its text, unlinked, with a warning")
    func refusedURL() {
        var policy = URLPolicy.default
        policy.maxLength = 20
        let document = Document(blocks: [Block(.paragraph, text: "go https://example.com/a/long/path now")])
        let result = EntityDetection(kinds: .urls).apply(to: document, urlPolicy: policy)
        #expect(result.value.blocks[0].markups.isEmpty)
        #expect(result.diagnostics.map(\.code) == ["unsafe-url"])
    }

    @Test("In a table row, an entity stays inside its cell")
    func tableCells() {
        let row = TableRow(cells: [TableCell(TextRange(start: 0, end: 4)), TableCell(TextRange(start: 5, end: 9))])
        let document = Document(blocks: [Block(.tableRow(row), text: "#abc\t@def")])
        let markups = EntityDetection(kinds: [.hashtags, .mentions]).apply(to: document).value.blocks[0].markups
        #expect(markups == [Markup(.hashtag("abc"), start: 0, end: 4), Markup(.mention("def"), start: 5, end: 9)])
    }

    @Test("Kinds parse from their command-line names; an unknown one is refused")
    func kindNames() throws {
        #expect(try EntityDetection.Kinds(list: "hashtags, urls") == [.hashtags, .urls])
        #expect(throws: EntityDetectionError(message: "unknown entity kind 'tags' (expected one of: hashtags, mentions, urls)")) {
            try EntityDetection.Kinds(list: "tags")
        }
    }
}
