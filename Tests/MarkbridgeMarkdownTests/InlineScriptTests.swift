import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeMarkdown

/// Script and style content is never text, in Markdown as in HTML (HOSTILE-INPUTS A9): cmark
/// gives inline `<script>` and `</script>` as two nodes with the content between, and all of
/// it is dropped, reported as `dropped-element`.
@Suite("Markdown reader: inline script and style dropped with their content")
struct InlineScriptTests {
    func read(_ markdown: String) throws -> (texts: [String], codes: [String]) {
        let read = try MarkdownReader().read(markdown)
        #expect(read.value.invariantViolations().isEmpty)
        return (read.value.blocks.map(\.text), read.diagnostics.map(\.code))
    }

    @Test("Inline script, style, template and noscript: content dropped, the text around kept", arguments: [
        ("a <script>alert(1)</script> b", "a  b"), ("a <SCRIPT type=\"x\">alert(1)</Script > b", "a  b"),
        ("a <style>p{color:red}</style> b", "a  b"), ("a <template>t</template> b", "a  b"), ("a <noscript>n</noscript> b", "a  b"),
        ("a <Canvas>c</canvas> b", "a  b"),
        ("a <script>*al* `e` [x](y) ![i](j)\nrt(1)</script> b", "a  b"),
        ("<b>x</b><script>alert(1)</script>y", "xy"),
    ])
    func dropped(_ markdown: String, _ text: String) throws {
        let (texts, codes) = try read(markdown)
        #expect(texts == [text])
        #expect(codes.filter { $0 == "dropped-element" }.count == 1)
    }

    @Test("An unclosed inline script drops its block's rest, not the next block")
    func unclosed() throws {
        let (texts, codes) = try read("a <script>alert(1)\n\nnext </script> c")
        #expect(texts == ["a ", "next  c"])
        #expect(codes.contains("dropped-element"))
    }

    @Test("Emphasis around a dropped script stays paired")
    func emphasis() throws {
        let read = try MarkdownReader().read("*a <script>b* c</script> d")
        #expect(read.value.invariantViolations().isEmpty)
        #expect(read.value.blocks.map(\.text) == ["a  d"])
        #expect(read.value.blocks.map(\.markups) == [[Markup(.emphasis, start: 0, end: 1)]])
    }

    @Test("An HTML block's script is dropped by the HTML reader, with the same code")
    func block() throws {
        let (texts, codes) = try read("<script>\nalert(1)\n</script>\n\ntext")
        #expect(texts == ["text"])
        #expect(codes == ["dropped-element"])
    }
}
