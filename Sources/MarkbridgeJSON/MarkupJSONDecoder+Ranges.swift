@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Validation once the offset unit is known: ranges resolved to UTF-16 and checked against
/// their text, links kept from overlapping, image ranges over U+FFFC, URLs through the policy.
extension MarkupJSONDecoder {
    mutating func resolve(_ entry: PendingBlock, unit: OffsetUnit, pointer: JSONPointer) throws(Failure) -> Block {
        var block = entry.block
        let text = block.text
        let length = OffsetTranslator.length(of: text, in: unit)
        let translator = unit == .utf16 ? nil : OffsetTranslator(
            text: text, offsets: entry.markups.flatMap { [$0.start, $0.end] } + entry.cells.flatMap { [$0.start, $0.end] }, from: unit, to: .utf16)
        // Only astral scalars (4-byte UTF-8) become surrogate pairs, so only their presence needs
        // the UTF-16 view that split checks index into.
        let units = unit == .utf16 && !entry.markups.isEmpty && OffsetTranslator.hasAstralScalars(text) ? Array(text.utf16) : []
        var markups: [Markup] = []
        var linkIndices: [(index: Int, range: TextRange)] = []
        markups.reserveCapacity(entry.markups.count)
        for (index, raw) in entry.markups.enumerated() {
            let markupPointer = pointer.markup(index)
            guard raw.end >= raw.start else {
                throw Failure(code: "end-before-start", message: "end \(raw.end) is before start \(raw.start)",
                              offset: raw.endOffset, pointer: markupPointer.appending(key: "end"))
            }
            func check(_ field: String, _ value: Int, _ offset: Int) throws(Failure) {
                if value > length {
                    throw Failure(code: "offset-out-of-range",
                                  message: "\(field) \(value) is past the end of the text (\(length) \(Self.unitName(unit)))",
                                  offset: offset, pointer: markupPointer.appending(key: field))
                }
                let splits = if let translator { translator[value] == nil } else {
                    value > 0 && value < units.count && UTF16.isLeadSurrogate(units[value - 1]) && UTF16.isTrailSurrogate(units[value])
                }
                if splits {
                    throw Failure(code: "offset-splits-character",
                                  message: "\(field) \(value) splits \(unit == .utf8 ? "a UTF-8 sequence" : "a surrogate pair")",
                                  offset: offset, pointer: markupPointer.appending(key: field))
                }
            }
            try check("start", raw.start, raw.startOffset)
            try check("end", raw.end, raw.endOffset)
            let range = TextRange(start: translator?[raw.start] ?? raw.start, end: translator?[raw.end] ?? raw.end)
            if range.isEmpty {
                diagnostics.append(.warning("empty-markup", "empty \(raw.kind.name) markup at \(raw.start) dropped",
                    at: location(raw.offset, markupPointer)))
                continue
            }
            if case .image = raw.kind, !Self.coversObjectReplacement(text, range) {
                throw Failure(code: "invalid-image-range", message: "an IMAGE markup must cover exactly one U+FFFC",
                              offset: raw.offset, pointer: markupPointer)
            }
            var kind = raw.kind
            if let url = kind.url {
                switch options.urlPolicy.check(url.value, for: url.use) {
                case .rejected(let reason):
                    diagnostics.append(.warning("unsafe-url", "\(raw.kind.name) markup dropped, text kept: \(reason)",
                        at: location(raw.offset, markupPointer)))
                    continue
                // Only an embed's source is ever link-only.
                case .allowed(let cleaned), .linkOnly(let cleaned, _):
                    // The spelling the policy checked and every browser uses (edge spaces and
                    // tabs and line breaks gone), as the HTML and Markdown readers keep it: the
                    // same URL, which an HTML writer's output reads back as.
                    if cleaned != url.value { kind = kind.withURL(cleaned) }
                }
                if let warning = URLPolicy.bidiWarning(url.value, "\(raw.kind.name) markup") {
                    diagnostics.append(.warning("bidi-in-url", warning, at: location(raw.offset, markupPointer)))
                }
            }
            if case .link = kind { linkIndices.append((index, range)) }
            markups.append(Markup(kind, range))
        }
        try checkLinksDoNotOverlap(linkIndices, entry: entry, pointer: pointer)
        if case .tableRow(var row) = block.kind {
            row.cells = try resolveCells(entry.cells, at: entry.cellsOffset, text: text, length: length, unit: unit, translator: translator, pointer: pointer)
            block.kind = .tableRow(row)
            if let within = row.markupsWithinCells(markups) {
                diagnostics.append(.warning("markup-split-at-cells",
                    "a markup crosses the edge of a table cell: cut at each cell's edges, its part over the ' | ' between cells dropped",
                    at: location(entry.markups.first?.offset ?? 0, pointer.appending(key: "markups"))))
                markups = within
            }
        }
        block.markups = markups
        let colorsOverlap = Block.colorsOverlap(markups)
        // Ranges are kept as given; only touching or overlapping equal markups become one, and
        // overlapping colours are cut to the one that shows.
        block.canonicalize(trimmingEdges: false)
        let keptCount = colorsOverlap ? Block.mergedMarkupCount(markups) : block.markups.count
        if colorsOverlap {
            diagnostics.append(Diagnostic(.note, code: "colors-resolved",
                message: "COLOR markups overlap: over the text they share only the innermost is kept (the later start, then the shorter), the colour a page shows",
                at: location(entry.markups.first?.offset ?? 0, pointer.appending(key: "markups"))))
        }
        if keptCount != markups.count {
            diagnostics.append(Diagnostic(.note, code: "markups-merged",
                message: "\(markups.count - keptCount) touching or overlapping markup\(markups.count - keptCount == 1 ? "" : "s") of the same type and attributes merged into the one before",
                at: location(entry.markups.first?.offset ?? 0, pointer.appending(key: "markups"))))
        }
        return block
    }

