import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTMLParser

@Suite("HTML parser: the depth cap")
struct ParserDepthTests {
    /// The deepest element in the tree, walked iteratively.
    static func maxDepth(_ tree: HTMLTree) -> Int {
        var deepest = 0
        var stack = [(tree.root, 0)]
        while let (node, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            for child in tree.children(of: node) { stack.append((child, depth + 1)) }
        }
        return deepest
    }

    @Test("A1: past the cap, elements are flattened into their parent: the text is kept, a diagnostic says where")
    func flattened() throws {
        let input = String(repeating: "<div>", count: 100) + "deep text" + String(repeating: "</div>", count: 100) + "after"
        let parsed = try HTMLParser(options: .init(maxDepth: 40)).parseFragment(Array(input.utf8))
        let dump = parsed.value.html5libDump()
        // Each flattened block leaves a space where its boundary was.
        #expect(dump.contains("\"" + String(repeating: " ", count: 61) + "deep text\""))
        #expect(dump.hasSuffix("\"after\""))
        #expect(Self.maxDepth(parsed.value) <= 42)
        #expect(parsed.diagnostics.map(\.description) == [
            "1:196: warning: nesting deeper than 40 elements: 61 elements flattened into their parent, text kept [depth-limit]",
        ])
    }

    @Test("Under the cap nothing changes and nothing is reported")
    func underCap() throws {
        let parsed = try HTMLParser().parseFragment(Array((String(repeating: "<b>", count: 300) + "x").utf8))
        #expect(parsed.diagnostics.isEmpty)
        #expect(Self.maxDepth(parsed.value) == 302)
    }
}
