@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// Random and mutated input: the parser must return a tree or an error for every byte string,
/// never trap, return a tree for most of them, and every tree must be well formed (each node
/// reachable once, links consistent).
@Suite("HTML parser: fuzz loop")
struct ParserFuzzTests {
    static func checkWellFormed(_ tree: HTMLTree) {
        var seen = Set<HTMLNodeID>()
        var stack = [tree.root]
        while let node = stack.popLast() {
            #expect(seen.insert(node).inserted, "node reached twice")
            for child in tree.children(of: node) {
                #expect(tree.parent(of: child) == node)
                stack.append(child)
            }
        }
    }

    static var seeds: [String] {
        let cases = TreeConstructionConformanceTests.cases.map(\.data)
        var generator = HTMLCorpusGenerator(seed: 3)
        return cases.isEmpty ? (0..<50).map { _ in generator.fragment(approximateBytes: 400) } : cases
    }

    @Test("Mutated html5lib inputs and generated HTML never trap, and most of them parse")
    func mutations() {
        var random = SeededRandom(seed: 2026)
        let pieces = ["<", ">", "</", "<b>", "</b>", "<table>", "<td>", "<svg>", "<math>", "<select>", "<template>",
                      "&", "&#", "&#x1F;", "&amp", "<!--", "-->", "<![CDATA[", "\u{0}", "\"", "'", "=", "<script>", "</p>",
                      "<frameset>", "<plaintext>", "<textarea>", "\r", "\u{FEFF}", "é", "👍"].map { Array($0.utf8) }
        let seeds = Self.seeds
        var accepted = 0
        for iteration in 0..<1500 {
            var bytes = Array(seeds[iteration % seeds.count].utf8)
            for _ in 0..<(1 + random.below(6)) {
                let position = bytes.isEmpty ? 0 : random.below(bytes.count + 1)
                switch random.below(4) {
                case 0: bytes.insert(contentsOf: random.pick(pieces), at: position)
                case 1 where !bytes.isEmpty: bytes.remove(at: min(position, bytes.count - 1))
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                default: bytes.insert(contentsOf: bytes.prefix(random.below(40)), at: position)
                }
            }
            let parser = HTMLParser(options: .init(repairsInvalidUTF8: random.chance(70), maxDepth: 8 + random.below(64)))
            for tree in [try? parser.parseDocument(bytes).value, try? parser.parseFragment(bytes).value].compactMap(\.self) {
                accepted += 1
                Self.checkWellFormed(tree)
            }
        }
        // Only invalid UTF-8 without repair is refused; the generated seeds give 2,474 trees.
        // Half the parses is the floor, so that a parser that rejects everything fails here.
        #expect(accepted >= 1500, "only \(accepted) of 3,000 parses returned a tree")
    }
}
