/// The alignment of two sequences: which elements of each are kept in common, in order (a
/// longest common subsequence), by Myers' O((N + M) D) algorithm, where D is the number of
/// elements inserted and deleted. A slightly edited copy has a small D, so a long document
/// against it aligns in near-linear time.
///
/// D is bounded (`maxEdits`). Past it, the pair is cut at anchors, as patience diff cuts it:
/// the elements that occur once in each sequence, in the longest run of them in the same order;
/// the stretches between anchors are aligned again, the same way, at most `anchoringLevels`
/// deep, and what is left after that is aligned greedily (equal elements matched where they
/// meet, the rest replaced). So a thousand paragraphs inserted at each end of a long document
/// still align exactly, and a pathological pair (two unrelated documents of a million blocks)
/// costs at most O((N + M) × maxEdits × anchoringLevels), never O(N × M).
enum SequenceAlignment {
    /// One step of the alignment: an element kept (its index in each), deleted from the first
    /// sequence, or inserted from the second.
    enum Step: Equatable {
        case keep(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// The bound on D: the path back keeps the frontier of each step, about D² 32-bit integers in
    /// all (16 MB at the bound).
    static let defaultMaxEdits = 2_000

    /// How many times a stretch past the bound is cut at anchors before the rest goes greedy.
    static let anchoringLevels = 8

    static func align(_ a: [Int], _ b: [Int], maxEdits: Int = defaultMaxEdits) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(max(a.count, b.count))
        align(a[...], b[...], maxEdits: maxEdits, levels: anchoringLevels, into: &steps)
        return steps
    }

    /// Aligns two slices (their indices are the whole sequences'), appending the steps.
    private static func align(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>, maxEdits: Int, levels: Int, into steps: inout [Step]) {
        // Common head and tail first: most edits leave most of a document alone.
        var head = 0
        while head < a.count && head < b.count && a[a.startIndex + head] == b[b.startIndex + head] { head += 1 }
        var tail = 0
        while tail < a.count - head && tail < b.count - head && a[a.endIndex - 1 - tail] == b[b.endIndex - 1 - tail] { tail += 1 }
        for offset in 0..<head { steps.append(.keep(a.startIndex + offset, b.startIndex + offset)) }
        let middleA = a[(a.startIndex + head)..<(a.endIndex - tail)], middleB = b[(b.startIndex + head)..<(b.endIndex - tail)]
        if let path = myers(Array(middleA), Array(middleB), maxEdits: maxEdits) {
            let (baseA, baseB) = (middleA.startIndex, middleB.startIndex)
            for step in path {
                switch step {
                case .keep(let i, let j): steps.append(.keep(i + baseA, j + baseB))
                case .delete(let i): steps.append(.delete(i + baseA))
                case .insert(let j): steps.append(.insert(j + baseB))
                }
            }
        } else if levels > 0, case let anchors = uniqueAnchors(middleA, middleB), !anchors.isEmpty {
            var nextA = middleA.startIndex, nextB = middleB.startIndex
            for (i, j) in anchors {
                align(a[nextA..<i], b[nextB..<j], maxEdits: maxEdits, levels: levels - 1, into: &steps)
                steps.append(.keep(i, j))
                nextA = i + 1
                nextB = j + 1
            }
            align(a[nextA..<middleA.endIndex], b[nextB..<middleB.endIndex], maxEdits: maxEdits, levels: levels - 1, into: &steps)
        } else {
            greedy(middleA, middleB, into: &steps)
        }
        for offset in 0..<tail { steps.append(.keep(a.endIndex - tail + offset, b.endIndex - tail + offset)) }
    }