    /// A row's cells with their offsets in UTF-16, checked to tile the row's text.
    private mutating func resolveCells(
        _ cells: [PendingCell], at offset: Int, text: String, length: Int, unit: OffsetUnit, translator: OffsetTranslator?, pointer: JSONPointer
    ) throws(Failure) -> [TableCell] {
        var resolved: [TableCell] = []
        for (index, raw) in cells.enumerated() {
            let cellPointer = pointer.cell(index)
            for (field, value) in [("start", raw.start), ("end", raw.end)] {
                guard value <= length else {
                    throw Failure(code: "offset-out-of-range", message: "\(field) \(value) is past the end of the text (\(length) \(Self.unitName(unit)))",
                                  offset: raw.offset, pointer: cellPointer.appending(key: field))
                }
                if let translator, translator[value] == nil {
                    throw Failure(code: "offset-splits-character", message: "\(field) \(value) splits \(unit == .utf8 ? "a UTF-8 sequence" : "a surrogate pair")",
                                  offset: raw.offset, pointer: cellPointer.appending(key: field))
                }
            }
            guard raw.end >= raw.start else {
                throw Failure(code: "end-before-start", message: "end \(raw.end) is before start \(raw.start)",
                              offset: raw.offset, pointer: cellPointer.appending(key: "end"))
            }
            var cell = raw.cell
            cell.range = TextRange(start: translator?[raw.start] ?? raw.start, end: translator?[raw.end] ?? raw.end)
            resolved.append(cell)
        }
        if let violation = TableRow(cells: resolved).violation(in: text) {
            throw Failure(code: "invalid-table-row", message: "\(violation): a row's cells cover its text in order, joined by \"\(TableRow.separator)\"",
                          offset: offset, pointer: pointer.appending(key: "cells"))
        }
        return resolved
    }

    /// Two links over the same text have no meaning in any output format, so they are refused;
    /// the error points at the later of the two in the input.
    private func checkLinksDoNotOverlap(
        _ links: [(index: Int, range: TextRange)], entry: PendingBlock, pointer: JSONPointer
    ) throws(Failure) {
        guard links.count > 1 else { return }
        let sorted = links.sorted { $0.range.start < $1.range.start }
        var furthest = sorted[0]
        for link in sorted.dropFirst() {
            if link.range.start < furthest.range.end {
                let later = max(link.index, furthest.index)
                let (laterRange, otherRange) = later == link.index ? (link.range, furthest.range) : (furthest.range, link.range)
                throw Failure(code: "overlapping-links",
                              message: "LINK \(laterRange) overlaps LINK \(otherRange)",
                              offset: entry.markups[later].offset, pointer: pointer.markup(later))
            }
            if link.range.end > furthest.range.end { furthest = link }
        }
    }

    private static func coversObjectReplacement(_ text: String, _ range: TextRange) -> Bool {
        guard range.length == 1, let start = OffsetTranslator.utf8Offset(ofUTF16: range.start, in: text) else { return false }
        return ObjectReplacement.begins(at: start, in: text.utf8.span)
    }

    mutating func checkedImageSource(_ src: String, pointer: JSONPointer, offset: Int) -> String {
        switch options.urlPolicy.check(src, for: .image) {
        // Only an embed's source is ever link-only.
        case .allowed(let cleaned), .linkOnly(let cleaned, _): return cleaned
        case .rejected(let reason):
            diagnostics.append(.warning("unsafe-url", "image source dropped: \(reason)", at: location(offset, pointer)))
            return ""
        }
    }

    private static func unitName(_ unit: OffsetUnit) -> String {
        switch unit {
        case .utf16: "UTF-16 code units"
        case .scalar: "Unicode scalars"
        case .utf8: "UTF-8 bytes"
        }
    }
}
