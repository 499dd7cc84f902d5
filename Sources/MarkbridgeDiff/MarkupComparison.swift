import MarkbridgeIR

/// The markups of two counterpart blocks paired up: first those of the same kind over the same
/// text (an old markup's range carried into the new text by the text comparison), then those of
/// the same kind that overlap there (a markup that grew, shrank, or whose words were edited).
/// Paired markups that differ in an attribute (a link's `href`, a color) are changes; the rest
/// are removed or added.
package enum MarkupComparison {
    static func changes(old: [Markup], in oldText: String, new: [Markup], in newText: String, text: TextComparison) -> [MarkupChange] {
        let mapped = old.map { text.map($0.range) }
        var unpairedNew = Set(new.indices)
        var pairs: [(Int, Int)] = []
        var unpairedOld: [Int] = []

        var exact: [Position: [Int]] = [:]
        for (index, markup) in new.enumerated() { exact[Position(tag: markup.kind.tag, range: markup.range), default: []].append(index) }
        for (index, markup) in old.enumerated() {
            let position = Position(tag: markup.kind.tag, range: mapped[index])
            if var candidates = exact[position], !candidates.isEmpty {
                let match = candidates.firstIndex { new[$0].kind == markup.kind } ?? 0
                let newIndex = candidates.remove(at: match)
                exact[position] = candidates
                unpairedNew.remove(newIndex)
                pairs.append((index, newIndex))
            } else {
                unpairedOld.append(index)
            }
        }

        var changes: [MarkupChange] = []
        var stillOld: [Int] = []
        // The unpaired new markups of each kind by where they start; an old markup looks at the
        // few around where its mapped range starts, so a block of many markups stays linear.
        var byTag: [MarkupKind.Tag: [Int]] = [:]
        // Sorted wholly (start, then end, then place), so that equal starts come out the same in every run.
        let ordered = unpairedNew.sorted { (new[$0].range.start, new[$0].range.end, $0) < (new[$1].range.start, new[$1].range.end, $1) }
        for index in ordered { byTag[new[index].kind.tag, default: []].append(index) }
        for index in unpairedOld {
            let candidates = byTag[old[index].kind.tag] ?? []
            let target = mapped[index]
            var low = 0, high = candidates.count
            while low < high {
                let middle = (low + high) / 2
                if new[candidates[middle]].range.start < target.start { low = middle + 1 } else { high = middle }
            }
            let window = max(0, low - neighbourhood)..<min(candidates.count, low + neighbourhood)
            // The same markup (equal attributes) before another of its type, then the one that
            // overlaps most: a red run that shrank is the red one, not a blue neighbour.
            let overlapping = candidates[window].filter { unpairedNew.contains($0) && overlaps(target, new[$0].range) }
                .max { a, b in
                    let rank = { (new[$0].kind == old[index].kind ? 1 : 0, overlap(target, new[$0].range), -$0) }
                    return rank(a) < rank(b)
                }
            guard let newIndex = overlapping else {
                stillOld.append(index)
                continue
            }
            unpairedNew.remove(newIndex)
            pairs.append((index, newIndex))
            if text.map(old[index].range) != new[newIndex].range {
                changes.append(MarkupChange(
                    kind: .changed, name: new[newIndex].kind.name, oldRange: old[index].range, newRange: new[newIndex].range,
                    text: TextComparison.slice(newText, new[newIndex].range), attribute: MarkupAttribute.range.rawValue,
                    oldValue: TextComparison.slice(oldText, old[index].range), newValue: TextComparison.slice(newText, new[newIndex].range)))
            }
        }

        for (oldIndex, newIndex) in pairs.sorted(by: { $0.1 < $1.1 }) {
            let oldValues = attributes(old[oldIndex].kind), newValues = attributes(new[newIndex].kind)
            for (name, oldValue) in oldValues {
                let newValue = newValues.first { $0.name == name }?.value ?? ""
                guard oldValue != newValue else { continue }
                changes.append(MarkupChange(
                    kind: .changed, name: new[newIndex].kind.name, oldRange: old[oldIndex].range, newRange: new[newIndex].range,
                    text: TextComparison.slice(newText, new[newIndex].range), attribute: name, oldValue: oldValue, newValue: newValue))
            }
        }
        for index in stillOld {
            changes.append(MarkupChange(
                kind: .removed, name: old[index].kind.name, oldRange: old[index].range, newRange: nil,
                text: TextComparison.slice(oldText, old[index].range)))
        }
        for index in unpairedNew.sorted(by: { (new[$0].range.start, $0) < (new[$1].range.start, $1) }) {
            changes.append(MarkupChange(
                kind: .added, name: new[index].kind.name, oldRange: nil, newRange: new[index].range,
                text: TextComparison.slice(newText, new[index].range)))
        }
        // By place, stably: the order built above breaks ties the same way in every run.
        return changes.enumerated().sorted { a, b in
            let start = { (change: MarkupChange) in (change.newRange ?? change.oldRange ?? TextRange(start: 0, end: 0)).start }
            return (start(a.element), a.offset) < (start(b.element), b.offset)
        }.map(\.element)
    }

    /// How many markups of a kind, either side of where an old one lands, may be its counterpart.
    private static let neighbourhood = 8

    private struct Position: Hashable {
        var tag: MarkupKind.Tag
        var range: TextRange
    }

    private static func overlap(_ a: TextRange, _ b: TextRange) -> Int {
        max(0, min(a.end, b.end) - max(a.start, b.start))
    }

    private static func overlaps(_ a: TextRange, _ b: TextRange) -> Bool {
        a.start < b.end && b.start < a.end || (a.isEmpty && b.isEmpty && a.start == b.start)
    }

    /// A markup's attributes, named as markup JSON names them; every kind has the same names
    /// each time, so a pair compares name by name.
    package static func attributes(_ kind: MarkupKind) -> [(name: String, value: String)] {
        let values: [(MarkupAttribute, String)] = switch kind {
        case .link(let target): [(.href, target.href), (.title, target.title ?? "")]
        case .color(let color), .background(let color): [(.color, color.hex)]
        case .image(let image):
            [(.src, image.src), (.alt, image.alt ?? ""), (.title, image.title ?? ""),
             (.width, image.width.map(String.init) ?? ""), (.height, image.height.map(String.init) ?? "")]
        case .hashtag(let tag): [(.tag, tag)]
        case .mention(let name): [(.name, name)]
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight: []
        }
        return values.map { ($0.0.rawValue, $0.1) }
    }
}
