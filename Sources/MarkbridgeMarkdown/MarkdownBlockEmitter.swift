import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// The Markdown writer's state: output, the indentation of open list items, the last item at
/// each depth (to keep or break ordered lists), and the block before.
struct MarkdownBlockEmitter {
    let options: MarkdownWriter.Options
    /// The Markdown so far, as UTF-8.
    var out: [UInt8] = []
    var diagnostics: [Diagnostic] = []
    /// For each list depth, the width of the latest item's marker: its content column.
    private var itemIndents: [Int] = []
    /// By depth: an array, cut back at each block, rather than a dictionary filtered anew.
    private var lastItems: [(ordered: Bool, number: Int, delimiter: Character)?] = []
    var previous: Block?
    /// Whether the block before was a list item written with no content (no text, no
    /// anchor; a task box is not content, the reader takes it as the item's): CommonMark ends
    /// such an item at a blank line, and the line after it is the item's own text.
    private var previousWasBareMarker = false
    /// Whether the block before was an empty task item written as its marker and the HTML checkbox.
    private var previousWasCheckboxOnly = false
    /// Whether the block being written, and the one before, went out as HTML blocks.
    var wroteHTML = false
    private var previousWasHTML = false
    /// Inline content, written so that it reads back as written.
    var inlineWriter: VerifiedInlineWriter

    init(options: MarkdownWriter.Options) {
        self.options = options
        inlineWriter = VerifiedInlineWriter(allowsHTML: options.html == .keep, urlPolicy: options.urlPolicy, gfm: options.dialect == .gfm)
    }

    var allowsHTML: Bool { options.html == .keep }

