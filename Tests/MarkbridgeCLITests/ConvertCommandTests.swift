import Testing
import Markbridge
import MarkbridgeCLI

@Suite("markbridge convert")
struct ConvertCommandTests {
    static let sample = #"{"paragraphs":[{"type":"P","text":"a👍 bold","markups":[{"type":"STRONG","start":4,"end":8}]}]}"#

    @Test("A file in, canonical JSON out; the format is inferred from the extension")
    func fileToStandardOutput() {
        let files = MemoryFileSystem(files: ["in.json": Self.sample])
        #expect(run("convert", "in.json", files: files) == CommandResult(exitCode: 0, standardOutput: Array(
            #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a👍 bold","markups":[{"type":"STRONG","start":4,"end":8}]}]}"#.utf8) + [10]))
    }

    @Test("Standard input with --from, offsets in bytes, --name=value spelling")
    func standardInput() {
        let files = MemoryFileSystem(standardInput: Self.sample)
        let result = run("convert", "--from=json", "--offsets", "utf8", "-", files: files)
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText.contains(#""offsetUnit":"utf8""#))
        #expect(result.standardOutputText.contains(#""start":6,"end":10"#))
    }

    @Test("A format may be named by its file extension: md, htm, txt")
    func formatAliases() {
        let files = MemoryFileSystem(standardInput: "<p>a <b>b</b></p>")
        let markdown = run("convert", "--from", "htm", "--to", "md", "-", files: files)
        #expect(markdown.exitCode == 0)
        #expect(markdown.standardOutputText == "a **b**\n")
        let text = run("convert", "--from", "HTML", "--to", "txt", "-", files: MemoryFileSystem(standardInput: "<p>a <b>b</b></p>"))
        #expect(text.standardOutputText == "a b\n")
        #expect(run("convert", "--from", "htm", "--to", "docx", "-", files: MemoryFileSystem(standardInput: "x")).exitCode == 64)
    }

    @Test("-o writes the file and nothing to standard output")
    func outputFile() {
        let files = MemoryFileSystem(files: ["in.json": Self.sample])
        #expect(run("convert", "in.json", "-o", "out.json", files: files) == CommandResult(exitCode: 0))
        #expect(files.contents("out.json")?.hasPrefix(#"{"version":1"#) == true)
    }

    static let lossy = #"{"paragraphs":[{"type":"P","text":"x","extra":1,"markups":[{"type":"LINK","start":0,"end":1,"href":"javascript:alert(1)"}]}]}"#

    @Test("Diagnostics go to standard error as file:line:column: warning: message [code]")
    func diagnosticsText() {
        let files = MemoryFileSystem(files: ["in.json": Self.lossy])
        let result = run("convert", "in.json", files: files)
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"}]}"# + "\n")
        #expect(result.standardError == """
            in.json:1:39: warning: unknown field 'extra' ignored (at /paragraphs/0/extra) [unknown-field]
            in.json:1:60: warning: LINK markup dropped, text kept: scheme 'javascript:' is not allowed (at /paragraphs/0/markups/0) [unsafe-url]

            """)
    }

    @Test("--diagnostics json prints JSON Lines")
    func diagnosticsJSON() {
        let files = MemoryFileSystem(files: ["in.json": Self.lossy])
        let result = run("convert", "--diagnostics", "json", "in.json", files: files)
        #expect(result.standardError == """
            {"file":"in.json","line":1,"column":39,"byteOffset":38,"pointer":"/paragraphs/0/extra","severity":"warning","code":"unknown-field","message":"unknown field 'extra' ignored"}
            {"file":"in.json","line":1,"column":60,"byteOffset":59,"pointer":"/paragraphs/0/markups/0","severity":"warning","code":"unsafe-url","message":"LINK markup dropped, text kept: scheme 'javascript:' is not allowed"}

            """)
    }

    @Test("--strict turns any diagnostic into a failure with no output")
    func strict() {
        let files = MemoryFileSystem(files: ["in.json": Self.lossy])
        let result = run("convert", "--strict", "in.json", "-o", "out.json", files: files)
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasSuffix("Error: --strict: 2 diagnostics raised; no output written\n"))
        #expect(files.contents("out.json") == nil)
    }

    @Test("--allow-unsafe-urls keeps the link, as asked")
    func unsafe() {
        let files = MemoryFileSystem(files: ["in.json": Self.lossy])
        let result = run("convert", "--allow-unsafe-urls", "in.json", files: files)
        #expect(result.standardOutputText.contains(#""href":"javascript:alert(1)""#))
    }

    @Test("A conversion error names the file, line, column and pointer; exit 1")
    func conversionError() {
        let files = MemoryFileSystem(files: ["bad.json": #"{"paragraphs":[{"type":"P","text":"ab","markups":[{"type":"EM","start":0,"end":9}]}]}"#])
        #expect(run("convert", "bad.json", files: files) == CommandResult(
            exitCode: 1,
            standardError: "Error: bad.json:1:80: /paragraphs/0/markups/0/end: end 9 is past the end of the text (2 UTF-16 code units) [offset-out-of-range]\n"))
    }

    @Test("A missing file is a failure, exit 1")
    func missingFile() {
        #expect(run("convert", "nope.json") == CommandResult(exitCode: 1, standardError: "Error: cannot read 'nope.json': no such file\n"))
    }
}

@Suite("markbridge convert with HTML and text")
struct ConvertHTMLCommandTests {
    @Test("HTML in, JSON out; relative links resolved with --base-url; the loss report on standard error")
    func htmlToJSON() {
        let files = MemoryFileSystem(files: ["page.html": #"<p><a href="/docs">docs</a> <span style="font-size:9px">small</span></p>"#])
        let result = run("convert", "--base-url", "https://example.com/a/b", "page.html", files: files)
        #expect(result.standardOutputText == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"docs small","markups":[{"type":"LINK","start":0,"end":4,"href":"https://example.com/docs"}]}]}"# + "\n")
        #expect(result.standardError == "page.html:1:29: warning: CSS property 'font-size' dropped (1×) [dropped-style]\n")
    }

    @Test("E1: --embed-hosts, a frame from a listed host is embedded, one from any other is a link, reported")
    func embedHosts() {
        let files = MemoryFileSystem(files: ["page.html": #"<iframe src="https://www.youtube.com/embed/1"></iframe><iframe src="https://evil.test/x"></iframe>"#])
        let result = run("convert", "--to", "html", "--embed-hosts", "YouTube.com, *.youtube.com", "page.html", files: files)
        #expect(result.standardOutputText == #"<figure><iframe src="https://www.youtube.com/embed/1" sandbox="allow-scripts allow-popups allow-presentation" allowfullscreen loading="lazy" referrerpolicy="no-referrer"></iframe></figure>"#
            + "\n" + #"<p><a href="https://evil.test/x">https://evil.test/x</a></p>"# + "\n")
        #expect(result.standardError == "page.html: warning: iframe in block 1 not embedded: host 'evil.test' is not on the embed allowlist; written as a link to its source [embed-host-refused]\n")
    }

    @Test("JSON in, HTML and text out")
    func jsonToHTMLAndText() {
        let files = MemoryFileSystem(files: ["d.json": #"{"paragraphs":[{"type":"H1","text":"T"},{"type":"ULI","text":"a & b"}]}"#])
        #expect(run("convert", "--to", "html", "d.json", files: files).standardOutputText == "<h1>T</h1>\n<ul>\n<li>a &amp; b</li>\n</ul>\n")
        #expect(run("convert", "--to", "text", "d.json", files: files).standardOutputText == "T\n\n• a & b\n")
    }
}

@Suite("markbridge convert with Markdown")
struct ConvertMarkdownCommandTests {
    @Test("Markdown in, JSON out, diagnostics with cmark's line and column")
    func markdownToJSON() {
        let files = MemoryFileSystem(files: ["a.md": "# T\n\nsee [x](javascript:alert(1)) <x-tag>y\n"])
        let result = run("convert", "a.md", files: files)
        #expect(result.standardOutputText == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"H1","text":"T"},{"type":"P","text":"see x y"}]}"# + "\n")
        #expect(result.standardError == """
            a.md:3:5: warning: link dropped, its text kept: scheme 'javascript:' is not allowed [unsafe-url]
            a.md:3:30: warning: inline HTML <x-tag> not supported; the tag dropped, the text around it kept [inline-html]

            """)
    }

    @Test("JSON in, Markdown out, with and without inline HTML")
    func jsonToMarkdown() {
        let files = MemoryFileSystem(files: ["d.json": #"{"paragraphs":[{"type":"P","text":"u b","markups":[{"type":"UNDERLINE","start":0,"end":1},{"type":"STRONG","start":2,"end":3}]}]}"#])
        #expect(run("convert", "--to", "markdown", "d.json", files: files).standardOutputText == "<u>u</u> **b**\n")
        let dropped = run("convert", "--to", "markdown", "--markdown-html", "drop", "d.json", files: files)
        #expect(dropped.standardOutputText == "u **b**\n")
        #expect(dropped.standardError == "d.json: warning: UNDERLINE 0..<1 in block 0 has no CommonMark syntax; dropped (--markdown-html drop) [markup-dropped]\n")
    }

    @Test("--from gfm reads a pipe table and task items; --to markdown without HTML reports the boxes it writes as text",
          .enabled(if: MarkdownReader.gfmVersion != nil, "cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev)"))
    func gfmIn() {
        let input = "| a | b |\n| - | - |\n| ~~c~~ | d |\n\n- [x] done\n"
        let json = run("convert", "--from", "gfm", "-", files: MemoryFileSystem(standardInput: input))
        #expect(json == CommandResult(exitCode: 0, standardOutput: Array(#"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"TR","text":"a | b","startsTable":true,"cells":[{"start":0,"end":1,"header":true},{"start":4,"end":5,"header":true}]},{"type":"TR","text":"c | d","cells":[{"start":0,"end":1},{"start":4,"end":5}],"markups":[{"type":"STRIKE","start":0,"end":1}]},{"type":"ULI","text":"done","task":"checked"}]}"#.utf8) + [0x0A]))
        let gfm = run("convert", "--from", "gfm", "--to", "gfm", "-", files: MemoryFileSystem(standardInput: input))
        #expect(gfm.standardOutputText == "| a | b |\n| --- | --- |\n| ~~c~~ | d |\n\n- [x] done\n")
        let markdown = run("convert", "--from", "gfm", "--to", "markdown", "--markdown-html", "drop", "-", files: MemoryFileSystem(standardInput: "- [x] done\n"))
        #expect(markdown.standardOutputText == "- \\[x\\] done\n")
        #expect(markdown.standardError == "<stdin>: warning: task state (checked) of list item 0: CommonMark has no task list items; written as the text [x] (--markdown-html drop) [task-flattened]\n")
    }
}
