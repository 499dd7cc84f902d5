
/// The rows of the side-by-side table: blocks paired as the alignment paired them (unchanged
/// pairs are the blocks no change names, in order on both sides), each deleted or moved-away
/// block on a row of its own where it was, each inserted or moved-in block where it is.
package struct ReportRows {
    package enum Row {
        case same(Int, Int)
        case changed(Int, Int, BlockDifferences)
        case onlyOld(Int, movedTo: Int?)
        case onlyNew(Int, movedFrom: Int?)
        /// A block that moved and changed, at its new place (its old place is an `onlyOld`).
        case movedAndChanged(Int, Int, BlockDifferences)

        /// The blocks the row is the place of, on each side: a moved block's old index only
        /// where it stood (its `onlyOld` row), not again beside its new place.
        var blocks: (old: Int?, new: Int?) {
            switch self {
            case .same(let old, let new), .changed(let old, let new, _): (old, new)
            case .onlyOld(let old, _): (old, nil)
            case .onlyNew(let new, _): (nil, new)
            case .movedAndChanged(_, let new, _): (nil, new)
            }
        }
    }

    package private(set) var rows: [Row] = []

    package init(_ diff: DocumentDiff, oldCount: Int, newCount: Int) {
        var oldRole = [Row?](repeating: nil, count: oldCount), newRole = [Row?](repeating: nil, count: newCount)
        var pairedNew = [Bool](repeating: false, count: newCount)
        for change in diff.changes {
            switch change {
            case .inserted(let index, _): newRole[index] = .onlyNew(index, movedFrom: nil)
            case .deleted(let index, _): oldRole[index] = .onlyOld(index, movedTo: nil)
            case .moved(let from, let to, _):
                oldRole[from] = .onlyOld(from, movedTo: to)
                newRole[to] = .onlyNew(to, movedFrom: from)
            case .changed(let from, let to, let details) where details.isMoved:
                oldRole[from] = .onlyOld(from, movedTo: to)
                newRole[to] = .movedAndChanged(from, to, details)
            case .changed(let from, let to, let details):
                oldRole[from] = .changed(from, to, details)
                pairedNew[to] = true
            }
        }
        var oldIndex = 0, newIndex = 0
        while oldIndex < oldCount || newIndex < newCount {
            if oldIndex < oldCount, let role = oldRole[oldIndex], case .onlyOld = role {
                rows.append(role)
                oldIndex += 1
            } else if newIndex < newCount, let role = newRole[newIndex] {
                rows.append(role)
                newIndex += 1
            } else if oldIndex < oldCount, newIndex < newCount {
                // Both sides are at a pair: a changed one, or an unchanged one.
                if let role = oldRole[oldIndex] { rows.append(role) } else if !pairedNew[newIndex] { rows.append(.same(oldIndex, newIndex)) }
                oldIndex += 1
                newIndex += 1
            } else {
                // One side ran out: only blocks no change names are left, which cannot be.
                break
            }
        }
    }
}