    /// The elements that occur exactly once in each slice, as (index in a, index in b), the
    /// longest run of them in the same order in both: patience sorting, O(k log k).
    private static func uniqueAnchors(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>) -> [(Int, Int)] {
        var counts: [Int: (a: Int, b: Int, indexA: Int, indexB: Int)] = [:]
        for index in a.indices { counts[a[index], default: (0, 0, 0, 0)].a += 1; counts[a[index]]!.indexA = index }
        for index in b.indices { counts[b[index], default: (0, 0, 0, 0)].b += 1; counts[b[index]]!.indexB = index }
        let pairs = counts.values.filter { $0.a == 1 && $0.b == 1 }.map { ($0.indexA, $0.indexB) }.sorted { $0.0 < $1.0 }
        guard !pairs.isEmpty else { return [] }
        // Piles by b index: the top of each pile, and each pair's predecessor for the path back.
        var tops: [Int] = []
        var previous = [Int](repeating: -1, count: pairs.count)
        for (position, pair) in pairs.enumerated() {
            var low = 0, high = tops.count
            while low < high {
                let middle = (low + high) / 2
                if pairs[tops[middle]].1 < pair.1 { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tops[low - 1] }
            if low == tops.count { tops.append(position) } else { tops[low] = position }
        }
        var chain: [(Int, Int)] = []
        var position = tops.last ?? -1
        while position >= 0 {
            chain.append(pairs[position])
            position = previous[position]
        }
        return chain.reversed()
    }

    /// Myers' greedy algorithm with the trace kept for the path back; nil past `maxEdits`.
    private static func myers(_ a: [Int], _ b: [Int], maxEdits: Int) -> [Step]? {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var frontier = [Int](repeating: 0, count: 2 * limit + 3)
        // Int32 halves the trace, the one large allocation (frontiers are indices below 2^31).
        var trace: [[Int32]] = []
        guard n < Int(Int32.max) && m < Int(Int32.max) else { return nil }
        for edits in 0...limit {
            // Only the diagonals the path back can reach from this step: 2 × edits + 3 of them.
            trace.append(frontier[(offset - edits - 1)...(offset + edits + 1)].map { Int32(truncatingIfNeeded: $0) })
            var diagonal = -edits
            while diagonal <= edits {
                var x: Int
                if diagonal == -edits || (diagonal != edits && frontier[offset + diagonal - 1] < frontier[offset + diagonal + 1]) {
                    x = frontier[offset + diagonal + 1]
                } else {
                    x = frontier[offset + diagonal - 1] + 1
                }
                var y = x - diagonal
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + diagonal] = x
                if x >= n && y >= m { return backtrack(trace, a: a, b: b, edits: edits) }
                diagonal += 2
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int32]], a: [Int], b: [Int], edits: Int) -> [Step] {
        var steps: [Step] = []
        var x = a.count, y = b.count
        for depth in stride(from: edits, through: 0, by: -1) {
            // The frontier before this step, by diagonal (stored from diagonal -depth - 1 on).
            let stored = trace[depth]
            func frontier(_ diagonal: Int) -> Int { Int(stored[diagonal + depth + 1]) }
            let diagonal = x - y
            let previousDiagonal: Int
            if diagonal == -depth || (diagonal != depth && frontier(diagonal - 1) < frontier(diagonal + 1)) {
                previousDiagonal = diagonal + 1
            } else {
                previousDiagonal = diagonal - 1
            }
            let previousX = depth == 0 ? 0 : frontier(previousDiagonal)
            let previousY = previousX - previousDiagonal
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                steps.append(.keep(x, y))
            }
            if depth > 0 {
                if x == previousX { steps.append(.insert(previousY)) } else { steps.append(.delete(previousX)) }
            }
            x = previousX
            y = previousY
        }
        return steps.reversed()
    }

    /// Equal elements matched where both slices meet them in step, the others replaced:
    /// linear, for what is left past the bound.
    private static func greedy(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>, into steps: inout [Step]) {
        for offset in 0..<max(a.count, b.count) {
            let i = a.startIndex + offset, j = b.startIndex + offset
            if offset < a.count && offset < b.count && a[i] == b[j] {
                steps.append(.keep(i, j))
            } else {
                if offset < a.count { steps.append(.delete(i)) }
                if offset < b.count { steps.append(.insert(j)) }
            }
        }
    }
}
