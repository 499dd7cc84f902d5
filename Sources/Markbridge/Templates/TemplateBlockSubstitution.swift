/// One block's text with its placeholders replaced, and the map from the template's offsets
/// to the output's that carries its markups and table cells over.
///
/// Every offset outside a placeholder moves by what the placeholders before it added or took
/// away. An edge inside a placeholder (after its first unit, before its end) moves off the
/// value: a start to the value's end, an end to its start, so that a markup covers a value
/// exactly when it covers the whole placeholder.
struct TemplateBlockSubstitution {
    /// A placeholder's range in the template's text, and its value's range in the output.
    private struct Segment {
        var template: TextRange
        var output: TextRange
    }

    private(set) var output: [UInt16] = []
    private var segments: [Segment] = []

    /// Builds the output: the template's text between placeholders, the values in their place.
    mutating func substitute(_ placeholders: [TemplatePlaceholder], in units: [UInt16],
                             with arguments: inout TemplateArguments) throws(ConversionError) {
        output.reserveCapacity(units.count)
        segments.reserveCapacity(placeholders.count)
        var copied = 0
        for placeholder in placeholders {
            output.append(contentsOf: units[copied..<placeholder.range.start])
            let start = output.count
            output.append(contentsOf: try arguments.text(for: placeholder).utf16)
            segments.append(Segment(template: placeholder.range, output: TextRange(start: start, end: output.count)))
            copied = placeholder.range.end
        }
        output.append(contentsOf: units[copied...])
    }

    /// Puts the output in `block`, its markups and cells moved with it, and returns a warning
    /// for each markup edge that fell inside a placeholder.
    func apply(to block: inout Block, placeholders: [TemplatePlaceholder]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for index in block.markups.indices {
            let markup = block.markups[index]
            let start = map(markup.range.start, isStart: true), end = map(markup.range.end, isStart: false)
            for split in Set([start.splits, end.splits].compactMap({ $0 })).sorted() {
                let placeholder = placeholders[split]
                diagnostics.append(.warning("placeholder-split",
                                            "\(markup.kind.name) over part of '\(placeholder.spelling)' (\(placeholder.place)) leaves its value out",
                                            block: placeholder.block))
            }
            block.markups[index].range = TextRange(start: start.offset, end: max(start.offset, end.offset))
        }
        if case .tableRow(var row) = block.kind {
            // A placeholder never straddles a cell's edge (no placeholder holds a space), so
            // each cell just moves.
            for index in row.cells.indices {
                let range = row.cells[index].range
                row.cells[index].range = TextRange(start: map(range.start, isStart: true).offset, end: map(range.end, isStart: false).offset)
            }
            block.kind = .tableRow(row)
        }
        block.text = String(decoding: output, as: UTF16.self)
        // Moved edges may leave a markup empty or touching its like; a value's whitespace at an
        // edge stays under the markup.
        block.canonicalize(trimmingEdges: false)
        return diagnostics
    }

    /// Where the template's `offset` lands in the output, and the index of the placeholder it
    /// was inside, if it was. A binary search over the placeholders.
    private func map(_ offset: Int, isStart: Bool) -> (offset: Int, splits: Int?) {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].template.end <= offset { low = middle + 1 } else { high = middle }
        }
        // segments[low] is the first placeholder ending after `offset`.
        if low < segments.count, segments[low].template.start < offset {
            return (isStart ? segments[low].output.end : segments[low].output.start, low)
        }
        guard low > 0 else { return (offset, nil) }
        let before = segments[low - 1]
        return (offset - before.template.end + before.output.end, nil)
    }
}