    /// Writes `block`; `tight` says it follows the block before with a line break (an item of a
    /// tight list, see ``MarkdownListLayout``), unless either is written as HTML. For the first
    /// block of a table or a definition list written whole (as one HTML block, or a pipe
    /// table), `group` holds all its blocks.
    /// `next` is the block after, if any: an empty quote is written as `>` alone only when
    /// nothing follows in it. `beginsContainers` says a container of the block's own begins at
    /// it (the block events entered one): an ordered item then begins a list, not goes on in one.
    mutating func write(_ block: Block, index: Int, beginsContainers: Bool, tight: Bool = false, group: ArraySlice<Block>? = nil, next: Block? = nil) {
        let isItem = block.kind.isListItem
        let depth = block.depth
        let kept = isItem ? depth + 1 : depth
        if lastItems.count > kept { lastItems.removeSubrange(max(kept, 0)...) }
        let lastItem = depth < lastItems.count ? lastItems[depth] : nil
        // A list that begins here, beside one of its kind, needs the other marker: CommonMark
        // goes on with a list whose items have the same bullet or delimiter, blank line or not.
        let beginsList = block.containerStart.map { $0 <= block.containerChainCount - 1 } ?? false
        if itemIndents.count > depth { itemIndents.removeSubrange(depth...) }
        while itemIndents.count < depth { itemIndents.append(2) }
        var marker: [UInt8] = []
        switch block.kind {
        case .unorderedListItem:
            var bullet: Character = "-"
            if let last = lastItem, !last.ordered { bullet = beginsList ? (last.delimiter == "-" ? "*" : "-") : last.delimiter }
            marker = Array("\(bullet) ".utf8)
            noteLastItem((false, 0, bullet), at: depth)
        case .orderedListItem(let number):
            // In ListNumber.range (the writer checked): nine digits at most, no sign, and
            // `+ 1` cannot overflow.
            var delimiter: Character = "."
            if let last = lastItem, last.ordered {
                // The same list goes on only with the next number; else a new list, which needs
                // the other delimiter to not continue this one.
                let inTurn = number == last.number + 1
                delimiter = inTurn && !beginsList ? last.delimiter : (last.delimiter == "." ? ")" : ".")
                if !inTurn && !beginsContainers {
                    diagnostics.append(.warning("list-split", "ordered list item at block \(index) shows \(number) after \(last.number): CommonMark numbers a list's items one after another, so it begins a list of its own", block: index))
                }
            }
            marker = Array("\(number)\(delimiter) ".utf8)
            noteLastItem((true, number, delimiter), at: depth)
        case .paragraph, .heading, .blockquote, .codeBlock, .image, .embed, .tableRow, .tableCaption, .definitionTerm, .definitionDescription, .horizontalRule:
            break
        }
        if isItem { itemIndents.append(marker.count) }
        wroteHTML = false
        let lines: MarkdownLines
        if let group {
            lines = groupBlock(group, index: index)
        } else if block.standsForEmptyQuote(before: next), block.beginsInnermostContainer(after: previous) {
            // An empty quote, nothing else in it: its marker alone.
            lines = .none
        } else {
            lines = content(of: block, index: index, isItem: isItem)
        }
        if let previous, previousWasBareMarker, block.isFirstInEmptyItem(previous),
           !wroteHTML || block.kind == .paragraph || block.kind == .blockquote, !lines.ranges.isEmpty,
           writesParagraph(block, inGroup: group != nil) {
            // CommonMark: an item's first paragraph is its own text, and an empty item has no
            // syntax that keeps a paragraph after it apart; a `<p>` HTML block in it is read
            // back as that text too, as `<li><p>` is.
            diagnostics.append(.warning("empty-item-merged", "list item at block \(index - 1) is empty and the paragraph in it at block \(index) cannot be written apart from it: read back, that paragraph is the item's own text", block: index - 1))
        }
        let taskBox = isItem ? self.taskBox(block, index: index, lines: lines) : []
        // The checkbox alone on an empty task item's line is an HTML block to cmark, which takes
        // in the next line as the item's text: a paragraph there is that text (said above), any
        // other block (a nested list, a heading, code) needs a blank line to stay itself. The
        // box is the item's content, so the blank line does not end the item.
        let afterCheckbox = previousWasCheckboxOnly && block.depth > (previous?.depth ?? 0) && !writesParagraph(block, inGroup: group != nil)
        // A tight break only between blocks written as Markdown: an HTML block ends at a blank line.
        if !(tight && !wroteHTML && !previousWasHTML) || afterCheckbox { separate(to: block, afterCheckbox: afterCheckbox) }
        previousWasHTML = wroteHTML
        let isCode: Bool
        if case .codeBlock = block.kind { isCode = true } else { isCode = false }
        // Each line: the container prefix (a quote's marker, or the indentation of an open
        // item, in the order the containers nest), then the item's marker on its first line or
        // as much indentation on the others.
        let prefix = containerPrefix(of: block, through: nil)
        func startLine(first: Bool) -> Int {
            let start = out.count
            out.append(contentsOf: prefix)
            if first { out.append(contentsOf: marker + taskBox) } else { out.append(contentsOf: repeatElement(0x20, count: marker.count)) }
            return start
        }
        for (number, range) in lines.ranges.enumerated() {
            let start = startLine(first: number == 0)
            out.append(contentsOf: lines.bytes[range])
            // Code keeps its trailing spaces; elsewhere they could only be container indentation.
            if !isCode || range.isEmpty { trimTrailingSpaces(after: start) }
            out.append(0x0A)
        }
        if lines.ranges.isEmpty {
            trimTrailingSpaces(after: startLine(first: true))
            out.append(0x0A)
        }
        previous = block
        previousWasBareMarker = isItem && lines.ranges.isEmpty
        previousWasCheckboxOnly = previousWasBareMarker && taskBox.first == UInt8(ascii: "<")
    }

    private mutating func noteLastItem(_ item: (ordered: Bool, number: Int, delimiter: Character), at depth: Int) {
        while lastItems.count <= depth { lastItems.append(nil) }
        lastItems[depth] = item
    }

    /// Whether `block`, written as Markdown, is a paragraph: a quote's paragraph in its quote,
    /// an image (`![a](src)` alone on its line), and a definition, caption, table row or embed
    /// flattened to one too.
    private func writesParagraph(_ block: Block, inGroup: Bool) -> Bool {
        switch block.kind {
        case .paragraph, .blockquote, .image, .definitionTerm, .definitionDescription, .tableCaption, .embed: true
        case .tableRow: !inGroup
        case .heading, .unorderedListItem, .orderedListItem, .codeBlock, .horizontalRule: false
        }
    }

