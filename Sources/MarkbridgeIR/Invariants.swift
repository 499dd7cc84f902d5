/// A broken promise of the IR, with the block and markup it concerns.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    public var blockIndex: Int
    public var markupIndex: Int?
    public var reason: String

    public var description: String {
        let place = markupIndex.map { "block \(blockIndex), markup \($0)" } ?? "block \(blockIndex)"
        return "\(place): \(reason)"
    }
}

/// The limits the IR holds to. Readers reject input past them.
public enum IRLimits {
    /// Deepest list or quote nesting a block may carry; deeper input is flattened to it.
    public static let maxDepth = 100
    /// The largest input a reader reads unless told otherwise: 64 MiB, far above any stored
    /// article, the same whether a reader is used directly or through the converter
    /// (`ConversionLimits.service`).
    public static let defaultMaxInputBytes = 64 << 20
}

extension Document {
    /// Every way this document breaks the IR's invariants: ranges inside the text and not
    /// splitting a surrogate pair, canonical order with nothing left to merge, images over U+FFFC,
    /// no overlapping links, sane block attributes. Tests call it after every read.
    public func invariantViolations() -> [InvariantViolation] {
        var violations: [InvariantViolation] = []
        var walk = ContainerWalk()
        var items = ItemDepthWalk()
        for (blockIndex, block) in blocks.enumerated() {
            func fail(_ reason: String, markup: Int? = nil) {
                violations.append(InvariantViolation(blockIndex: blockIndex, markupIndex: markup, reason: reason))
            }
            // Every kind named: a new one breaks the build here until its rules are written.
            switch block.kind {
            case .heading(let level):
                if !(1...6).contains(level) { fail("heading level \(level) is not 1...6") }
            case .horizontalRule:
                if !block.text.isEmpty { fail("a horizontal rule has text") }
            case .blockquote:
                if block.quoteDepth < 1 { fail("a blockquote block has quoteDepth \(block.quoteDepth)") }
            case .paragraph:
                if block.quoteDepth > 0 { fail("a paragraph inside a quote is not a blockquote block") }
            case .codeBlock(let language):
                if let language, !CodeLanguage.isValid(language) { fail("code block language \(language.debugDescription) is not one word") }
            case .orderedListItem(let number):
                if !ListNumber.range.contains(number) { fail("ordered list number \(number) is outside \(ListNumber.range)") }
            case .tableCaption:
                if !block.captions(blockIndex + 1 < blocks.count ? blocks[blockIndex + 1] : nil) {
                    fail("a table caption is not followed by the first row of its table at its place")
                }
            case .definitionTerm(let continues), .definitionDescription(let continues):
                if continues && !block.continuesDefinition(after: blockIndex > 0 ? blocks[blockIndex - 1] : nil) {
                    fail("a term or definition that continues follows no \(block.kind.tag?.rawValue ?? "") at its place to continue")
                }
            case .tableRow(let row):
                if let violation = row.violation(in: block.text) { fail(violation) }
                if row.markupsWithinCells(block.markups) != nil { fail("a markup crosses a cell's edge") }
                let continues = block.continuesTable(after: blockIndex > 0 ? blocks[blockIndex - 1] : nil)
                if !continues && !row.startsTable { fail("a first table row does not start a table") }
            case .unorderedListItem, .image, .embed:
                // Their fields hold any value; an image's and an embed's URLs are the policy's.
                break
            }
            if !(0...IRLimits.maxDepth).contains(block.depth) { fail("depth \(block.depth) is out of range") }
            let allowed = items.allowedDepth(for: block)
            if allowed < block.depth { fail("depth \(block.depth) has no list item at depth \(block.depth - 1) before it to be in (at most \(allowed))") }
            if !(0...IRLimits.maxDepth).contains(block.quoteDepth) {
                fail("quoteDepth \(block.quoteDepth) is out of range")
            }
            if let violation = block.quoteListDepthsViolation { fail(violation) }
            let placement = walk.place(block)
            if let start = block.containerStart {
                if !(0..<placement.chainCount).contains(start) {
                    fail("containerStart \(start) is outside the block's \(placement.chainCount) containers")
                } else if placement.canonicalContainerStart != start {
                    fail("containerStart \(start) is not canonical (\(placement.canonicalContainerStart.map(String.init) ?? "nil"): containers before \(placement.natural) go on, and an enclosing list item cannot begin at the block)")
                }
            }
            if let anchor = block.anchor, Block.sanitizedAnchor(anchor) != anchor {
                fail("anchor \(anchor.debugDescription) holds what an anchor may not (whitespace, a control, a quote, <, >, ` or \\), or is empty or too long")
            }
            if let task = block.taskState, !block.kind.isListItem {
                fail("a \(block.kind.tag?.rawValue ?? "block") that is no list item has task state \(task.rawValue)")
            }
            if !block.quoteListDepths.isEmpty && !block.quoteListDepths.contains(where: { $0 != 0 }) {
                fail("quoteListDepths of all zeros is not written as empty")
            }
            let units = Array(block.text.utf16)
            for (markupIndex, markup) in block.markups.enumerated() {
                let range = markup.range
                guard range.start >= 0, range.end <= units.count, range.start < range.end else {
                    fail("range \(range) is empty or outside the text (\(units.count) UTF-16 units)", markup: markupIndex)
                    continue
                }
                for boundary in [range.start, range.end] where boundary > 0 && boundary < units.count {
                    if UTF16.isLeadSurrogate(units[boundary - 1]) && UTF16.isTrailSurrogate(units[boundary]) {
                        fail("offset \(boundary) splits a surrogate pair", markup: markupIndex)
                    }
                }
                if case .image = markup.kind, range.length != 1 || units[range.start] != 0xFFFC {
                    fail("an IMAGE markup must cover exactly one U+FFFC", markup: markupIndex)
                }
                if markupIndex > 0 {
                    let previous = block.markups[markupIndex - 1]
                    if !MarkupOrder.precedes(previous, markup) {
                        fail("markup is not in canonical order after \(previous.kind.name) \(previous.range)", markup: markupIndex)
                    }
                }
            }
            // Edges on whitespace are allowed: markup JSON keeps ranges as given.
            if Block.canonicalMarkups(block.markups) != block.markups {
                fail("markups are not merged into canonical form")
            }
            var linkEnd = 0
            for (markupIndex, markup) in block.markups.enumerated() {
                guard case .link = markup.kind else { continue }
                if markup.range.start < linkEnd { fail("links overlap", markup: markupIndex) }
                linkEnd = max(linkEnd, markup.range.end)
            }
        }
        return violations
    }
}
