import Markbridge
import MarkbridgeTestSupport
import Testing

@Suite("Loss severity and the gate")
struct LossSeverityTests {
    @Test("Every class Markbridge reports has a name and a key that read back to it, and the registry carries each code's severity")
    func classesNameThemselves() {
        var keys = Set<String>()
        for lossClass in LossClass.allCases {
            #expect(LossClass(named: lossClass.name) == lossClass, "\(lossClass.name)")
            #expect(LossClass(named: lossClass.key) == lossClass, "\(lossClass.key)")
            #expect(LossClass(named: lossClass.key.uppercased()) == lossClass, "\(lossClass.key)")
            #expect(keys.insert(lossClass.key).inserted, "\(lossClass.key) twice")
            #expect(!lossClass.key.contains(" "))
        }
        for code in DiagnosticCodeName.allCases {
            #expect(DiagnosticCode.named(code.rawValue)?.severity == code.severity)
            #expect(LossClass.diagnostic(code: code.rawValue).severity == code.severity)
        }
        #expect(ErrorCode.allCases.allSatisfy { DiagnosticCode.named($0.rawValue)?.severity == nil })
        // The issue's examples, pinned.
        #expect(DiagnosticCodeName.defaultColor.severity == .info)
        #expect(DiagnosticCodeName.wordList.severity == .info)
        #expect(DiagnosticCodeName.droppedStyle.severity == .style)
        #expect(DiagnosticCodeName.unsafeURL.severity == .content)
        #expect(DiagnosticCodeName.tableFlattened.severity == .structure)
        // An image's size is presentation, wherever it is lost.
        #expect(DiagnosticCodeName.imageSizeDropped.severity == .style)
        #expect(LossClass.markupChanged("IMAGE", attribute: "width").severity == .style)
        #expect(LossClass.attributeChanged("height").severity == .style)
        #expect(LossClass.diagnostic(code: "a-callers-own-code").severity == .content)
        #expect(LossSeverity.allCases.sorted(by: >) == [.content, .structure, .style, .info])
    }

    @Test("A markup moved only over whitespace is info where whitespace shows nothing, style where it shows")
    func whitespaceEdges() throws {
        for tag in MarkupKind.Tag.allCases where tag != .image {  // an image covers one U+FFFC, never whitespace
            let kind = MarkupKind.sample(tag)
            let old = Document(blocks: [Block(.paragraph, text: "one two three", markups: [Markup(kind, TextRange(start: 4, end: 8))])])
            var new = old
            new.blocks[0].markups = [Markup(kind, TextRange(start: 4, end: 7))]
            let losses = DocumentDiff(old, new).losses
            #expect(losses.map(\.lossClass) == [.markupMovedOverWhitespace(tag.name)], "\(tag)")
            #expect(losses.first?.severity == (tag.showsWhitespace ? .style : .info), "\(tag)")
            #expect(losses.first?.detail == #""two " → "two""#)
            // Over a word it is a range change, not an edge.
            new.blocks[0].markups = [Markup(kind, TextRange(start: 4, end: 13))]
            #expect(DocumentDiff(old, new).losses.map(\.lossClass) == [.markupChanged(tag.name, attribute: "range")], "\(tag)")
        }
        #expect(MarkupKind.Tag.strong.showsWhitespace == false && MarkupKind.Tag.underline.showsWhitespace)
    }

