import Testing
import MarkbridgeTestSupport
@_spi(InlineTraversal) import MarkbridgeIR

/// Kinds are declared once: each kind's tag gives its JSON name and its canonical rank, and
/// the two stay what the declaration order says.
@Suite("Block and markup kind tags")
struct KindTagTests {
    @Test("A markup tag's rank is its position among the tags, and every rank is below the count")
    func ranks() {
        for (index, tag) in MarkupKind.Tag.allCases.enumerated() {
            #expect(tag.rank == index, "\(tag)")
        }
        #expect(MarkupKind.Tag.count == MarkupKind.Tag.allCases.count)
    }

    @Test("Every markup kind maps to its own tag, and its name is the tag's JSON name, found again by name")
    func markupNames() {
        let kinds = MarkupKind.Tag.allCases.map(MarkupKind.sample)
        #expect(kinds.map(\.tag) == MarkupKind.Tag.allCases)
        #expect(kinds.map(\.name) == ["STRONG", "EM", "CODE", "LINK", "STRIKE", "UNDERLINE", "SUP", "SUB", "HIGHLIGHT", "COLOR", "BACKGROUND",
                                      "IMAGE", "HASHTAG", "MENTION"])
        #expect(kinds.map(\.canonicalRank) == Array(0..<MarkupKind.Tag.count))
        #expect(MarkupKind.Tag.allCases.map { MarkupKind.Tag(name: $0.name) } == MarkupKind.Tag.allCases)
        #expect(MarkupKind.Tag(name: "strong") == nil && MarkupKind.Tag(name: "") == nil)
    }

    @Test("Every block kind maps to its tag; headings by level, and a level outside 1...6 to none")
    func blockNames() {
        let kinds: [BlockKind] = [.paragraph] + (1...6).map { .heading(level: $0) }
            + [.blockquote, .codeBlock(language: "x"), .unorderedListItem, .orderedListItem(number: 2), .image(ImageSource(src: "i")),
               .embed(Embed(.video, src: "v")), .tableRow(TableRow(cells: [])), .tableCaption, .definitionTerm(continues: false), .definitionDescription(continues: false), .horizontalRule]
        #expect(kinds.map(\.tag) == BlockKind.Tag.allCases)
        #expect(BlockKind.Tag.allCases.map(\.rawValue) == ["P", "H1", "H2", "H3", "H4", "H5", "H6", "BQ", "PRE", "ULI", "OLI", "IMG", "EMBED", "TR", "CAPTION", "DT", "DD", "HR"])
        #expect(BlockKind.heading(level: 9).tag == nil)
        #expect(BlockKind.Tag.allCases.compactMap(\.headingLevel) == Array(1...6))
    }
}
