import MarkbridgeIR
import MarkbridgeTestSupport
import Testing

/// The round-trip properties see only what the generator makes: it must reach every block kind,
/// in a list item and in a quote, and every markup kind over every block kind that holds
/// formatted text. Derived from `allCases`, so a new kind fails here until the generator makes it.
@Suite("Document generator: every kind, in every container")
struct GeneratorCoverageTests {
    /// Blocks whose text carries no markups in any format: code is literal, a rule has no text.
    static let unformatted: Set<BlockKind.Tag> = [.codeBlock, .horizontalRule]

    static func seen() -> (kinds: Set<BlockKind.Tag>, inItem: Set<BlockKind.Tag>, inQuote: Set<BlockKind.Tag>, markups: Set<String>) {
        var kinds = Set<BlockKind.Tag>(), inItem = Set<BlockKind.Tag>(), inQuote = Set<BlockKind.Tag>(), markups = Set<String>()
        var generator = DocumentGenerator(seed: 25, profile: .hostile)
        for index in 0..<1_500 {
            for block in generator.document(blockCount: 1 + index % 24).blocks {
                guard let tag = block.kind.tag else { continue }
                kinds.insert(tag)
                if block.depth > 0 { inItem.insert(tag) }
                if block.quoteDepth > 0 { inQuote.insert(tag) }
                for markup in block.markups { markups.insert("\(markup.kind.tag.name) over \(tag.rawValue)") }
            }
        }
        return (kinds, inItem, inQuote, markups)
    }

    @Test("Every block kind, each inside a list item and inside a quote, and every markup over every block kind with formatted text; every document valid")
    func everyKind() {
        var generator = DocumentGenerator(seed: 26, profile: .hostile)
        for index in 0..<300 {
            let document = generator.document(blockCount: 1 + index % 24)
            #expect(document.invariantViolations().isEmpty, "document \(index): \(document.invariantViolations())")
        }
        let seen = Self.seen()
        let all = Set(BlockKind.Tag.allCases)
        #expect(all.subtracting(seen.kinds).isEmpty, "never made: \(all.subtracting(seen.kinds).map(\.rawValue).sorted())")
        #expect(all.subtracting(seen.inItem).isEmpty, "never in a list item: \(all.subtracting(seen.inItem).map(\.rawValue).sorted())")
        // A paragraph in a quote is a BQ block (canonical form).
        let quotable = all.subtracting([.paragraph])
        #expect(quotable.subtracting(seen.inQuote).isEmpty, "never in a quote: \(quotable.subtracting(seen.inQuote).map(\.rawValue).sorted())")
        var wanted = Set<String>()
        for block in all.subtracting(Self.unformatted) {
            for markup in MarkupKind.Tag.allCases { wanted.insert("\(markup.name) over \(block.rawValue)") }
        }
        let missing = wanted.subtracting(seen.markups)
        #expect(missing.isEmpty, "never made: \(missing.sorted())")
    }

    @Test("Images, as blocks and inline, come with a width, a height, both and neither, 0 and the largest kept among them")
    func imageSizes() {
        var generator = DocumentGenerator(seed: 27, profile: .hostile)
        var shapes = Set<String>(), edges = Set<Int>()
        for index in 0..<600 {
            for block in generator.document(blockCount: 1 + index % 24).blocks {
                var images: [(String, ImageSource)] = block.markups.compactMap { if case .image(let image) = $0.kind { ("IMAGE", image) } else { nil } }
                if case .image(let image) = block.kind { images.append(("IMG", image)) }
                for (name, image) in images {
                    shapes.insert("\(name) \(image.width == nil ? "-" : "w")\(image.height == nil ? "-" : "h")")
                    edges.formUnion([image.width, image.height].compactMap { $0 }.filter { $0 == 0 || $0 == 100_000 })
                }
            }
        }
        #expect(shapes == ["IMG --", "IMG w-", "IMG -h", "IMG wh", "IMAGE --", "IMAGE w-", "IMAGE -h", "IMAGE wh"])
        #expect(edges == [0, 100_000])
    }
}
