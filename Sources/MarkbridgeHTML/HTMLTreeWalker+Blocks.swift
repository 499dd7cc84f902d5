import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// Block elements entered and left: where blocks begin and end, inside cells, headings,
/// definitions and embeds as well as in the flow.
extension HTMLTreeWalker {
    mutating func enterBlock(_ rule: HTMLElementRule, node: HTMLNodeID, style: CSSStyle, exit: inout Exit) {
        // Inside an embed's fallback, blocks are flattened into its text; inside a table
        // cell, into lines of the cell's.
        if embedDepth > 0 {
            builder.appendCollapsibleSpace()
            return
        }
        if cellDepth > 0 {
            enterBlockInCell(rule, node: node)
            return
        }
        if !headingLevels.isEmpty, setAsideHeading(for: rule, node: node, exit: &exit) { return }
        if captionDepth > 0, rule == .paragraph || rule == .container {
            // A caption holds text only: a paragraph in it is a line of it, as in a heading.
            builder.breakLine()
            exit.isLineOfBlock = true
            return
        }
        if !definitionKinds.isEmpty { noteStructureInDefinition(rule, node: node) }
        if let level = style.wordListLevel, rule == .paragraph {
            breakBlock()
            enterWordListItem(level: level, node: node)
            exit.isWordListItem = true
        } else if !wordLists.isEmpty {
            closeWordLists()
        }
        switch rule {
        case .paragraph, .figureCaption, .container, .figure:
            if tree.tag(of: node) == .dl { context.enterDefinitionList() }
            if tree.tag(of: node) == .details {
                report.note("details-flattened", "details", at: tree.sourceLocation(of: node)) {
                    "<details> shown open: its summary a paragraph, its content after it (\($0)×)"
                }
            }
            breakBlock()
        case .definition:
            // Its text, and each block inside it (a second paragraph of a definition), is a
            // block of its kind.
            startPendingListItem()
            breakBlock()
            let kind: BlockKind = tree.tag(of: node) == .dt ? .definitionTerm(continues: false) : .definitionDescription(continues: false)
            definitionKinds.append((kind, context.blockDepth, context.quoteDepth, builder.finishedBlockCount))
        case .heading(let level):
            startPendingListItem()
            breakBlock()
            headingLevels.append(level)
            exit.blocksAtEntry = builder.finishedBlockCount
        case .blockquote:
            startPendingListItem()
            breakBlock()
            context.enterQuote()
            noteDepthLimit(node)
        case .preformatted:
            startPendingListItem()
            breakBlock()
            if preDepth == 0 { preLanguage = Self.codeLanguage(of: node, in: tree) }
            preDepth += 1
            exit.blocksAtEntry = builder.finishedBlockCount
        case .list(let ordered):
            startPendingListItem()
            breakBlock()
            let start = tree.attribute("start", of: node).flatMap(HTMLInteger.Literal.init)
            builder.addItemForNestedList(in: &context)
            if context.enterList(ordered: ordered, start: start?.value ?? 1) != nil, let start {
                noteClampedListNumber(start.text, node)
            }
            noteDepthLimit(node)
        case .listItem:
            breakBlock()
            let value = tree.attribute("value", of: node).flatMap(HTMLInteger.Literal.init)
            if let clamped = context.enterItem(value: value?.value) {
                // The number the attribute gave, or the one after the previous item.
                noteClampedListNumber(value?.text ?? "\(clamped)", node)
            }
        case .table:
            startPendingListItem()
            breakBlock()
            tableDepth += 1
            rowStartsTable = true
        case .tableRow:
            breakBlock()
            builder.startBlock(.tableRow(TableRow(cells: [], startsTable: rowStartsTable)), enclosedBy: &context)
            rowStartsTable = false
        case .tableCaption:
            // Its text is the caption block of the table, whose first row comes after it.
            breakBlock()
            captionDepth += 1
            if firstCaption == nil { firstCaption = node }
        default:
            break
        }
        noteTextDirection(node)
        // A table's own `align` places the table, not its text; `<center>` centres its content.
        let centered: TextAlignment? = tree.tag(of: node) == .center ? .center : nil
        if let alignment = style.alignment ?? (rule == .table ? nil : Self.alignAttribute(node, in: tree)) ?? centered {
            alignments.append(alignment)
            exit.pushedAlignment = true
        }
    }

    /// A block element inside a heading. A heading holds only text: a paragraph or a `<div>`
    /// in it is a line of its text (returns true: nothing more to enter), as a browser shows
    /// it; a list, quote, table, code block or definition list is read as it would be outside
    /// the heading, the heading's text before and after it as headings of their own (a
    /// `heading-split`, said when the heading ends).
    private mutating func setAsideHeading(for rule: HTMLElementRule, node: HTMLNodeID, exit: inout Exit) -> Bool {
        switch rule {
        case .paragraph, .container, .figureCaption, .tableCaption:
            // `<dl>` is a container too, but its terms and definitions are blocks.
            guard tree.tag(of: node) != .dl else { fallthrough }
            builder.breakLine()
            exit.isLineOfBlock = true
            return true
        case .list, .blockquote, .preformatted, .table, .definition, .figure:
            breakBlock()
            exitExtras[extrasIndex(of: &exit)].setAsideHeadings = headingLevels
            headingLevels.removeAll()
            return false
        case .heading, .listItem, .tableRow, .tableCell, .tablePart, .horizontalRule, .lineBreak, .image, .embed, .formatting, .link,
             .inlineQuote, .transparent, .dropped, .formControl:
            return false
        }
    }

