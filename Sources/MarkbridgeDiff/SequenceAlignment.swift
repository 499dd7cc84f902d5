/// The alignment of two sequences: which elements of each are kept in common, in order (a
/// longest common subsequence), by Myers' O((N + M) D) algorithm, where D is the number of
/// elements inserted and deleted. A slightly edited copy has a small D, so a long document
/// against it aligns in near-linear time.
///
/// D is bounded (`maxEdits`): past it, the rest of both sequences is aligned greedily (equal
/// elements matched where they meet, the rest replaced), so a pathological pair (two unrelated
/// documents of a million blocks) costs O((N + M) × maxEdits), never O(N × M).
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

    static func align(_ a: [Int], _ b: [Int], maxEdits: Int = defaultMaxEdits) -> [Step] {
        // Common head and tail first: most edits leave most of a document alone.
        var head = 0
        while head < a.count && head < b.count && a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head && tail < b.count - head && a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        var steps = (0..<head).map { Step.keep($0, $0) }
        let middleA = Array(a[head..<(a.count - tail)]), middleB = Array(b[head..<(b.count - tail)])
        steps += myers(middleA, middleB, maxEdits: maxEdits).map { step in
            switch step {
            case .keep(let i, let j): .keep(i + head, j + head)
            case .delete(let i): .delete(i + head)
            case .insert(let j): .insert(j + head)
            }
        }
        steps += (0..<tail).map { Step.keep(a.count - tail + $0, b.count - tail + $0) }
        return steps
    }

    /// Myers' greedy algorithm with the trace kept for the path back; nil-free: past
    /// `maxEdits` it falls back to ``greedy(_:_:)``.
    private static func myers(_ a: [Int], _ b: [Int], maxEdits: Int) -> [Step] {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var frontier = [Int](repeating: 0, count: 2 * limit + 3)
        // Int32 halves the trace, the one large allocation (frontiers are indices below 2^31).
        var trace: [[Int32]] = []
        guard n < Int(Int32.max) && m < Int(Int32.max) else { return greedy(a, b) }
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
        return greedy(a, b)
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

    /// Equal elements matched where both sequences meet them in step, the others replaced:
    /// linear, for pairs past the edit bound.
    private static func greedy(_ a: [Int], _ b: [Int]) -> [Step] {
        var steps: [Step] = []
        for index in 0..<max(a.count, b.count) {
            if index < a.count && index < b.count && a[index] == b[index] {
                steps.append(.keep(index, index))
            } else {
                if index < a.count { steps.append(.delete(index)) }
                if index < b.count { steps.append(.insert(index)) }
            }
        }
        return steps
    }
}
