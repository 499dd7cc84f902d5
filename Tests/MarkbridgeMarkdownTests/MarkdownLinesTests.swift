import Testing
@testable import MarkbridgeMarkdown
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("Markdown writer: lines and fences")
struct MarkdownLinesTests {
    static func lines(_ text: String, omittingEmpty: Bool = false) -> [String] {
        let lines = MarkdownLines(Array(text.utf8), omittingEmpty: omittingEmpty)
        return lines.ranges.map { String(decoding: lines.bytes[$0], as: UTF8.self) }
    }

    static func longestRun(_ text: String, of character: Character) -> Int {
        MarkdownLines.longestLeadingRun(of: character.asciiValue!, in: text.utf8)
    }

    @Test("Lines split at every line feed, CR kept, empty lines kept unless asked")
    func lines() {
        #expect(Self.lines("") == [""])
        #expect(Self.lines("a\nb\n") == ["a", "b", ""])
        #expect(Self.lines("a\r\nb") == ["a\r", "b"])
        #expect(Self.lines("日本\n\nгрупп") == ["日本", "", "групп"])
        #expect(Self.lines("\na\n\nb\n", omittingEmpty: true) == ["a", "b"])
    }

    @Test("A fence inside a code block is found after LF, CR LF or CR, and after leading spaces")
    func fenceRuns() throws {
        #expect(Self.longestRun("plain", of: "`") == 0)
        #expect(Self.longestRun("x\n  ````\ny", of: "`") == 4)
        #expect(Self.longestRun("x\r\n`````", of: "`") == 5)
        #expect(Self.longestRun("x\r```", of: "`") == 3)
        // Backticks inside a line, or after other text, do not make a fence.
        #expect(Self.longestRun("a ``````` b\n`` ``", of: "`") == 2)
        #expect(Self.longestRun("~~~~\n```", of: "~") == 4)
    }

    @Test("A code block holding a CR is an HTML block (a fenced block would read it as a line end) and reads back unchanged")
    func crlfFence() throws {
        let document = Document(blocks: [Block(.codeBlock(language: nil), text: "a\r\n````\r\n\nb\u{1B}")])
        let written = try MarkdownWriter().write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == "<pre><code>a&#13;\n````&#13;\n\nb&#27;</code></pre>\n")
        #expect(written.diagnostics.isEmpty)
        #expect(try MarkdownReader().read(written.value).value == document)
    }

    @Test("Pure CommonMark cannot hold those controls: they become U+FFFD, reported")
    func controlsInCodeWithoutHTML() throws {
        let document = Document(blocks: [Block(.codeBlock(language: "sh"), text: "a\rb\u{1B}[0m")])
        let written = try MarkdownWriter(options: .init(html: .drop)).write(document)
        #expect(String(decoding: written.value, as: UTF8.self) == "```sh\na\u{FFFD}b\u{FFFD}[0m\n```\n")
        #expect(written.diagnostics.map(\.code) == ["control-character-replaced"])
    }

    @Test("The escaping's sixteen-byte check flags exactly the bytes its table does")
    func escapeCheckAgreesWithTable() {
        for start in stride(from: 0, to: 256, by: 16) {
            let block = SIMD16<UInt8>((0..<16).map { UInt8(start + $0) })
            let mask = MarkdownEscaping.mayNeedEscape(block)
            for lane in 0..<16 {
                #expect(mask[lane] == MarkdownEscaping.mayNeedEscape[start + lane], "byte \(start + lane)")
            }
        }
    }
}