    /// A list, quote, table or code block inside a term or definition: the IR holds only
    /// paragraphs in one (see ``BlockKind/definitionTerm(continues:)``), so it is a block of its
    /// own where it stands, which ends the definition list there (what follows in the element
    /// begins another). Said, counted.
    private mutating func noteStructureInDefinition(_ rule: HTMLElementRule, node: HTMLNodeID) {
        switch rule {
        case .list, .blockquote, .preformatted, .table, .heading, .figure:
            let name = tree.name(of: node)
            report.note("definition-list-split", name, at: tree.sourceLocation(of: node)) {
                "<\(name)> inside a term or definition read as a block of its own after it, which ends the definition list there (\($0)×)"
            }
        case .container, .paragraph, .listItem, .definition, .horizontalRule, .lineBreak, .image, .embed, .figureCaption, .tableRow,
             .tableCell, .tablePart, .tableCaption, .formatting, .link, .inlineQuote, .transparent, .dropped, .formControl:
            break
        }
    }

    /// A heading that held a structure (see `setAsideHeading`) is several blocks now.
    private mutating func noteHeadingSplit(_ exit: Exit) {
        let name = tree.name(of: exit.node)
        let count = builder.finishedBlockCount - exit.blocksAtEntry
        report.note("heading-split", name, at: tree.sourceLocation(of: exit.node)) {
            "<\(name)> holding blocks (a list, quote, table, code block or rule) read as \(count) blocks (the first such heading): its text before and after as headings, what it held as it would be outside a heading (\($0)×)"
        }
    }

    /// A block element inside a table cell, where the IR has only text: each block a line of
    /// the cell's text. Structure that a line cannot show (a list's items, a quote, a heading, a
    /// table in the table) is reported, counted.
    private mutating func enterBlockInCell(_ rule: HTMLElementRule, node: HTMLNodeID) {
        builder.breakLineInCell()
        switch rule {
        case .table:
            tableDepth += 1
            report.note("table-cell-flattened", "table", at: tree.sourceLocation(of: node)) {
                "a table inside a table cell written as lines of the cell's text, its cells separated by ' | ' (\($0)×)"
            }
        case .tableRow:
            cellIndex.append(0)
        case .list, .blockquote, .heading, .preformatted, .figure, .definition:
            let name = tree.name(of: node)
            report.note("table-cell-flattened", name, at: tree.sourceLocation(of: node)) {
                "<\(name)> inside a table cell written as lines of the cell's text (\($0)×)"
            }
        case .listItem, .container, .paragraph, .figureCaption, .tableCaption, .tablePart, .horizontalRule, .lineBreak, .image, .embed,
             .tableCell, .formatting, .link, .inlineQuote, .transparent, .dropped, .formControl:
            break
        }
    }

    mutating func leaveBlock(_ rule: HTMLElementRule, exit: Exit, setAsideHeadings: [Int]?) {
        if embedDepth > 0 {
            builder.appendCollapsibleSpace()
            return
        }
        if !wordLists.isEmpty && !exit.isWordListItem { closeWordLists() }
        if cellDepth > 0 {
            switch rule {
            case .table: tableDepth -= 1
            case .tableRow: cellIndex.removeLast()
            default: break
            }
            builder.breakLineInCell()
            if exit.pushedAlignment { alignments.removeLast() }
            return
        }
        let hadLineBreak = lineBreaks > exit.lineBreaksAtEntry
        // The heading around a structure inside it goes on after it, also when the structure
        // was then read as a line of a caption (`<caption><h2><dl>`).
        defer { if let levels = setAsideHeadings { headingLevels = levels } }
        if exit.isLineOfBlock {
            builder.breakLine()
            return
        }
        switch rule {
        case .paragraph, .figureCaption:
            breakBlock(keepingIfEmpty: hadLineBreak)
            if rule == .figureCaption { attachCaption(exit.node) }
        case .definition:
            breakBlock(keepingIfEmpty: hadLineBreak)
            definitionKinds.removeLast()
        case .heading:
            // An empty heading is still a heading (`<h2></h2>`, as the HTML writer writes one).
            if headingLevels.count == 1 && !builder.isInBlock && builder.finishedBlockCount == exit.blocksAtEntry { ensureBlock() }
            breakBlock(keepingIfEmpty: true)
            if headingLevels.count == 1, builder.finishedBlockCount - exit.blocksAtEntry > 1 { noteHeadingSplit(exit) }
            headingLevels.removeLast()
        case .blockquote:
            breakBlock()
            builder.addBlockForEmptyQuote(in: &context)
            context.leaveQuote()
        case .preformatted:
            // An empty `<pre>` is an empty code block, as an empty fence is in Markdown.
            if preDepth == 1 && !builder.isInBlock && builder.finishedBlockCount == exit.blocksAtEntry { ensureBlock() }
            breakBlock(keepingIfEmpty: true)
            // A code element around the `<pre>` (`<tt><pre>x</pre></tt>`) marks up its code
            // blocks no more than one inside it does (`<pre><code>`, never opened): their text
            // is code already, and no writer could say the markup again.
            if preDepth == 1 {
                builder.updateFinishedBlocks(last: builder.finishedBlockCount - exit.blocksAtEntry) { blocks in
                    for index in blocks.indices { if case .codeBlock = blocks[index].kind { blocks[index].markups.removeAll { $0.kind == .code } } }
                }
            }
            preDepth -= 1
            if preDepth == 0 { preLanguage = nil }
        case .list:
            breakBlock()
            context.leaveList()
        case .listItem:
            startPendingListItem()
            breakBlock()
            context.leaveItem()
        case .table:
            breakBlock()
            tableDepth -= 1
        case .tableRow:
            breakBlock()
        case .tableCaption:
            breakBlock()
            captionDepth -= 1
        default:
            breakBlock()
            if tree.tag(of: exit.node) == .dl { context.leaveDefinitionList() }
        }
        if exit.pushedAlignment { alignments.removeLast() }
    }

