import Foundation
import Markbridge
import MarkbridgeCLI
import Testing

@Suite("markbridge diff")
struct DiffCommandTests {
    static let old = """
        <p>The quick brown fox jumps over the <b>lazy, and I</b> dog.</p>
        <p>Click <a href="https://a.example/">here</a> now.</p>
        <p>Gone for good, this one.</p>
        <p>Moved paragraph text here.</p>
        <p>End.</p>
        """
    static let new = """
        The slow red fox jumps over the lazy, and I dog.

        Moved paragraph text here.

        ## Click [here](https://b.example/) now.

        A brand new paragraph!

        End.
        """

    @Test("A known pair in full, as text: word edits, a moved heading, markup and attribute changes")
    func text() {
        let files = MemoryFileSystem(files: ["a.html": Self.old, "b.md": Self.new])
        let result = run("diff", "a.html", "b.md", files: files)
        #expect(result.exitCode == 1)
        #expect(result.standardError == "")
        #expect(result.standardOutputText == """
            --- a.html
            +++ b.md
            @@ block 0 -> 0 (P) @@
            The [-quick brown-]{+slow red+} fox jumps over the lazy, and I dog.
              STRONG "lazy, and I" removed
            @@ block 1 -> 2 (P -> H2) moved @@
            Click here now.
              type: P -> H2
              LINK "here" href: https://a.example/ -> https://b.example/
            @@ block 2 (P) deleted @@
            [-Gone for good, this one.-]
            @@ block 3 (P) inserted @@
            {+A brand new paragraph!+}
            4 blocks differ: 1 changed, 1 inserted, 1 deleted, 1 moved

            """)
    }

    @Test("The same pair as JSON, every field")
    func json() throws {
        let files = MemoryFileSystem(files: ["a.html": Self.old, "b.md": Self.new])
        let result = run("diff", "--format", "json", "a.html", "b.md", files: files)
        #expect(result.exitCode == 1)
        #expect(result.standardOutputText == #"""
            {"version":1,"old":"a.html","new":"b.md","same":false,"summary":{"changed":1,"inserted":1,"deleted":1,"moved":1},"changes":[\#
            {"change":"changed","old":{"index":0,"pointer":"/paragraphs/0","type":"P"},"new":{"index":0,"pointer":"/paragraphs/0","type":"P"},"moved":false,\#
            "text":[{"old":{"start":4,"end":15},"new":{"start":4,"end":12},"removed":"quick brown","added":"slow red"}],\#
            "markups":[{"change":"removed","type":"STRONG","old":{"start":35,"end":46},"text":"lazy, and I"}],"attributes":[]},\#
            {"change":"changed","old":{"index":1,"pointer":"/paragraphs/1","type":"P"},"new":{"index":2,"pointer":"/paragraphs/2","type":"H2"},"moved":true,\#
            "text":[],"markups":[{"change":"changed","type":"LINK","old":{"start":6,"end":10},"new":{"start":6,"end":10},"text":"here",\#
            "attribute":"href","from":"https://a.example/","to":"https://b.example/"}],"attributes":[{"name":"type","from":"P","to":"H2"}]},\#
            {"change":"deleted","old":{"index":2,"pointer":"/paragraphs/2","type":"P"},"text":"Gone for good, this one.","attributes":{}},\#
            {"change":"inserted","new":{"index":3,"pointer":"/paragraphs/3","type":"P"},"text":"A brand new paragraph!","attributes":{}}],\#
            "lost":true,"gate":"diff","losses":[\#
            {"class":"text changed","key":"text-changed","severity":"content","block":0,"detail":"\"quick brown\" → \"slow red\""},\#
            {"class":"markup STRONG removed","key":"markup-strong-removed","severity":"style","block":0,"detail":"over \"lazy, and I\""},\#
            {"class":"blocks moved","key":"blocks-moved","severity":"structure","block":1,"detail":"P from 1 to 2"},\#
            {"class":"attribute type changed","key":"attribute-type-changed","severity":"structure","block":1,"detail":"P → H2"},\#
            {"class":"markup LINK href changed","key":"markup-link-href-changed","severity":"content","block":1,"detail":"https://a.example/ → https://b.example/ over \"here\""},\#
            {"class":"blocks deleted","key":"blocks-deleted","severity":"content","block":2,"detail":"P \"Gone for good, this one.\""},\#
            {"class":"blocks inserted","key":"blocks-inserted","severity":"content","block":3,"detail":"P \"A brand new paragraph!\""}],"diagnostics":[]}

            """#)
        _ = try JSONSerialization.jsonObject(with: Data(result.standardOutput))
    }

    @Test("The same document in two formats is no difference: exit 0, nothing printed")
    func same() {
        let files = MemoryFileSystem(files: ["a.html": "<p>One <em>two</em></p><ul><li>three</li></ul>", "b.md": "One *two*\n\n- three\n"])
        #expect(run("diff", "a.html", "b.md", files: files) == CommandResult(exitCode: 0))
        let json = run("diff", "--format", "json", "a.html", "b.md", files: files)
        #expect(json.exitCode == 0)
        #expect(json.standardOutputText.contains(#""same":true"#))
        #expect(json.standardOutputText.hasSuffix(#""changes":[],"lost":false,"gate":"diff","losses":[],"diagnostics":[]}"# + "\n"))
        // What reading each side reported comes with the diff, named by side.
        let dropped = run("diff", "--format", "json", "a.html", "c.html", files: MemoryFileSystem(files: ["a.html": "<p>x</p>", "c.html": "<p>x</p><script>y</script>"]))
        #expect(dropped.exitCode == 0)
        #expect(dropped.standardOutputText.contains(#""diagnostics":[{"side":"new","file":"c.html","line":1,"column":9,"#))
    }

    @Test("--ignore drops whole classes of change")
    func ignore() {
        let files = MemoryFileSystem(files: [
            "a.json": ##"{"paragraphs":[{"type":"P","text":"Red  here","markups":[{"type":"COLOR","start":0,"end":3,"color":"#FF0000"},{"type":"LINK","start":5,"end":9,"href":"https://a.example/"}]}]}"##,
            "b.json": #"{"paragraphs":[{"type":"P","text":"Red here","markups":[{"type":"LINK","start":4,"end":8,"href":"https://b.example/"}]}]}"#,
        ])
        #expect(run("diff", "a.json", "b.json", files: files).exitCode == 1)
        #expect(run("diff", "--ignore", "whitespace,markup:color,link-targets", "a.json", "b.json", files: files) == CommandResult(exitCode: 0))
        let partly = run("diff", "--ignore", "whitespace, markup:COLOR", "a.json", "b.json", files: files)
        #expect(partly.standardOutputText == """
            --- a.json
            +++ b.json
            @@ block 0 -> 0 (P) @@
            Red here
              LINK "here" href: https://a.example/ -> https://b.example/
            1 block differs: 1 changed

            """)
        let bad = run("diff", "--ignore", "markup:BLINK", "a.json", "b.json", files: files)
        #expect(bad.exitCode == 2)
        #expect(bad.standardError.hasPrefix("Error: Unknown markup type 'BLINK' in 'markup:BLINK' for --ignore (expected one of STRONG, EM,"))
    }

    @Test("Colour when asked for, around the brackets; never by default off a terminal")
    func color() {
        let files = MemoryFileSystem(files: ["a.md": "one two\n", "b.md": "one three\n"])
        #expect(run("diff", "a.md", "b.md", files: files).standardOutputText.contains("\u{1B}") == false)
        #expect(run("diff", "--color", "always", "a.md", "b.md", files: files).standardOutputText.contains(
            "one \u{1B}[31m[-two-]\u{1B}[m\u{1B}[32m{+three+}\u{1B}[m"))
        #expect(run("diff", "--color", "sometimes", "a.md", "b.md", files: files).exitCode == 2)
    }

    @Test("Chinese text differs by character")
    func chinese() {
        let files = MemoryFileSystem(files: ["a.md": "我喜欢猫。\n", "b.md": "我很喜欢狗。\n"])
        #expect(run("diff", "a.md", "b.md", files: files).standardOutputText.contains("我{+很+}喜欢[-猫-]{+狗+}。\n"))
    }

    @Test("Trouble is exit 2: a missing file, one argument, a format that cannot be read, bad input")
    func trouble() {
        let files = MemoryFileSystem(files: ["a.md": "x\n", "b.json": "{"])
        #expect(run("diff", "a.md", "missing.md", files: files).exitCode == 2)
        #expect(run("diff", "a.md", files: files).exitCode == 2)
        #expect(run("diff", "--from-b", "rtf", "a.md", "a.md", files: files).exitCode == 2)
        #expect(MarkbridgeCommandLine.run(["diff", "--from-b", "shout", "a.md", "a.md"], io: files.io, registry: FormatRegistry([.markdown, .writtenOnly])).exitCode == 2)
        let invalid = run("diff", "a.md", "b.json", files: files)
        #expect(invalid.exitCode == 2)
        #expect(invalid.standardError.hasPrefix("Error: b.json:1:2:"))
    }

    @Test("E8: hostile text reaches the terminal escaped")
    func hostileTerminal() {
        let files = MemoryFileSystem(files: [
            "a.json": #"{"paragraphs":[{"type":"P","text":"safe"}]}"#,
            "b.json": #"{"paragraphs":[{"type":"P","text":"safe \u001B]0;pwned\u0007 \u001B[2J"}]}"#,
        ])
        let output = run("diff", "a.json", "b.json", files: files).standardOutputText
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{07}"))
        #expect(output.contains(#"\u{1B}]0;pwned\u{7}"#))
    }

    @Test("E6: the report page escapes everything and keeps our URL policy, even when reading let unsafe URLs in")
    func hostileReport() throws {
        let files = MemoryFileSystem(files: [
            "<b>a</b>.json": #"{"paragraphs":[{"type":"P","text":"x </td></tr></table><script>alert(1)</script>"}]}"#,
            "b.json": #"{"paragraphs":[{"type":"P","text":"go <style>*{display:none}</style>","markups":[{"type":"LINK","start":0,"end":2,"href":"javascript:alert(1)"}]},{"type":"IMG","src":"https://tracker.example/p.gif","text":""}]}"#,
        ])
        let result = run("diff", "--allow-unsafe-urls", "--report", "r.html", "<b>a</b>.json", "b.json", files: files)
        #expect(result.exitCode == 1)
        let page = try #require(files.contents("r.html"))
        #expect(page.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'">"#))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<b>a</b>"))
        #expect(page.contains("&lt;b&gt;a&lt;/b&gt;.json"))
        #expect(!page.contains("javascript:alert(1)\""))
        #expect(!page.contains("href=\"javascript"))
        #expect(!page.contains("<style>*"))
        #expect(page.components(separatedBy: "<table").count == 2, "the content closed no table and opened none")
        // The image is written (the policy allows https), and the page's policy keeps it from loading.
        #expect(page.contains("tracker.example"))
    }
}
