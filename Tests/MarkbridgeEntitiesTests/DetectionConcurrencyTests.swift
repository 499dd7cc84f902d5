import Markbridge
import MarkbridgeTestSupport
import Testing

/// Detection is a function of its document and options: from many tasks at once it gives what
/// it gives one at a time.
@Suite("Entity detection from many tasks")
struct DetectionConcurrencyTests {
    @Test("64 tasks over generated documents with entities in their text, each equal to the same detection done alone")
    func manyTasks() async throws {
        let link = try EntityLinkTemplate("app://tag?t={tag}", placeholder: "{tag}")
        let detection = EntityDetection(kinds: [.hashtags, .mentions, .urls], hashtagLink: link)
        var generator = DocumentGenerator(seed: 64)
        let words = ["#東京", "@ana", "https://example.com/a_(b).", "mail@x.org", "#😡", "www.x.y,", "#λόγος!", "👨‍👩‍👧#no"]
        var random = SeededRandom(seed: 65)
        let documents: [Document] = (0..<64).map { _ in
            var document = generator.document(blockCount: 8)
            for index in document.blocks.indices where Self.takesWords(document.blocks[index].kind) {
                document.blocks[index].text += " " + random.pick(words) + " " + random.pick(words)
            }
            document.canonicalize()
            return document
        }
        let alone = documents.map { detection.apply(to: $0) }
        let together = await withTaskGroup(of: (Int, Document, [String]).self) { group in
            for (index, document) in documents.enumerated() {
                group.addTask {
                    let result = detection.apply(to: document)
                    return (index, result.value, result.diagnostics.map(\.message))
                }
            }
            var results = [(Document, [String])?](repeating: nil, count: documents.count)
            for await (index, document, messages) in group { results[index] = (document, messages) }
            return results
        }
        var entities = 0
        for index in documents.indices {
            #expect(together[index]?.0 == alone[index].value, "document \(index)")
            #expect(together[index]?.1 == alone[index].diagnostics.map(\.message), "document \(index)")
            entities += alone[index].value.blocks.reduce(0) { $0 + $1.markups.filter { $0.kind.tag == .hashtag || $0.kind.tag == .mention }.count }
        }
        #expect(entities > 100, "the documents should hold entities to find: \(entities)")
        #expect(alone.allSatisfy { $0.value.invariantViolations().isEmpty })
    }

    /// Blocks whose text is plain paragraph text (no cells, captions or code to keep apart).
    static func takesWords(_ kind: BlockKind) -> Bool {
        switch kind {
        case .paragraph, .heading, .blockquote, .unorderedListItem, .orderedListItem: true
        default: false
        }
    }
}
