@testable import MarkbridgeDiff
import Testing

@Suite("Sequence alignment")
struct SequenceAlignmentTests {
    /// Every element of both sequences appears once, in order, and kept pairs are equal.
    private func isAlignment(_ steps: [SequenceAlignment.Step], _ a: [Int], _ b: [Int]) -> Bool {
        var nextA = 0, nextB = 0
        for step in steps {
            switch step {
            case .keep(let i, let j):
                guard i == nextA, j == nextB, a[i] == b[j] else { return false }
                nextA += 1
                nextB += 1
            case .delete(let i):
                guard i == nextA else { return false }
                nextA += 1
            case .insert(let j):
                guard j == nextB else { return false }
                nextB += 1
            }
        }
        return nextA == a.count && nextB == b.count
    }

    /// The length of a longest common subsequence, by the quadratic table.
    private func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var diagonal = 0
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = x == y ? diagonal + 1 : max(row[j + 1], row[j])
                diagonal = above
            }
        }
        return row[b.count]
    }

    @Test("Over random pairs the alignment is valid and keeps a longest common subsequence")
    func randomPairs() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let a = (0..<Int(random.next() % 40)).map { _ in Int(random.next() % 5) }
            var b = a
            for _ in 0..<Int(random.next() % 8) {
                switch random.next() % 3 {
                case 0 where !b.isEmpty: b.remove(at: Int(random.next() % UInt64(b.count)))
                case 1: b.insert(Int(random.next() % 5), at: Int(random.next() % UInt64(b.count + 1)))
                default: if !b.isEmpty { b[Int(random.next() % UInt64(b.count))] = Int(random.next() % 5) }
                }
            }
            let steps = SequenceAlignment.align(a, b)
            #expect(isAlignment(steps, a, b), "\(a) vs \(b)")
            let kept = steps.filter { if case .keep = $0 { true } else { false } }.count
            #expect(kept == lcsLength(a, b), "\(a) vs \(b)")
        }
    }

    @Test("Past the edit bound the alignment is still valid, and greedy")
    func pastTheBound() {
        let a = (0..<500).map { $0 % 7 }, b = (0..<500).map { ($0 * 3) % 11 }
        let steps = SequenceAlignment.align(a, b, maxEdits: 10)
        #expect(isAlignment(steps, a, b))
        let bounded = SequenceAlignment.align(a, b, maxEdits: 2_000)
        #expect(isAlignment(bounded, a, b))
        #expect(bounded.filter { if case .keep = $0 { true } else { false } }.count == lcsLength(a, b))
    }
}