    @Test("The Medium-style sample's whitespace edges pass the default gate through Markdown", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
    func overlappingMarkups() throws {
        let bytes = try #require(FileBytes.read(TestPaths.sharedData("samples/overlapping-markups.json")))
        let check = try Converter().check(bytes, from: .markupJSON, via: .markdown)
        #expect(check.lossClasses == [.diagnostic(code: "markup-range-adjusted"), .markupMovedOverWhitespace("EM"), .markupMovedOverWhitespace("STRONG")])
        #expect(check.losses.allSatisfy { $0.severity == .info })
        #expect(!LossGate.default.fails(check))
        #expect(LossGate.anyLoss.fails(check))
    }

    @Test("Each loss says what exactly: the URL of a removed link, the colour of a removed colour, the text before and after")
    func details() throws {
        let old = Document(blocks: [
            Block(.paragraph, text: "see the red docs", markups: [
                Markup(.link(LinkTarget(href: "https://docs.example/")), TextRange(start: 12, end: 16)),
                Markup(.color(CSSColor(red: 255, green: 0, blue: 0)), TextRange(start: 8, end: 11)),
            ]),
            Block(.heading(level: 2), text: "Title"),
            Block(.paragraph, text: "gone"),
        ])
        let new = Document(blocks: [
            Block(.paragraph, text: "see the blue docs"),
            Block(.codeBlock(language: nil), text: "Title"),
        ])
        let losses = DocumentDiff(old, new).losses
        #expect(losses.map(\.lossClass) == [.textChanged, .markupRemoved("COLOR"), .markupRemoved("LINK"), .attributeChanged("type"), .blocksDeleted])
        #expect(losses.map(\.detail) == [#""red" → "blue""#, #"#FF0000 over "red""#, #"https://docs.example/ over "docs""#, "H2 → PRE", #"P "gone""#])
        #expect(losses.map(\.severity) == [.content, .style, .content, .structure, .content])
        #expect(losses.map(\.block) == [0, 0, 0, 1, 2])
    }

    @Test("The gate: content and structure fail by default, --ignore wins over --fail-on, and every spelling parses or is refused by name")
    func gate() throws {
        let style = Loss(.diagnostic(code: "dropped-style"), block: nil, detail: "")
        let link = Loss(.markupRemoved("LINK"), block: 0, detail: "")
        let color = Loss(.markupRemoved("COLOR"), block: 0, detail: "")
        let info = Loss(.markupMovedOverWhitespace("STRONG"), block: 0, detail: "")
        #expect(!LossGate.default.fails([style, color, info]))
        #expect(LossGate.default.fails([style, link]))
        #expect(try LossGate(failOn: "style", ignoring: nil).fails([color]))
        #expect(try !LossGate(failOn: "style", ignoring: "markup:COLOR").fails([color]))
        #expect(try !LossGate(failOn: nil, ignoring: "markup-link-removed").fails([link]))
        #expect(try LossGate(failOn: "warnings", ignoring: nil).fails([style]))
        #expect(try !LossGate(failOn: "warnings", ignoring: nil).fails([link]))
        #expect(try LossGate(failOn: "diff", ignoring: nil).fails([info]))
        #expect(try !LossGate(failOn: "none", ignoring: nil).fails([link]))
        #expect(try LossGate(failOn: "markup LINK removed", ignoring: nil).fails([link]))
        #expect(try LossGate(failOn: "content, dropped-style", ignoring: nil).failOn == [.severity(.content), .lossClass(.diagnostic(code: "dropped-style"))])
        #expect(try LossGate(failOn: nil, ignoring: "dropped-style").counted([style, link]) == [link])
        #expect(try LossGate(failOn: "content", ignoring: "info,dropped-style").description == "content; ignoring info,dropped-style")

        func refusal(_ failOn: String) -> String? {
            do { _ = try LossGate(failOn: failOn, ignoring: nil); return nil } catch { return error.message }
        }
        #expect(refusal("contnet")?.hasPrefix("Unknown class 'contnet' for --fail-on (did you mean 'content'?") == true)
        #expect(refusal("markup-link-removd")?.contains("did you mean 'markup-link-removed'?") == true)
        #expect(refusal("markup:BLINK") == "Unknown markup type 'BLINK' in 'markup:BLINK' for --fail-on (expected one of STRONG, EM, CODE, LINK, STRIKE, UNDERLINE, SUP, SUB, HIGHLIGHT, COLOR, BACKGROUND, IMAGE, HASHTAG, MENTION)")
        #expect(refusal("content,,style")?.hasPrefix("--fail-on needs classes, comma-separated") == true)
    }

    @Test("check, diff and their exit codes follow the gate")
    func commands() {
        let files = MemoryFileSystem(files: [
            "style.html": #"<p style="text-align:center">Centred <span style="color:red">red</span>.</p>"#,
            "link.html": #"<p>A <a href="https://example.com/">link</a>.</p>"#,
            "a.md": "Some *text* here.\n", "b.md": "Some text here.\n", "c.md": "Some other *text* here.\n",
        ])
        let style = run("check", "style.html", "--via", "markdown", "--markdown-html", "drop", "--color", "never", files: files)
        #expect(style.exitCode == 0)
        #expect(style.standardOutputText.hasSuffix("Passes the gate (fails on content,structure): style 4 (attribute align changed 1, diagnostic alignment-dropped 1, diagnostic markup-dropped 1, markup COLOR removed 1).\n"))
        #expect(run("check", "style.html", "--via", "markdown", "--markdown-html", "drop", "--fail-on", "style", files: files).exitCode == 1)
        #expect(run("check", "style.html", "--via", "markdown", "--markdown-html", "drop", "--fail-on", "style", "--ignore", "style", files: files).exitCode == 0)
        #expect(run("check", "link.html", "--via", "markdown", files: files).exitCode == 0)

        #expect(run("diff", "a.md", "b.md", files: files).exitCode == 1)
        #expect(run("diff", "a.md", "b.md", "--fail-on", "content,structure", files: files).exitCode == 0)
        #expect(run("diff", "a.md", "c.md", "--fail-on", "content", files: files).exitCode == 1)
        #expect(run("diff", "a.md", "b.md", "--ignore", "markup-em-removed", files: files).exitCode == 0)
        #expect(run("diff", "a.md", "b.md", "--ignore", "markup:EM", files: files).exitCode == 0)
        #expect(run("diff", "a.md", "b.md", "--fail-on", "sytle", files: files).exitCode == 2)
    }

    /// Whether cmark-gfm's libraries are there to read GFM back.
    static var readsGFM: Bool {
        (try? Converter().read(Array("x\n".utf8), from: .gfm)) != nil
    }

    @Test("check and batch --check go via GFM: a table, a strike and a task survive where CommonMark without HTML flattens them",
          .enabled(if: readsGFM, "cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev)"))
    func viaGFM() async throws {
        let html = #"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td><s>2</s></td></tr></table><ul><li><input type="checkbox" checked disabled> done</li></ul><p><span style="color:red">red</span></p>"#
        let files = MemoryFileSystem(files: ["g.html": html])
        let gfm = run("check", "g.html", "--via", "gfm", "--markdown-html", "drop", "--color", "never", files: files)
        #expect(gfm.exitCode == 0)
        #expect(gfm.standardOutputText.hasSuffix("Passes the gate (fails on content,structure): style 2 (diagnostic markup-dropped 1, markup COLOR removed 1).\n"))
        #expect(run("check", "g.html", "--via", "markdown", "--markdown-html", "drop", files: files).exitCode == 1)

        let folder = ScratchFolder()
        let input = folder.write("records.jsonl", #"{"id":1,"html":"\#(html.replacingOccurrences(of: "\"", with: "\\\""))"}"# + "\n")
        let batch = await runBatch("--field", "html", "--from", "html", "--to", "gfm", "--markdown-html", "drop", "--check", "-o", folder.file("out.jsonl"), input)
        #expect(batch.status == 0)
        #expect(batch.standardError.contains("census: 1 of 1 checked record loses something, 0 fail the gate (content,structure)\n  style: diagnostic markup-dropped: 1 record (e.g. 1)\n"))
    }
}
