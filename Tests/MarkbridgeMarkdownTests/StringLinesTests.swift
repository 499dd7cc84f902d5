import Testing
@testable import MarkbridgeMarkdown
import MarkbridgeIR

@Suite("Markdown writer: lines and fences")
struct StringLinesTests {
    @Test("Lines split at every line feed, CR kept, empty lines kept unless asked")
    func lines() {
        #expect("".lines() == [""])
        #expect("a\nb\n".lines() == ["a", "b", ""])
        #expect("a\r\nb".lines() == ["a\r", "b"])
        #expect("日本\n\nгрупп".lines() == ["日本", "", "групп"])
        #expect("\na\n\nb\n".lines(omittingEmpty: true) == ["a", "b"])
    }

    @Test("A fence inside a code block is found after LF, CR LF or CR, and after leading spaces")
    func fenceRuns() {
        #expect("plain".longestLeadingRun(of: UInt8(ascii: "`")) == 0)
        #expect("x\n  ````\ny".longestLeadingRun(of: UInt8(ascii: "`")) == 4)
        #expect("x\r\n`````".longestLeadingRun(of: UInt8(ascii: "`")) == 5)
        #expect("x\r```".longestLeadingRun(of: UInt8(ascii: "`")) == 3)
        // Backticks inside a line, or after other text, do not make a fence.
        #expect("a ``````` b\n`` ``".longestLeadingRun(of: UInt8(ascii: "`")) == 2)
        #expect("~~~~\n```".longestLeadingRun(of: UInt8(ascii: "~")) == 4)
    }

    @Test("A code block whose text has a fence after CR LF reads back unchanged")
    func crlfFence() throws {
        let document = Document(blocks: [Block(.codeBlock(language: nil), text: "a\r\n````\r\nb")])
        let written = MarkdownWriter().write(document).value
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("`````\n"))
    }
}
