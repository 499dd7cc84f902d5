@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// Raw HTML in Markdown: an HTML block read with the HTML reader, and inline tags read as the
/// markups they stand for (a tag left open ends with its block or cell).
extension MarkdownWalker {
    mutating func htmlBlock(_ event: CmarkLibrary.Event, html: String) {
        var html = html
        var line = event.line
        // A checkbox alone on an item's first line is an HTML block to cmark: the box of a task
        // item, as the writers write one for an empty item. The lines the block goes on with
        // (up to a blank line) are the item's text, read as the rest of the block.
        if context.hasPendingItem, let (state, rest) = leadingCheckboxLine(html) {
            context.markPendingItem(state)
            guard rest.contains(where: { !$0.isWhitespace }) else { return }
            html = String(rest)
            line += 1
        }
        let read = HTMLReader(options: options.embeddedHTML).readEmbedded(html, line: line)
        diagnostics += read.diagnostics
        for (offset, var block) in read.value.blocks.enumerated() {
            builder.endBlock(keepingIfEmpty: false)
            // The HTML block's containers begin with it (a second `<dl>` block is a list of its
            // own), and its starts keep their places among the containers around it.
            let innerCount = block.containerChainCount
            let innerStart = offset == 0 && innerCount > 0 ? 0 : block.containerStart
            let innerDepth = block.depth
            if block.kind == .paragraph, context.hasPendingItem {
                let next = context.nextBlock(.paragraph)
                block.kind = next.kind
                block.depth = next.depth
                block.taskState = next.taskState
            } else {
                builder.flushPendingItem(in: &context)
                block.depth += context.blockDepth
            }
            // The HTML's own quotes sit inside the items around the HTML block.
            let added = block.depth - innerDepth
            let inner = (0..<block.quoteDepth).map { block.quoteListDepth(ofQuote: $0) + added }
            block.quoteDepth = min(block.quoteDepth + context.quoteDepth, IRLimits.maxDepth)
            let depth = block.depth
            block.quoteListDepths = (context.openQuoteListDepths.prefix(IRLimits.maxDepth) + inner).prefix(block.quoteDepth).map { min($0, depth) }
            var start = innerStart.map { $0 + block.containerChainCount - innerCount }
            if let outer = context.takeContainerStart(for: block) { start = min(start ?? outer, outer) }
            block.containerStart = start
            block.canonicalize()
            builder.appendFinishedBlock(block)
        }
    }

    /// The task state of a checkbox `<input>` that is all of the first line of `html`, and
    /// the lines after it; nil when the first line holds anything else.
    private mutating func leadingCheckboxLine(_ html: String) -> (TaskState, Substring)? {
        // Only a short first line can be a checkbox: the search for its end stops there, so a
        // long HTML block is not scanned for it.
        let head = html.utf8.prefix(128)
        guard head.first == UInt8(ascii: "<") else { return nil }
        let lineEnd = head.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? html.endIndex
        let first = html[..<lineEnd].trimmingSuffix(while: { $0 == " " || $0 == "\t" })
        guard first.utf8.count < 128, case .checkbox(let state) = interpretedTag(String(first)).0 else { return nil }
        return (state, html[lineEnd...])
    }

