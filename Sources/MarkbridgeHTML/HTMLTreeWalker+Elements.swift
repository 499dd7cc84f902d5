@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// Entering and leaving elements: the rules applied.
extension HTMLTreeWalker {
    /// Applies the element's rule on the way in; nil when its content is skipped.
    mutating func enter(_ node: HTMLNodeID) -> Exit? {
        guard tree.namespace(of: node) == .html else {
            let name = tree.name(of: node)
            // SVG and MathML: their text is kept, their structure is not modelled; their scripts
            // and style sheets are dropped like HTML ones.
            let lowered = name.asciiLowercased()
            if lowered == "script" || lowered == "style" {
                report.note("dropped-element", lowered, at: tree.sourceLocation(of: node)) { "<\(lowered)> dropped with its content (\($0)×)" }
                return nil
            }
            if let parent = tree.parent(of: node), tree.namespace(of: parent) == .html {
                report.note("unknown-element", name, at: tree.sourceLocation(of: node)) { "<\(name)> (foreign content) unwrapped, its text kept (\($0)×)" }
            }
            return Exit(node: node, rule: .transparent)
        }
        var rule = HTMLElementRules.rule(for: tree.tag(of: node))
        if rule == nil {
            // The name is for diagnostics only, so it is looked up only when one is raised.
            let name = tree.name(of: node)
            switch options.unknownElements {
            case .unwrap:
                report.note("unknown-element", name, at: tree.sourceLocation(of: node)) { "<\(name)> unwrapped, its text kept (\($0)×)" }
                rule = .transparent
            case .drop:
                report.note("unknown-element", name, at: tree.sourceLocation(of: node)) { "<\(name)> dropped with its content (\($0)×)" }
                return nil
            }
        }
        guard let rule else { return nil }
        if rule == .dropped {
            let name = tree.name(of: node)
            report.note("dropped-element", name, at: tree.sourceLocation(of: node)) { "<\(name)> dropped with its content (\($0)×)" }
            return nil
        }
        var exit = Exit(node: node, rule: rule, lineBreaksAtEntry: lineBreaks, blocksAtEntry: 0)
        let style = self.style(of: node, isImage: rule == .image)
        // Word's own bullet or number for a list paragraph: the item says it now.
        if style.isWordListMarker { return nil }
        if isBlockBoundary(rule) { enterBlock(rule, node: node, style: style, exit: &exit) }
        // A rule's id is its own block's, noted in the cases below once that block has begun.
        if rule != .horizontalRule { noteAnchor(rule, node: node) }
        switch rule {
        case .formatting(let tag):
            if !(tag == .code && preDepth > 0), let kind = MarkupKind(withoutPayload: tag) { openMarkup(&exit, kind) }
        case .link:
            if let href = tree.attribute("href", of: node), let target = checkedURL(href, for: .link, node: node) {
                openMarkup(&exit, .link(LinkTarget(href: target, title: tree.attribute("title", of: node))))
                exitExtras[extrasIndex(of: &exit)].link = (builder.textMark, target)
            }
        case .image:
            image(node, style: style)
        case .embed(let kind):
            switch embed(node, kind) {
            case .skipped: return nil
            case .fallbackAsText: exit.rule = .transparent
            case .started: break
            }
        case .lineBreak:
            lineBreaks += 1
            ensureBlock()
            builder.appendLineBreak()
        case .horizontalRule where embedDepth > 0:
            noteAnchor(rule, node: node)
            builder.appendCollapsibleSpace()
        case .horizontalRule where cellDepth > 0:
            noteAnchor(rule, node: node)
            builder.breakLineInCell()
        case .horizontalRule:
            // A rule that opens a list item follows the item's own (empty) block, as every
            // other block does: before it, the rule came first and the item after it.
            startPendingListItem()
            builder.startBlock(.horizontalRule, enclosedBy: &context)
            noteAnchor(rule, node: node)
            builder.endBlock(keepingIfEmpty: true)
        case .inlineQuote:
            ensureBlock()
            builder.append("\u{201C}")
        case .formControl:
            formControl(node)
        case .tableCell(let header):
            if cellDepth == 0 {
                ensureBlock()
                let alignment = style.alignment ?? Self.alignAttribute(node, in: tree) ?? alignments.last
                builder.startCell(isHeader: header, columnSpan: span("colspan", of: node, in: TableCell.columnSpanLimits),
                                  rowSpan: span("rowspan", of: node, in: TableCell.rowSpanLimits), alignment: alignment)
            } else if let index = cellIndex.last {
                // A table inside a cell: its cells are the cell's text, between separators.
                if index > 0 {
                    builder.appendCollapsibleSpace()
                    builder.append("|")
                    builder.appendCollapsibleSpace()
                }
                cellIndex[cellIndex.count - 1] = index + 1
                if header { openMarkup(&exit, .strong) }
            }
            cellDepth += 1
        default:
            break
        }
        switch tree.tag(of: node) {
        case .font: font(node, exit: &exit)
        case .big, .small:
            let name = tree.name(of: node)
            report.note("dropped-style", "<\(name)>", at: tree.sourceLocation(of: node)) { "<\(name)> (a text size) dropped, its text kept (\($0)×)" }
        case .span:
            noteTextDirection(node)
            if let entity = HTMLEntitySpan.markup(attribute: { tree.attribute($0, of: node) }) { openMarkup(&exit, entity) }
        case .bdo, .bdi:
            noteTextDirection(node)
        case .abbr:
            if let expansion = abbreviationExpansion(of: node) { exitExtras[extrasIndex(of: &exit)].abbreviation = (builder.textMark, expansion) }
        default:
            break
        }
        if !style.cancelsInherited.isEmpty || !style.cancelsOwn.isEmpty { cancelFormatting(style, exit: &exit) }
        // Most elements have no style: the empty array is not even iterated (that costs a retain).
        if !style.markups.isEmpty {
            for kind in style.markups {
                if case .color(let color) = kind { openColor(color, node: node, exit: &exit) } else { openMarkup(&exit, kind) }
            }
        }
        // `<pre>` in a table cell keeps its whitespace and line breaks in the cell's text, as code.
        let preInCell = rule == .preformatted && cellDepth > 0 && embedDepth == 0
        if preInCell { openMarkup(&exit, .code) }
        if let mode = preInCell ? .preserve : style.whitespace {
            whitespaceModes.append(mode)
            exit.pushedWhitespace = true
        }
        return exit
    }

