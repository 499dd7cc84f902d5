/// Text shows one colour. Where COLOR markups overlap, the canonical form keeps, over the text
/// they share, the innermost: the one later in canonical order (the later start, then the
/// shorter, then the later by value), which is the one writers nest innermost and so the one
/// a page shows. The others are cut around it. The HTML reader already reads nested colours so
/// (an inner colour suspends the outer); markup JSON may overlap them, and is canonicalised.
extension Block {
    /// Whether COLOR markups in canonical order overlap: sorted by start, they do exactly when
    /// one starts before the furthest end of those before it.
    static func hasOverlappingColors(_ markups: [Markup]) -> Bool {
        var furthestEnd = Int.min
        for markup in markups where markup.kind.isColor {
            if markup.range.start < furthestEnd { return true }
            furthestEnd = max(furthestEnd, markup.range.end)
        }
        return false
    }

    /// Whether COLOR markups of different colours overlap, in `markups` in any order: what a
    /// reader of markup JSON reports before canonical form resolves them. Looks no further
    /// than a count unless there are two colours.
    package static func colorsOverlap(_ markups: [Markup]) -> Bool {
        var colorCount = 0
        for markup in markups where markup.kind.isColor { colorCount += 1 }
        return colorCount > 1 && hasOverlappingColors(mergedMarkups(markups.filter(\.kind.isColor)))
    }

    /// How many markups canonical form keeps before it resolves colours: fewer than given
    /// when empty ones are dropped or equal ones merged.
    package static func mergedMarkupCount(_ markups: [Markup]) -> Int {
        mergedMarkups(markups).count
    }

    /// `markups` in canonical order, with each stretch of text covered by one colour only.
    /// A sweep over the colours' edges with the open colours in a heap by canonical order:
    /// O(k log k) in the k colours, whatever their overlap.
    static func resolvingOverlappingColors(_ markups: [Markup]) -> [Markup] {
        guard hasOverlappingColors(markups) else { return markups }
        let colors = markups.filter(\.kind.isColor)
        var edges = colors.flatMap { [$0.range.start, $0.range.end] }
        edges.sort()
        var open = MaxHeap()
        var nextColor = 0
        var pieces: [Markup] = []
        for (index, position) in edges.enumerated().dropLast() where position != edges[index + 1] {
            while nextColor < colors.count, colors[nextColor].range.start <= position {
                open.push(nextColor)
                nextColor += 1
            }
            // Colours that ended are dropped when they reach the top; below it they show nothing.
            while let top = open.top, colors[top].range.end <= position { open.pop() }
            guard let top = open.top else { continue }
            let end = edges[index + 1]
            if let last = pieces.last, last.range.end == position, last.kind == colors[top].kind {
                pieces[pieces.count - 1].range.end = end
            } else {
                pieces.append(Markup(colors[top].kind, start: position, end: end))
            }
        }
        var result = markups.filter { !$0.kind.isColor }
        result.append(contentsOf: pieces)
        MarkupOrder.sort(&result)
        return result
    }
}

/// A binary max-heap of small integers (positions in canonical order).
private struct MaxHeap {
    private var items: [Int] = []

    var top: Int? { items.first }

    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent] < items[child] else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < items.count, items[left] > items[largest] { largest = left }
            if right < items.count, items[right] > items[largest] { largest = right }
            if largest == parent { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}

private extension MarkupKind {
    var isColor: Bool {
        if case .color = self { true } else { false }
    }
}