    /// Inline HTML tags come one at a time: a start tag opens markups, its end tag closes them.
    mutating func inlineHTML(_ event: CmarkLibrary.Event, html: String) {
        // A comment shows nothing, and the writers put an empty one where GFM would otherwise
        // read an e-mail address as a link.
        if html.hasPrefix("<!--") {
            diagnose("dropped-comment", "an HTML comment dropped", event, severity: .note)
            return
        }
        let (tag, messages) = interpretedTag(html)
        for message in messages { diagnose("inline-html", message, event) }
        switch tag {
        case .open(let name, let kinds):
            let href = kinds.lazy.compactMap { if case .link(let target) = $0 { target.href } else { nil } }.first
            htmlTags.append((name, kinds.map { builder.openMarkup($0) }, builder.textMark, nil, href))
        case .abbreviation(let name, let kinds, let title):
            htmlTags.append((name, kinds.map { builder.openMarkup($0) }, builder.textMark, title, nil))
        case .close(let name):
            guard let index = htmlTags.lastIndex(where: { $0.name == name }) else {
                diagnose("inline-html", "end tag </\(name)> with no start tag dropped", event)
                return
            }
            for entry in htmlTags[index...].reversed() { close(entry, event) }
            htmlTags.removeSubrange(index...)
        case .lineBreak:
            builder.appendLineBreak()
        case .image(let image):
            builder.appendImage(image)
        case .anchor(let name, let id):
            htmlTags.append((name, [], builder.textMark, nil, nil))
            if !builder.anchorBlock(id) {
                diagnose("anchor-dropped", "anchor \(id.debugDescription) dropped: only one at the start of a block has a place (an id for in-page links)", event)
            }
        case .checkbox(let state):
            // The box GitHub renders, which the writers write where Markdown has no `[ ]`.
            guard builder.currentKind?.isListItem == true, builder.currentBlockIsEmpty, builder.currentTaskState == nil else {
                diagnose("form-control", "checkbox <input> not at the start of a list item dropped: only a task list item's box has a place", event)
                return
            }
            builder.updateCurrentBlock { $0.taskState = state }
            dropsSpaceAfterBox = true
        case .unsupported(let name):
            diagnose("inline-html", "inline HTML <\(name)> not supported; the tag dropped, the text around it kept", event)
        }
    }

    /// Ends an inline tag's markups; what it showed says what else its end means.
    mutating func close(_ entry: (name: String, markups: [DocumentBuilder.OpenMarkup], mark: DocumentBuilder.TextMark, abbreviation: String?, href: String?),
                                _ event: CmarkLibrary.Event) {
        if let href = entry.href, builder.showsOnlyWhitespace(since: entry.mark) {
            diagnose("empty-link-dropped", "link with no text to \(href) dropped: it shows nothing to follow, and an empty range has no place in the IR", event)
        }
        for handle in entry.markups.reversed() { builder.closeMarkup(handle) }
        if let title = entry.abbreviation { writeExpansion(title, since: entry.mark, event) }
    }

    /// An `<abbr title>` closed: its expansion after its text, in parentheses, as the HTML
    /// reader writes it (see ``Abbreviation``), said; none where the title repeats the text.
    /// One left open is closed, and written, at its block's end.
    mutating func writeExpansion(_ title: String, since mark: DocumentBuilder.TextMark, _ event: CmarkLibrary.Event) {
        guard let shown = builder.text(since: mark) else { return }
        guard let expansion = Abbreviation.expansion(title: title, shown: shown) else { return }
        guard builder.isInBlock, !shown.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" }) else {
            diagnose("abbreviation-expanded", "title \(expansion.debugDescription) of an <abbr> that shows no text dropped: there is no text to write it after", event)
            return
        }
        builder.appendCollapsibleSpace()
        builder.append(Abbreviation.written(expansion))
        diagnose("abbreviation-expanded", "<abbr> title \(expansion.debugDescription) written after its text in parentheses: the IR has no place for an expansion shown on hover", event)
    }

    /// Tags repeat (every `<u>`, every `<span style="color:...">`): each distinct one is
    /// interpreted once per read.
    mutating func interpretedTag(_ literal: String) -> (HTMLInlineTag, [String]) {
        if let known = tagCache[literal] { return known }
        var messages: [String] = []
        let tag = HTMLInlineTag.interpret(literal, urlPolicy: options.urlPolicy, baseURL: options.baseURL, diagnostics: &messages)
        // Bounded: a document of distinct tags (a unique link on every one) gains nothing from it.
        if tagCache.count < 4096 { tagCache[literal] = (tag, messages) }
        return (tag, messages)
    }

    mutating func closeInlineHTML(_ event: CmarkLibrary.Event) {
        for entry in htmlTags.reversed() { close(entry, event) }
        htmlTags.removeAll()
    }
}

extension StringProtocol {
    /// The string without the characters at its end that `drop` holds.
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