    mutating func leave(_ exit: Exit) {
        let extras = exit.hasExtras ? exitExtras.removeLast() : nil
        if let link = extras?.link, builder.showsOnlyWhitespace(since: link.mark) { noteEmptyLink(to: link.href, at: exit.node) }
        // By index: a slice of the handles would be retained and released on every element.
        if exit.markupCount > 0 {
            for index in stride(from: openHandles.count - 1, through: openHandles.count - exit.markupCount, by: -1) {
                builder.closeMarkup(openHandles[index])
            }
            // One at a time: `removeLast(_:)` goes through the general `removeSubrange`, about
            // five times the cost of popping the one or two markups an element opens.
            for _ in 0..<exit.markupCount {
                openHandles.removeLast()
                openKinds.removeLast()
            }
        }
        if let suspended = extras?.suspended {
            for (index, kind) in suspended.reversed() { openHandles[index] = builder.openMarkup(kind) }
        }
        if let abbreviation = extras?.abbreviation { writeExpansion(abbreviation.expansion, since: abbreviation.mark, of: exit.node) }
        if exit.pushedWhitespace { whitespaceModes.removeLast() }
        guard let rule = exit.rule else { return }
        switch rule {
        case .inlineQuote:
            ensureBlock()
            builder.append("\u{201D}")
        case .tableCell:
            cellDepth -= 1
            if cellDepth == 0 { builder.endCell() }
        case .embed:
            embedDepth -= 1
            if embedDepth == 0 { builder.endBlock(keepingIfEmpty: true) }
        default:
            break
        }
        if isBlockBoundary(rule) { leaveBlock(rule, exit: exit, setAsideHeadings: extras?.setAsideHeadings) }
    }

    func isBlockBoundary(_ rule: HTMLElementRule) -> Bool {
        switch rule {
        case .container, .paragraph, .heading, .blockquote, .preformatted, .list, .listItem, .definition, .figure,
             .figureCaption, .table, .tableRow, .tableCaption:
            true
        default:
            false
        }
    }

    /// A cell's `colspan` or `rowspan`, within what HTML parses (0 rows, to the section's end, as 1).
    private func span(_ attribute: String, of node: HTMLNodeID, in limits: ClosedRange<Int>) -> Int {
        guard let literal = tree.attribute(attribute, of: node).flatMap(HTMLInteger.Literal.init) else { return 1 }
        return min(max(literal.value, limits.lowerBound), limits.upperBound)
    }
}
