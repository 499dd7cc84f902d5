import Foundation
import Testing
@testable import MarkbridgeMarkdown
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeTestSupport

/// Nesting opened on one line past the IR's depth is cut before cmark reads it: the shapes cmark
/// takes quadratic time on are read in linear time, with their content, flattened and reported
/// in the input's own lines and columns.
extension MarkdownHostileInputTests {
    @Test("B3: nesting opened on one line, four times the input at most 8x the time, and read", arguments: clampedShapes.indices)
    func clampedLinear(shape: Int) {
        let (name, make) = Self.clampedShapes[shape]
        #expect(throws: Never.self, "\(name)") { try MarkdownReader().read(make(20_000)) }
        let ratios = LinearTime.ratios(small: Array(make(5_000).utf8), large: Array(make(20_000).utf8), limit: LinearTime.fourTimesBound, tries: 5) { bytes in
            _ = try? MarkdownReader().read(bytes)
        }
        #expect(ratios.contains { $0 < LinearTime.fourTimesBound }, "\(name): ratios \(ratios)")
    }

    @Test("B3: nesting opened on one line at size, content kept at depth 100, reported once where it begins", arguments: clampedShapes.indices)
    func clampedRead(shape: Int) throws {
        let (name, make) = Self.clampedShapes[shape]
        let read = try MarkdownReader().read("Intro\n\n" + make(40_000))
        #expect(read.value.invariantViolations().isEmpty, "\(name)")
        #expect(read.value.blocks.first?.text == "Intro", "\(name)")
        #expect(read.value.blocks.map { max($0.depth, $0.quoteDepth) }.max() == IRLimits.maxDepth, "\(name)")
        let clamped = read.diagnostics.filter { $0.code == "depth-clamped" }
        #expect(clamped.count == 1, "\(name): \(read.diagnostics.map(\.code))")
        #expect(clamped.first?.location.map { [$0.line, $0.column, $0.byteOffset] } == [3, 1, 7], "\(name)")
        // The emphasis shapes keep all their text: 40,000 "a"s and the stars no closer matched.
        if name.hasPrefix("emphasis") {
            let text = read.value.blocks.map(\.text).joined()
            #expect(text.utf8.count(where: { $0 == UInt8(ascii: "a") }) == 40_000, "\(name)")
        }
    }

    @Test("The clamp removes exactly the markers past the limit, each with the gap before it")
    func clampOutput() throws {
        let input = "x\n" + String(repeating: ">", count: 103) + " b\n" + String(repeating: "- ", count: 104) + "c\n"
            + String(repeating: "> ", count: 3) + "d\n"
        let (clamped, clamp) = try #require(MarkdownDepthClamp.clamp(Array(input.utf8)))
        let expected = "x\n" + String(repeating: ">", count: 101) + " b\n" + String(repeating: "- ", count: 102) + "c\n"
            + String(repeating: "> ", count: 3) + "d\n"
        #expect(String(decoding: clamped, as: UTF8.self) == expected)
        #expect(clamp.diagnostic == .warning("depth-clamped",
            "2 lines, the first here, begin with more than 101 quote markers ('>') or 102 list markers: the ones past those are not read, and what follows is kept at depth 100",
            at: SourceLocation(line: 2, column: 1, byteOffset: 2)))
        // Columns and offsets after a cut map back to the input's own.
        #expect(clamp.originalColumn(line: 2, column: 102) == 104)
        #expect(clamp.originalColumn(line: 3, column: 205) == 209)
        #expect(clamp.originalColumn(line: 4, column: 3) == 3)
        #expect(clamp.originalOffset(2 + 101) == 2 + 103)
        #expect(clamp.originalOffset(clamped.count - 1) == input.utf8.count - 1)
        // Lines no deeper than the limit, and markers past an indented-code gap, are left alone.
        #expect(MarkdownDepthClamp.clamp(Array((String(repeating: ">", count: 101) + " a\n" + String(repeating: "- ", count: 102) + "b").utf8)) == nil)
        #expect(MarkdownDepthClamp.clamp(Array(("-      " + String(repeating: ">", count: 200)).utf8)) == nil)
    }

    @Test("Diagnostics on a clamped line name the input's own column")
    func clampedColumns() throws {
        func unsafeURLColumn(quotes: Int) throws -> Int? {
            let read = try MarkdownReader().read(String(repeating: ">", count: quotes) + " [a](javascript:x)\n")
            return read.diagnostics.first { $0.code == "unsafe-url" }?.location?.column
        }
        let shallow = try #require(try unsafeURLColumn(quotes: 3))
        #expect(try unsafeURLColumn(quotes: 203) == shallow + 200)
    }

    @Test("A refusal after the clamp names the input's own line and column")
    func clampedRefusal() throws {
        let input = "a\n" + String(repeating: ">", count: 150) + " " + String(repeating: "![[]()", count: 400_000)
        do {
            _ = try MarkdownReader().read(input)
            Issue.record("read")
        } catch {
            #expect(error.code == "markdown-too-complex")
            #expect(error.location.map { [$0.line, $0.column, $0.byteOffset] } == [2, 152, 153])
        }
    }
}