    /// What goes between an item's marker and its content for its task state: GFM's `[ ] ` or
    /// `[x] `; where those cannot be (CommonMark, an empty item, an item in a quote, where
    /// cmark-gfm 0.29.0.gfm.6 reads no box), the disabled checkbox GitHub
    /// renders, as inline HTML the reader takes back; without HTML, the box as escaped text,
    /// reported. An item that is no task but whose text begins like a box has its `[` escaped
    /// in GFM, which would read it as one.
    private mutating func taskBox(_ block: Block, index: Int, lines: MarkdownLines) -> [UInt8] {
        guard let task = block.taskState else {
            if options.dialect == .gfm, let first = lines.ranges.first, !wroteHTML,
               MarkdownTaskBox.beginsLikeBox(lines.bytes[first]) {
                return Array("\\".utf8)
            }
            return []
        }
        let isEmpty = lines.ranges.isEmpty
        if wroteHTML {
            diagnostics.append(.warning("task-flattened", "task state (\(task.rawValue)) of list item \(index), written as an HTML block, has no place in it; dropped", block: index))
            return []
        }
        if options.dialect == .gfm && !isEmpty && block.quoteDepth == 0 { return MarkdownTaskBox.gfm(task) }
        if allowsHTML { return MarkdownTaskBox.checkbox(task) }
        let why = options.dialect == .commonMark ? "CommonMark has no task list items"
            : isEmpty ? "GFM has no box on an empty item" : "cmark-gfm reads no box in a quote"
        diagnostics.append(.warning("task-flattened", "task state (\(task.rawValue)) of list item \(index): \(why); written as the text \(task.isChecked ? "[x]" : "[ ]") (--markdown-html drop)", block: index))
        return MarkdownTaskBox.escapedText(task, isEmpty: isEmpty)
    }

    private mutating func trimTrailingSpaces(after start: Int) {
        while out.count > start, out.last == 0x20 { out.removeLast() }
    }

    /// A blank line between blocks, inside the quotes both share (and the items around those
    /// quotes, whose content a quote marker must be indented to); none between an empty list
    /// item and its own content (an item may begin with at most one blank line).
    /// The block before is read field by field where it is stored: passed or bound whole, it
    /// was copied, every reference it holds retained and released, once a block.
    private mutating func separate(to block: Block, afterCheckbox: Bool = false) {
        guard let previousDepth = previous?.depth, let previousQuoteDepth = previous?.quoteDepth else { return }
        // A blank line would end the item: what it holds follows on the next line.
        if previousWasBareMarker && block.depth > previousDepth && !afterCheckbox { return }
        let start = out.count
        // Containers that begin at the block are not shared: a blank line outside a quote ends it.
        let limit = block.containerStart ?? Int.max
        if previous?.quoteListDepths.isEmpty == true && block.quoteListDepths.isEmpty {
            for _ in 0..<min(previousQuoteDepth, block.quoteDepth, limit) { out.append(contentsOf: "> ".utf8) }
        } else {
            let (before, after) = (previous?.containers ?? [], block.containers)
            var shared = 0
            while shared < before.count, shared < after.count, shared < limit, before[shared] == after[shared] { shared += 1 }
            // Up to the last quote both are in: items past it need no indentation on a blank line.
            if let lastQuote = after[..<shared].lastIndex(of: .quote) {
                out.append(contentsOf: containerPrefix(of: block, through: lastQuote + 1))
            }
        }
        trimTrailingSpaces(after: start)
        out.append(0x0A)
    }

    /// The line prefix the block's containers make, for its first `count` containers (all when
    /// nil): `> ` for a quote, the content indentation of the item for a list item.
    private func containerPrefix(of block: Block, through count: Int?) -> [UInt8] {
        var prefix: [UInt8] = []
        if block.quoteListDepths.isEmpty && count == nil {
            // The usual order: the quotes, then the items' indentation.
            for _ in 0..<block.quoteDepth { prefix.append(contentsOf: "> ".utf8) }
            let indentation = itemIndents.prefix(block.depth).reduce(0, +)
            prefix.append(contentsOf: repeatElement(0x20, count: indentation))
            return prefix
        }
        for container in block.containers.prefix(count ?? Int.max) {
            switch container {
            case .quote: prefix.append(contentsOf: "> ".utf8)
            case .listItem(let depth): prefix.append(contentsOf: repeatElement(0x20, count: depth < itemIndents.count ? itemIndents[depth] : 2))
            }
        }
        return prefix
    }
}
