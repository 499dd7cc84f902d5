import Testing
import MarkbridgeTestSupport
@testable import MarkbridgeIR

/// Markup edges trimmed past whitespace (`Block.trimmingWhitespaceEdges`), found by a forward
/// walk over UTF-16 offsets, held to the plain reading: a flag for each UTF-16 unit of the text.
@Suite("Whitespace at markup edges")
struct WhitespaceEdgeTests {
    /// The plain reading: every unit a flag, each trimmable markup's edges moved inward past
    /// flagged units.
    static func reference(_ markups: [Markup], in text: String) -> [Markup] {
        let units = Array(text.utf16)
        func isSpace(_ offset: Int) -> Bool {
            offset >= 0 && offset < units.count && (units[offset] == 0x20 || units[offset] == 0x09 || units[offset] == 0x0A)
        }
        return markups.map { markup in
            guard markup.kind.trimsWhitespaceEdges, !markup.range.isEmpty else { return markup }
            var start = markup.range.start, end = markup.range.end
            while start < end, isSpace(start) { start += 1 }
            while end > start, isSpace(end - 1) { end -= 1 }
            var trimmed = markup
            trimmed.range = TextRange(start: start, end: end)
            return trimmed
        }
    }

    @Test("Edges move past spaces, tabs and line feeds, never past other text, over Cyrillic, CJK and surrogate pairs")
    func examples() {
        // "д" is two UTF-8 bytes and one unit, "😀" four bytes and two units.
        let text = "д  😀 x\t\n y  "
        let cases: [(TextRange, TextRange)] = [
            (TextRange(start: 1, end: 5), TextRange(start: 3, end: 5)),   // "  😀 " -> "😀"
            (TextRange(start: 0, end: 3), TextRange(start: 0, end: 1)),   // "д  " -> "д"
            (TextRange(start: 5, end: 13), TextRange(start: 6, end: 11)), // " x\t\n y  " -> "x\t\n y"
            (TextRange(start: 1, end: 3), TextRange(start: 3, end: 3)),   // all whitespace: empty at its end
            (TextRange(start: 4, end: 5), TextRange(start: 4, end: 5)),   // inside the pair: not whitespace
        ]
        for (range, expected) in cases {
            let trimmed = Block.trimmingWhitespaceEdges([Markup(.strong, start: range.start, end: range.end)], in: text)
            #expect(trimmed.map(\.range) == [expected], "\(range)")
        }
        // Code keeps its edges (its spaces are content); a link's move as any other's.
        let marked = [Markup(.code, start: 1, end: 5), Markup(.link(LinkTarget(href: "https://e.x/")), start: 1, end: 5)]
        #expect(Block.trimmingWhitespaceEdges(marked, in: text).map(\.range) == [TextRange(start: 1, end: 5), TextRange(start: 3, end: 5)])
    }

    @Test("The walk agrees with a flag for every unit over 20,000 random texts and markups")
    func agreesWithFlags() {
        var random = SeededRandom(seed: 25)
        let pieces = ["a", "д", "東", "😀", " ", "\t", "\n", "  ", "xyz", "ж ж", "\u{FFFC}"]
        let kinds: [MarkupKind] = [.strong, .emphasis, .code, .underline, .highlight, .link(LinkTarget(href: "https://e.x/")), .color(CSSColor(red: 1, green: 2, blue: 3))]
        for _ in 0..<20_000 {
            let text = (0..<random.below(40)).map { _ in random.pick(pieces) }.joined()
            let units = text.utf16.count
            guard units > 0 else { continue }
            let markups = (0..<(1 + random.below(6))).map { _ in
                let start = random.below(units), end = start + 1 + random.below(units - start)
                return Markup(random.pick(kinds), start: start, end: end)
            }
            #expect(Block.trimmingWhitespaceEdges(markups, in: text) == Self.reference(markups, in: text), "\(text.debugDescription) \(markups)")
        }
    }
}
