import Markbridge
@testable import MarkbridgeCLI
import MarkbridgeTestSupport
import Testing

@Suite("Diff report: the side-by-side rows")
struct ReportRowsTests {
    @Test("Every block of both documents is on exactly one row, in order on each side", arguments: [11, 12, 13, 14])
    func everyBlockOnce(seed: UInt64) {
        var generator = DocumentGenerator(seed: seed, profile: .hostile)
        let original = generator.document(blockCount: 300)
        for every in [3, 7, 31] {
            let edited = DocumentEdits(of: original, every: every).document
            for (old, new) in [(original, edited), (edited, original), (original, generator.document(blockCount: 200))] {
                var oldSeen: [Int] = [], newSeen: [Int] = []
                for row in ReportRows(diff(old, new), oldCount: old.blocks.count, newCount: new.blocks.count).rows {
                    switch row {
                    case .same(let a, let b), .changed(let a, let b, _):
                        oldSeen.append(a)
                        newSeen.append(b)
                    case .onlyOld(let a, _): oldSeen.append(a)
                    case .onlyNew(let b, _): newSeen.append(b)
                    case .movedAndChanged(_, let b, _): newSeen.append(b)
                    }
                }
                #expect(oldSeen == Array(old.blocks.indices), "seed \(seed), every \(every)")
                #expect(newSeen == Array(new.blocks.indices), "seed \(seed), every \(every)")
            }
        }
    }
}