/// The writer's side: text it writes as lines of their own (a fenced block's, an HTML block's)
/// that begin with more markers than the clamp keeps would lose them on reading back.
@Suite("Markdown writer: lines the reader's depth clamp would cut")
struct DepthClampWriterTests {
    static let listRun = String(repeating: "- ", count: 110) + "x"
    static let quoteRun = String(repeating: ">", count: 105) + " y"

    static func written(_ blocks: [Block], html: MarkdownWriter.HTMLPolicy) throws -> (String, [Diagnostic], Document) {
        let written = try MarkdownWriter(options: .init(html: html)).write(Document(blocks: blocks))
        let markdown = String(decoding: written.value, as: UTF8.self)
        return (markdown, written.diagnostics, try MarkdownReader().read(markdown).value)
    }

    @Test("A code block with such a line is written as an HTML block, its first marker a reference, and reads back equal")
    func codeBlockAsHTML() throws {
        let code = Block(.codeBlock(language: nil), text: "a\n\(Self.listRun)\n\(Self.quoteRun)")
        let (markdown, diagnostics, read) = try Self.written([code], html: .keep)
        #expect(markdown == "<pre><code>a\n&#45; \(String(repeating: "- ", count: 109))x\n\(String(repeating: "&gt;", count: 105)) y</code></pre>\n")
        #expect(diagnostics.isEmpty)
        #expect(read.blocks == [code])
    }

    @Test("In a quote the block's quotes count with the line's: 60 quotes and a line of 45 '>' go to HTML")
    func quotesBefore() throws {
        let line = String(repeating: ">", count: 45) + " z"
        let code = Block(.codeBlock(language: nil), text: line, quoteDepth: 60)
        let (markdown, _, read) = try Self.written([code], html: .keep)
        #expect(markdown.contains("<pre><code>"))
        #expect(read.blocks == [code])
        // Alone, 45 are well inside the limit: a fence.
        let alone = Block(.codeBlock(language: nil), text: line)
        #expect(try Self.written([alone], html: .keep).0 == "```\n\(line)\n```\n")
    }

    @Test("An HTML block's line (code with formatting) has its first marker written as a reference")
    func htmlBlockLine() throws {
        let code = Block(.codeBlock(language: nil), text: "b\n\(Self.listRun)", markups: [Markup(.strong, start: 0, end: 1)])
        let (markdown, diagnostics, read) = try Self.written([code], html: .keep)
        #expect(markdown == "<pre><code><strong>b</strong>\n&#45; \(String(repeating: "- ", count: 109))x</code></pre>\n")
        #expect(diagnostics.isEmpty)
        #expect(read.blocks == [code])
    }

    @Test("Without HTML the fence keeps the line, and the writer says the reader will cut it")
    func withoutHTML() throws {
        let code = Block(.codeBlock(language: nil), text: "a\n\(Self.listRun)")
        let (markdown, diagnostics, _) = try Self.written([code], html: .drop)
        #expect(markdown == "```\na\n\(Self.listRun)\n```\n")
        #expect(diagnostics.map(\.code) == ["depth-clamped"])
        #expect(diagnostics.first?.message.contains("code block 0: line 2 begins with more than 101 '>' or 102 list markers") == true)
    }
}
