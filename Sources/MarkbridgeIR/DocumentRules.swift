@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The rules a document is held to, written once, at two levels of one walk.
///
/// `writable` is what every writer needs to write a document as something our readers read
/// back, checked before each write of a document no reader returned unchanged
/// (``Document/checkWritable()``): block attributes the formats
/// carry, ranges inside their text on scalar boundaries, images over U+FFFC, links apart, items
/// to be in and groups that begin where they should. `canonical` is what a reader's document
/// promises besides (``Document/invariantViolations()``): markups in canonical order and merged,
/// container starts and anchors as canonical form writes them, task state only on list items,
/// markups within their table cells, a table's first row starting it. Every kind is named in one
/// switch, so a new kind stops the build here until its rules are written.
package enum DocumentRules: Sendable {
    case writable
    case canonical
}

extension Document {
    /// Every violation of `rules`, block by block; with `firstOnly`, the first alone.
    package func violations(of rules: DocumentRules, firstOnly: Bool = false) -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        var items = ItemDepthWalk()
        var containers = ContainerWalk()
        for index in blocks.indices {
            blocks[index].violations(of: rules, at: index, in: blocks, items: &items, containers: &containers, into: &found)
            if firstOnly && !found.isEmpty { return [found[0]] }
        }
        return found
    }

    /// Every way this document breaks the IR's invariants (``DocumentRules/canonical``): what a
    /// writer needs, and canonical form besides. Tests and the fuzzers call it after every read.
    public func invariantViolations() -> [InvariantViolation] {
        violations(of: .canonical)
    }

    /// Throws `invalid-document`, naming the block and markup, unless every writer can write
    /// this document as something our readers read back (``DocumentRules/writable``): what
    /// every writer checks first.
    ///
    /// A reader's document always passes. One built by hand may not: a heading of level 9 (JSON
    /// our reader refuses, `<h9>`, Markdown that is no heading), a markup past the end of its
    /// text or splitting a surrogate pair, an image not over U+FFFC, overlapping links, a depth
    /// or list number outside what the formats carry. Canonical order is not required: writers
    /// take markups in any order. One pass over each block's bytes, and a sort of its markups'
    /// edges only where the text has images or characters outside the Basic Multilingual Plane.
    package func checkWritable() throws(ConversionError) {
        // A reader's document, unchanged since: it keeps the rules already. Debug builds (the
        // tests) check it all the same, so that a reader that breaks them is caught there.
        if isKnownWritable {
            assert(violations(of: .writable, firstOnly: true).isEmpty, "a reader returned a document no writer can write")
            return
        }
        if let violation = violations(of: .writable, firstOnly: true).first {
            throw ConversionError(code: "invalid-document", message: "\(violation); no writer can write it as our readers read it")
        }
    }
}

extension Block {
    fileprivate func violations(of rules: DocumentRules, at index: Int, in blocks: [Block], items: inout ItemDepthWalk,
                                containers: inout ContainerWalk, into found: inout [InvariantViolation]) {
        func fail(_ reason: String, markup: Int? = nil) {
            found.append(InvariantViolation(blockIndex: index, markupIndex: markup, reason: reason))
        }
        let previous = index > 0 ? blocks[index - 1] : nil
        let next = index + 1 < blocks.count ? blocks[index + 1] : nil
        let canonical = rules == .canonical
        switch kind {
        case .heading(let level):
            if !(1...6).contains(level) { fail("heading level \(level) is not 1...6") }
        case .horizontalRule:
            if !text.isEmpty { fail("a horizontal rule has text") }
        case .blockquote:
            if quoteDepth < 1 { fail("a blockquote block has quoteDepth \(quoteDepth)") }
            if canonical && holdsOnlyAnImage { fail("a quote's paragraph holding only an image is not an IMG block") }
        case .paragraph:
            if canonical && quoteDepth > 0 { fail("a paragraph inside a quote is not a blockquote block") }
            if canonical && holdsOnlyAnImage { fail("a paragraph holding only an image is not an IMG block") }
        case .codeBlock(let language):
            if let language, !CodeLanguage.isValid(language) { fail("code block language \(language.debugDescription) is not one word") }
        case .orderedListItem(let number):
            if !ListNumber.range.contains(number) {
                fail("list number \(number) is outside \(ListNumber.range.lowerBound)...\(ListNumber.range.upperBound)")
            }
        case .embed(let embed):
            if embed.src.isEmpty { fail("an embed has no source") }
            if !Embed.isValidDimension(embed.width) || !Embed.isValidDimension(embed.height) {
                fail("an embed's width or height is outside 0...\(Embed.maxDimension)")
            }
        case .tableCaption:
            if !captions(next) { fail("a table caption is not followed by the first row of its table at its place") }
        case .definitionTerm(let continues), .definitionDescription(let continues):
            if continues && !continuesDefinition(after: previous) {
                fail("a term or definition that continues follows no \(kind.tag?.rawValue ?? "") at its place to continue")
            }
        case .tableRow(let row):
            if let violation = row.violation(in: text) {
                fail(violation)
            } else if canonical {
                if row.markupsWithinCells(markups) != nil { fail("a markup crosses a cell's edge") }
                if !row.startsTable && !continuesTable(after: previous) { fail("a first table row does not start a table") }
            }
        case .image(let image):
            // Its strings hold any value; its URL is the policy's.
            if !Embed.isValidDimension(image.width) || !Embed.isValidDimension(image.height) {
                fail("an image's width or height is outside 0...\(Embed.maxDimension)")
            }
        case .unorderedListItem:
            break
        }
        let depthsInRange = (0...IRLimits.maxDepth).contains(depth) && (0...IRLimits.maxDepth).contains(quoteDepth)
        if !(0...IRLimits.maxDepth).contains(depth) { fail("depth \(depth) is outside 0...\(IRLimits.maxDepth)") }
        let allowed = items.allowedDepth(for: self)
        if allowed < depth { fail("depth \(depth) has no list item at depth \(depth - 1) before it to be in (at most \(allowed))") }
        if !(0...IRLimits.maxDepth).contains(quoteDepth) { fail("quoteDepth \(quoteDepth) is outside 0...\(IRLimits.maxDepth)") }
        let quoteListDepthsBroken = quoteListDepthsViolation
        if let quoteListDepthsBroken { fail(quoteListDepthsBroken) }
        // Placement walks the block's containers, which only exist for depths in range.
        if canonical && depthsInRange && quoteListDepthsBroken == nil {
            canonicalPlacementViolations(containers: &containers, fail: fail)
        }
        markupViolations(canonical: canonical, fail: fail)
    }