    /// An element's `id`, or a target link's (`<a id>` or `<a name>` without `href`), is the
    /// anchor of the block it begins: the element's first block, or the block it opens when
    /// nothing is in that block yet. Anywhere else (inside text, a cell or an embed's
    /// fallback) the IR has no place for it, and it is reported.
    mutating func noteAnchor(_ rule: HTMLElementRule, node: HTMLNodeID) {
        let id: String?
        switch rule {
        case .link:
            guard !tree.hasAttribute("href", of: node) else { return }
            id = tree.attribute("id", of: node) ?? tree.attribute("name", of: node)
        // Every element that is a block or a part of one: a table part's id (`<tbody id>`) goes
        // to its first row, a cell's to its row when it is the row's first, else is reported.
        case .container, .paragraph, .heading, .blockquote, .preformatted, .list, .listItem, .definition, .figure, .figureCaption, .table,
             .tablePart, .tableRow, .tableCell, .tableCaption, .horizontalRule, .embed:
            id = tree.attribute("id", of: node)
        // An id on an element inside text is dropped unsaid: such ids are mostly an editor's
        // (Google Docs wraps every paste in `<b id="docs-internal-guid-…">`), and reporting
        // them would call every such record's structure changed (README, "Ids").
        case .lineBreak, .image, .formatting, .inlineQuote, .transparent, .formControl, .dropped:
            return
        }
        guard let id, !id.isEmpty else { return }
        let placed = embedDepth == 0 && (cellDepth == 0 || rule == .tableRow) && builder.anchorBlock(id)
        if !placed { reportDroppedAnchor(node) }
    }

    private mutating func reportDroppedAnchor(_ node: HTMLNodeID) {
        report.note("anchor-dropped", "id", at: tree.sourceLocation(of: node)) {
            "id (an in-page link's target) dropped where no block begins: inside text, a table cell or embedded content, or a second one for the same block (\($0)×)"
        }
    }

    /// Lists and quotes nested past the IR's depth: their blocks stay at its deepest level.
    private mutating func noteDepthLimit(_ node: HTMLNodeID) {
        guard context.isBeyondDepthLimit else { return }
        report.note("depth-clamped", "nesting", at: tree.sourceLocation(of: node)) {
            "lists and quotes nested deeper than \(IRLimits.maxDepth): what is inside is kept at depth \(IRLimits.maxDepth) (\($0) container\($0 == 1 ? "" : "s"))"
        }
    }

    /// A caption right after an image in the same figure is that image's text: a paragraph at
    /// the image's place (in a quote, a quote's paragraph).
    private mutating func attachCaption(_ node: HTMLNodeID) {
        var droppedAnchor = false
        builder.updateFinishedBlocks(last: 2) { tail in
            let first = tail.startIndex
            guard tail[first + 1].kind == .paragraph || tail[first + 1].kind == .blockquote, tail[first + 1].isAtSamePlace(as: tail[first]) else { return }
            if let image = tail[first].asLoneImage { tail[first] = image }
            switch tail[first].kind {
            case .image, .embed: guard tail[first].text.isEmpty else { return }
            case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .tableRow, .tableCaption, .definitionTerm,
                 .definitionDescription, .horizontalRule: return
            }
            let caption = tail.removeLast()
            tail[first].text = caption.text
            tail[first].markups = caption.markups
            // The caption's id (`<figcaption id>`, or an `<a id>` at its start) anchors the
            // image, unless the image has its own.
            if let anchor = caption.anchor {
                if tail[first].anchor == nil { tail[first].anchor = anchor } else { droppedAnchor = true }
            }
        }
        if droppedAnchor { reportDroppedAnchor(node) }
    }
}
