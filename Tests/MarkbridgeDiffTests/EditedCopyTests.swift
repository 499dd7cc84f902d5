import MarkbridgeDiff
import MarkbridgeIR
import MarkbridgeTestSupport
import Testing

@Suite("Document diff: generated documents against edited copies")
struct EditedCopyTests {
    @Test("The diff finds exactly the edits made, by kind", arguments: [1, 2, 3, 4, 5, 6])
    func findsTheEdits(seed: UInt64) {
        var generator = DocumentGenerator(seed: seed)
        let original = generator.document(blockCount: 1_500)
        let edits = DocumentEdits(of: original, every: 23)
        var counts = (changed: 0, inserted: 0, deleted: 0, moved: 0)
        for change in diff(original, edits.document).changes {
            switch change {
            case .changed: counts.changed += 1
            case .inserted: counts.inserted += 1
            case .deleted: counts.deleted += 1
            case .moved: counts.moved += 1
            }
        }
        #expect(edits.changed + edits.inserted + edits.deleted + edits.moved > 40)
        #expect(counts.changed == edits.changed)
        #expect(counts.inserted == edits.inserted)
        #expect(counts.deleted == edits.deleted)
        #expect(counts.moved == edits.moved)
    }

    @Test("A document against itself is no change, and every diff names each block at most once", arguments: [7, 8])
    func selfAndCoverage(seed: UInt64) {
        var generator = DocumentGenerator(seed: seed, profile: .hostile)
        let a = generator.document(blockCount: 400), b = generator.document(blockCount: 400)
        #expect(diff(a, a).isEmpty)
        var old = Set<Int>(), new = Set<Int>()
        for change in diff(a, b).changes {
            switch change {
            case .inserted(let index, _): #expect(new.insert(index).inserted)
            case .deleted(let index, _): #expect(old.insert(index).inserted)
            case .moved(let from, let to, _), .changed(let from, let to, _):
                #expect(old.insert(from).inserted)
                #expect(new.insert(to).inserted)
            }
        }
    }
}