    /// Container starts, anchors, task state and quote list depths as canonical form writes them.
    private func canonicalPlacementViolations(containers: inout ContainerWalk, fail: (String, Int?) -> Void) {
        let placement = containers.place(self)
        if let start = containerStart {
            if !(0..<placement.chainCount).contains(start) {
                fail("containerStart \(start) is outside the block's \(placement.chainCount) containers", nil)
            } else if placement.canonicalContainerStart != start {
                fail("containerStart \(start) is not canonical (\(placement.canonicalContainerStart.map(String.init) ?? "nil"): containers before \(placement.natural) go on, and an enclosing list item cannot begin at the block)", nil)
            }
        }
        if let anchor, Block.sanitizedAnchor(anchor) != anchor {
            fail("anchor \(anchor.debugDescription) holds what an anchor may not (whitespace, a control, a quote, <, >, ` or \\), or is empty or too long", nil)
        }
        if let taskState, !kind.isListItem {
            fail("a \(kind.tag?.rawValue ?? "block") that is no list item has task state \(taskState.rawValue)", nil)
        }
        if !quoteListDepths.isEmpty && !quoteListDepths.contains(where: { $0 != 0 }) {
            fail("quoteListDepths of all zeros is not written as empty", nil)
        }
    }

    /// Ranges inside the text and on scalar boundaries, images over U+FFFC, links apart; with
    /// `canonical`, canonical order and merging too.
    private func markupViolations(canonical: Bool, fail: (String, Int?) -> Void) {
        guard !markups.isEmpty else { return }
        let length = OffsetTranslator.utf16Count(of: text)
        var inRange = true
        var links: [(range: TextRange, markup: Int)] = []
        for (markupIndex, markup) in markups.enumerated() {
            guard markup.range.start >= 0, markup.range.start < markup.range.end, markup.range.end <= length else {
                fail("range \(markup.range) is empty or outside the text (\(length) UTF-16 units)", markupIndex)
                inRange = false
                continue
            }
            switch markup.kind {
            case .link: links.append((markup.range, markupIndex))
            case .image(let image) where !Embed.isValidDimension(image.width) || !Embed.isValidDimension(image.height):
                fail("an IMAGE's width or height is outside 0...\(Embed.maxDimension)", markupIndex)
            default: break
            }
        }
        // Edges and images are only looked at over ranges that are inside the text.
        guard inRange else { return }
        scalarBoundaryViolations(fail: fail)
        if canonical {
            for markupIndex in markups.indices.dropFirst() where !MarkupOrder.precedes(markups[markupIndex - 1], markups[markupIndex]) {
                let previous = markups[markupIndex - 1]
                fail("markup is not in canonical order after \(previous.kind.name) \(previous.range)", markupIndex)
            }
            // Edges on whitespace are allowed: markup JSON keeps ranges as given.
            if Block.canonicalMarkups(markups) != markups { fail("markups are not merged into canonical form", nil) }
        }
        links.sort { $0.range.start < $1.range.start }
        var linkEnd = 0
        for link in links {
            if link.range.start < linkEnd { fail("links overlap", link.markup) }
            linkEnd = max(linkEnd, link.range.end)
        }
    }

    /// Every edge on a scalar boundary, and every image over a U+FFFC: found by walking the
    /// bytes once, edges in order. Without images and astral scalars, every edge in range is
    /// on a boundary already.
    private func scalarBoundaryViolations(fail: (String, Int?) -> Void) {
        let hasImages = markups.contains { if case .image = $0.kind { true } else { false } }
        guard hasImages || OffsetTranslator.hasAstralScalars(text) else { return }
        var edges: [(offset: Int, markup: Int, isImageStart: Bool)] = []
        edges.reserveCapacity(markups.count * 2)
        for (markupIndex, markup) in markups.enumerated() {
            var isImage = false
            if case .image = markup.kind {
                guard markup.range.length == 1 else {
                    fail("an IMAGE markup must cover exactly one U+FFFC", markupIndex)
                    continue
                }
                isImage = true
            }
            edges.append((markup.range.start, markupIndex, isImage))
            edges.append((markup.range.end, markupIndex, false))
        }
        edges.sort { $0.offset < $1.offset }
        var failures: [(String, Int)] = []
        do {
            let bytes = text.utf8.span
            var walk = UTF16Walk()
            for edge in edges {
                guard let byte = walk.advance(to: edge.offset, in: bytes) else {
                    failures.append(("offset \(edge.offset) splits a surrogate pair", edge.markup))
                    continue
                }
                if edge.isImageStart, !(byte + 2 < bytes.count && bytes[byte] == 0xEF && bytes[byte + 1] == 0xBF && bytes[byte + 2] == 0xBC) {
                    failures.append(("an IMAGE markup must cover exactly one U+FFFC", edge.markup))
                }
            }
        }
        for (reason, markup) in failures { fail(reason, markup) }
    }
}
