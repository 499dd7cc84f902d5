import Testing
import Markbridge

/// Embedded content can never run script against the page it is shown in (HOSTILE-INPUTS E1):
/// a frame that may run script gets no `allow-same-origin`, an object is a frame with nothing
/// allowed, and a source with no host of its own (relative, `//host`) is no embed but a link.
@Suite("Embeds: what each kind is written as")
struct EmbedOutputTests {
    static let frame = #"sandbox="allow-scripts allow-popups allow-presentation" allowfullscreen loading="lazy" referrerpolicy="no-referrer""#
    static let inert = #"sandbox="" loading="lazy" referrerpolicy="no-referrer""#

    func convert(_ input: String, from source: String, to target: String = "html", options: ConversionOptions = .default) throws -> (String, [String]) {
        let result = try Converter(options: options).convert(Array(input.utf8), from: source, to: target)
        return (String(decoding: result.value, as: UTF8.self), result.diagnostics.map(\.code))
    }

    static let fromHTML: [(String, String, [String])] = [
        (#"<iframe src="https://player.example.com/v/1" title="Talk" width="640" height="360"></iframe>"#,
         #"<figure><iframe src="https://player.example.com/v/1" width="640" height="360" title="Talk" \#(frame)></iframe></figure>"#, []),
        (#"<object data="https://cdn.example.com/a.pdf" width="300">Fallback</object>"#,
         #"<figure><iframe src="https://cdn.example.com/a.pdf" width="300" \#(inert)></iframe><figcaption>Fallback</figcaption></figure>"#, []),
        (#"<embed src="https://cdn.example.com/a.svg">"#,
         #"<figure><iframe src="https://cdn.example.com/a.svg" \#(inert)></iframe></figure>"#, []),
        (#"<video src="/media/a.mp4" poster="https://cdn.example.com/a.jpg"></video>"#,
         #"<figure><video src="/media/a.mp4" poster="https://cdn.example.com/a.jpg" controls preload="metadata"></video></figure>"#, []),
        (#"<audio src="https://cdn.example.com/a.ogg"></audio>"#,
         #"<figure><audio src="https://cdn.example.com/a.ogg" controls preload="metadata"></audio></figure>"#, []),
        (#"<iframe src="/u/x.html"></iframe>"#, #"<p><a href="/u/x.html">/u/x.html</a></p>"#, ["embed-host-refused"]),
        (#"<embed src="/uploads/evil.svg">"#, #"<p><a href="/uploads/evil.svg">/uploads/evil.svg</a></p>"#, ["embed-host-refused"]),
        (#"<object data="//evil.example/x.svg">Logo</object>"#, #"<p><a href="//evil.example/x.svg">Logo</a></p>"#, ["embed-host-refused"]),
    ]

    @Test("E1: HTML in, HTML out, each embed kind, exactly", arguments: fromHTML)
    func htmlEmbeds(_ input: String, _ expected: String, _ codes: [String]) throws {
        let (html, diagnostics) = try convert(input, from: "html")
        #expect(html == expected + "\n")
        #expect(diagnostics == codes)
    }

    static let fromJSON: [(String, String, [String])] = [
        (#"{"type":"EMBED","embed":"iframe","src":"https://player.example.com/v/1","text":"The talk"}"#,
         #"<figure><iframe src="https://player.example.com/v/1" \#(frame)></iframe><figcaption>The talk</figcaption></figure>"#, []),
        (#"{"type":"EMBED","embed":"object","src":"https://cdn.example.com/a.pdf","title":"Report"}"#,
         #"<figure><iframe src="https://cdn.example.com/a.pdf" title="Report" \#(inert)></iframe></figure>"#, []),
        (#"{"type":"EMBED","embed":"video","src":"https://cdn.example.com/a.mp4"}"#,
         #"<figure><video src="https://cdn.example.com/a.mp4" controls preload="metadata"></video></figure>"#, []),
        (#"{"type":"EMBED","embed":"audio","src":"a.ogg"}"#,
         #"<figure><audio src="a.ogg" controls preload="metadata"></audio></figure>"#, []),
        (#"{"type":"EMBED","embed":"iframe","src":"/u/x.html","text":"See this"}"#,
         #"<p><a href="/u/x.html">See this</a></p>"#, ["embed-host-refused"]),
        (#"{"type":"EMBED","embed":"object","src":"//evil.example/x.svg","title":"Logo"}"#,
         #"<p><a href="//evil.example/x.svg">Logo</a></p>"#, ["embed-host-refused"]),
    ]

    @Test("E1: markup JSON in, HTML out, each embed kind, exactly", arguments: fromJSON)
    func jsonEmbeds(_ block: String, _ expected: String, _ codes: [String]) throws {
        let (html, diagnostics) = try convert(#"{"paragraphs":["# + block + "]}", from: "json")
        #expect(html == expected + "\n")
        #expect(diagnostics == codes)
    }

    @Test("The HTML writer writes the source the URL policy checked, not the IR's own spelling")
    func cleanedSources() throws {
        let document = Document(blocks: [
            Block(.embed(Embed(.video, src: " https://cdn.example.com/a\n.mp4\t")), text: ""),
            Block(.image(ImageSource(src: "\nhttps://cdn.example.com/a\r.png ")), text: ""),
        ])
        let html = String(decoding: try HTMLWriter().write(document).value, as: UTF8.self)
        #expect(html == #"<figure><video src="https://cdn.example.com/a.mp4" controls preload="metadata"></video></figure>"# + "\n"
                + #"<p><img src="https://cdn.example.com/a.png"></p>"# + "\n")
    }

    @Test("Markdown and GFM keep the same sandboxed HTML, and a relative frame as a Markdown link", arguments: ["markdown", "gfm"])
    func markdownEmbeds(_ target: String) throws {
        let (object, _) = try convert(#"<object data="https://cdn.example.com/a.svg"></object>"#, from: "html", to: target)
        #expect(object == #"<figure><iframe src="https://cdn.example.com/a.svg" \#(Self.inert)></iframe></figure>"# + "\n")
        let (relative, codes) = try convert(#"<iframe src="/u/x.html"></iframe>"#, from: "html", to: target)
        #expect(relative == "[/u/x.html](/u/x.html)\n")
        #expect(codes == ["embed-host-refused"])
    }

    @Test("A relative frame source resolved against --base-url is embedded")
    func baseURL() throws {
        let (html, codes) = try convert(#"<iframe src="/u/x.html"></iframe>"#, from: "html", options: .init(baseURL: "https://site.example/a/"))
        #expect(html == #"<figure><iframe src="https://site.example/u/x.html" \#(Self.frame)></iframe></figure>"# + "\n")
        #expect(codes == [])
    }

    @Test("With an embed allowlist, a host not on it is written as a link, reported; *.suffix matches subdomains only")
    func allowlist() throws {
        let options = ConversionOptions(embedHosts: ["youtube.com", "*.vimeo.com"])
        let cases: [(String, String, [String])] = [
            ("https://youtube.com/embed/1", #"<figure><iframe src="https://youtube.com/embed/1" \#(Self.frame)></iframe></figure>"#, []),
            ("https://player.vimeo.com/1", #"<figure><iframe src="https://player.vimeo.com/1" \#(Self.frame)></iframe></figure>"#, []),
            ("HTTPS://YouTube.COM:443/e", #"<figure><iframe src="HTTPS://YouTube.COM:443/e" \#(Self.frame)></iframe></figure>"#, []),
            ("https://vimeo.com/1", #"<p><a href="https://vimeo.com/1">https://vimeo.com/1</a></p>"#, ["embed-host-refused"]),
            ("https://youtube.com.evil.test/", #"<p><a href="https://youtube.com.evil.test/">https://youtube.com.evil.test/</a></p>"#, ["embed-host-refused"]),
            ("https://youtube.com@evil.test/", #"<p><a href="https://youtube.com@evil.test/">https://youtube.com@evil.test/</a></p>"#, ["embed-host-refused"]),
            (#"https://evil.test\@youtube.com/"#, #"<p><a href="https://evil.test\@youtube.com/">https://evil.test\@youtube.com/</a></p>"#, ["embed-host-refused"]),
        ]
        for (src, expected, codes) in cases {
            let (html, diagnostics) = try convert(#"{"paragraphs":[{"type":"EMBED","embed":"iframe","src":"\#(src.replacingOccurrences(of: "\\", with: "\\\\"))"}]}"#,
                                                  from: "json", options: options)
            #expect(html == expected + "\n", "\(src)")
            #expect(diagnostics == codes, "\(src)")
        }
        // Video and audio are held to the allowlist too: it says where embedded content may come from.
        let (video, codes) = try convert(#"<video src="https://cdn.example.com/a.mp4"></video>"#, from: "html", options: options)
        #expect(video == #"<p><a href="https://cdn.example.com/a.mp4">https://cdn.example.com/a.mp4</a></p>"# + "\n")
        #expect(codes == ["embed-host-refused"])
    }

    @Test("JSON out: a frame with a relative source becomes a linked paragraph, reported")
    func jsonOutput() throws {
        let (json, codes) = try convert(#"<iframe src="/u/x.html"></iframe>"#, from: "html", to: "json")
        #expect(json == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"/u/x.html","markups":[{"type":"LINK","start":0,"end":9,"href":"/u/x.html"}]}]}"# + "\n")
        #expect(codes == ["embed-host-refused"])
    }
}
