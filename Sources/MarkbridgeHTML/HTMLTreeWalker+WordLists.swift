@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// Microsoft Word's lists: Word writes each item as a sibling paragraph (`mso-list: l0 level1
/// lfo1`) that begins with its bullet or number as text (in a `mso-list: Ignore` span), never as
/// `<ul>` or `<ol>`. Read as a browser shows them they are paragraphs starting "·"; read as
/// Word meant them they are list items, which is what is kept: the walker opens lists in the
/// nesting context as the levels say, and closes them at the first block that is no such
/// paragraph.
extension HTMLTreeWalker {
    /// A Word list paragraph starts: the lists its level needs are open, and an item of the
    /// innermost begins, ordered when Word's marker is a number (or a letter) and a full stop
    /// or parenthesis.
    mutating func enterWordListItem(level: Int, node: HTMLNodeID) {
        let number = Self.wordListNumber(Self.wordListMarker(in: node, tree: tree))
        let ordered = number != nil
        // Items deeper than this one end, and this level's item before it.
        while wordLists.count > level { closeWordList() }
        if wordLists.count == level {
            if wordLists[level - 1] != ordered {
                closeWordList()
            } else {
                context.leaveItem()
            }
        }
        while wordLists.count < level {
            let isLevel = wordLists.count == level - 1
            let listOrdered = isLevel ? ordered : false
            // A level skipped (level 3 right after level 1) nests under an empty item, and so
            // does a list in an HTML item with nothing yet (`<li><p style="mso-list:...">`):
            // the item's empty block comes first, or the list's items have none to be in.
            builder.flushPendingItem(in: &context)
            builder.addItemForNestedList(in: &context)
            context.enterList(ordered: listOrdered, start: isLevel ? number ?? 1 : 1)
            wordLists.append(listOrdered)
            if !isLevel { _ = context.enterItem() }
        }
        _ = context.enterItem(value: number)
        report.note("word-list", "word list", at: tree.sourceLocation(of: node)) {
            "Microsoft Word list paragraphs read as list items (\($0)×)"
        }
    }

    /// Ends the Word lists still open: before any block that is no Word list paragraph.
    mutating func closeWordLists() {
        while !wordLists.isEmpty { closeWordList() }
    }

    private mutating func closeWordList() {
        breakBlock()
        context.leaveItem()
        context.leaveList()
        wordLists.removeLast()
    }

    /// The text of the paragraph's first `mso-list: Ignore` element: Word's bullet or number.
    static func wordListMarker(in paragraph: HTMLNodeID, tree: HTMLTree) -> String {
        var stack = tree.children(of: paragraph).reversed() as [HTMLNodeID]
        var steps = 0
        while let node = stack.popLast(), steps < 64 {
            steps += 1
            guard tree.kind(of: node) == .element else { continue }
            if let style = tree.attribute("style", of: node),
               CSSDeclarations.parse(style).contains(where: { $0.property == "mso-list" && $0.value.asciiLowercased() == "ignore" }) {
                return text(of: node, tree: tree)
            }
            stack += tree.children(of: node).reversed()
        }
        return ""
    }

    private static func text(of node: HTMLNodeID, tree: HTMLTree) -> String {
        var out: [UInt8] = []
        var stack = [node]
        while let current = stack.popLast(), out.count < 64 {
            if tree.kind(of: current) == .text {
                tree.withTextBytes(of: current) { out.append(copying: $0) }
            } else {
                stack += tree.children(of: current).reversed()
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number a Word marker shows (`3.`, `3)`, `c.` as 3), nil for a bullet.
    static func wordListNumber(_ marker: String) -> Int? {
        let trimmed = marker.unicodeScalars.filter { !$0.properties.isWhitespace }
        guard let last = trimmed.last, last == "." || last == ")" else { return nil }
        let body = String(String.UnicodeScalarView(trimmed.dropLast()))
        if let number = Int(body), body.count <= 9 { return number }
        if body.count == 1, let letter = body.unicodeScalars.first, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) {
            return Int(letter.value & 0x1F)
        }
        return nil
    }
}
