import MarkbridgeDiff
import MarkbridgeIR
import Testing

@Suite("Document diff")
struct DocumentDiffTests {
    private func paragraph(_ text: String, _ markups: [Markup] = []) -> Block {
        Block(.paragraph, text: text, markups: markups)
    }

    @Test("Identical documents have no changes")
    func identical() {
        let document = Document(blocks: [paragraph("One."), Block(.heading(level: 2), text: "Two")])
        #expect(diff(document, document).isEmpty)
    }

    @Test("An inserted paragraph changes nothing after it")
    func insertion() {
        let old = Document(blocks: ["A a.", "B b.", "C c."].map { paragraph($0) })
        var new = old
        new.blocks.insert(paragraph("Inserted."), at: 1)
        #expect(diff(old, new).changes == [.inserted(index: 1, block: paragraph("Inserted."))])
    }

    @Test("A deleted paragraph is one deletion")
    func deletion() {
        let old = Document(blocks: ["A a.", "B b.", "C c."].map { paragraph($0) })
        var new = old
        new.blocks.remove(at: 0)
        #expect(diff(old, new).changes == [.deleted(index: 0, block: paragraph("A a."))])
    }

    @Test("A paragraph taken out and put back elsewhere is a move")
    func move() {
        let old = Document(blocks: ["First one.", "Second one.", "Third one.", "Fourth one."].map { paragraph($0) })
        let new = Document(blocks: ["Second one.", "Third one.", "Fourth one.", "First one."].map { paragraph($0) })
        #expect(diff(old, new).changes == [.moved(from: 0, to: 3, block: paragraph("First one."))])
    }

    @Test("Words replaced inside a paragraph are one edit with its place on both sides")
    func wordEdit() throws {
        let old = Document(blocks: [paragraph("The quick brown fox jumps.")])
        let new = Document(blocks: [paragraph("The slow red fox jumps.")])
        let changes = diff(old, new).changes
        #expect(changes.count == 1)
        guard case .changed(0, 0, let details) = try #require(changes.first) else {
            Issue.record("expected a change, got \(changes)")
            return
        }
        #expect(details.text == [TextEdit(old: TextRange(start: 4, end: 15), new: TextRange(start: 4, end: 12),
                                          removed: "quick brown", added: "slow red")])
        #expect(details.markups.isEmpty)
        #expect(details.attributes.isEmpty)
    }

    @Test("Chinese and Thai text is compared character by character")
    func unspacedScripts() throws {
        let changes = diff(Document(blocks: [paragraph("我喜欢猫")]), Document(blocks: [paragraph("我喜欢狗")])).changes
        guard case .changed(_, _, let details) = try #require(changes.first) else { throw Failure.unexpected(changes) }
        #expect(details.text == [TextEdit(old: TextRange(start: 3, end: 4), new: TextRange(start: 3, end: 4), removed: "猫", added: "狗")])

        let thai = diff(Document(blocks: [paragraph("สวัสดีครับ")]), Document(blocks: [paragraph("สวัสดีค่ะ")])).changes
        guard case .changed(_, _, let thaiDetails) = try #require(thai.first) else { throw Failure.unexpected(thai) }
        // Marks stay with their consonant: ครับ -> ค่ะ is "รั" "บ" gone, "่" on ค and "ะ" come.
        #expect(thaiDetails.text.map(\.removed).joined() + "|" + thaiDetails.text.map(\.added).joined() == "ครับ|ค่ะ")
    }

    @Test("A markup changed from STRONG to EM is one removal and one addition over the same text")
    func markupKindChange() throws {
        let old = Document(blocks: [paragraph("Some bold text", [Markup(.strong, start: 5, end: 9)])])
        let new = Document(blocks: [paragraph("Some bold text", [Markup(.emphasis, start: 5, end: 9)])])
        let changes = diff(old, new).changes
        guard case .changed(_, _, let details) = try #require(changes.first) else { throw Failure.unexpected(changes) }
        #expect(details.text.isEmpty)
        #expect(details.markups == [
            MarkupChange(kind: .removed, name: "STRONG", oldRange: TextRange(start: 5, end: 9), newRange: nil, text: "bold"),
            MarkupChange(kind: .added, name: "EM", oldRange: nil, newRange: TextRange(start: 5, end: 9), text: "bold"),
        ])
    }

    @Test("A link whose target changed is a change of its href; overlapping markups are told apart")
    func linkTargetAndOverlaps() throws {
        let old = Document(blocks: [paragraph("Click here, and I go", [
            Markup(.link(LinkTarget(href: "https://a.example/")), start: 6, end: 10),
            Markup(.strong, start: 6, end: 17),
            Markup(.emphasis, start: 12, end: 20),
        ])])
        let new = Document(blocks: [paragraph("Now click here, and I go", [
            Markup(.link(LinkTarget(href: "https://b.example/")), start: 10, end: 14),
            Markup(.emphasis, start: 16, end: 24),
        ])])
        let changes = diff(old, new).changes
        guard case .changed(_, _, let details) = try #require(changes.first) else { throw Failure.unexpected(changes) }
        #expect(details.text == [TextEdit(old: TextRange(start: 0, end: 5), new: TextRange(start: 0, end: 9), removed: "Click", added: "Now click")])
        #expect(details.markups == [
            MarkupChange(kind: .removed, name: "STRONG", oldRange: TextRange(start: 6, end: 17), newRange: nil, text: "here, and I"),
            MarkupChange(kind: .changed, name: "LINK", oldRange: TextRange(start: 6, end: 10), newRange: TextRange(start: 10, end: 14),
                         text: "here", attribute: "href", oldValue: "https://a.example/", newValue: "https://b.example/"),
        ])
    }

    @Test("A markup that grows over more text is a change of its range")
    func markupRange() throws {
        let old = Document(blocks: [paragraph("one two three", [Markup(.strong, start: 0, end: 3)])])
        let new = Document(blocks: [paragraph("one two three", [Markup(.strong, start: 0, end: 7)])])
        let changes = diff(old, new).changes
        guard case .changed(_, _, let details) = try #require(changes.first) else { throw Failure.unexpected(changes) }
        #expect(details.markups == [
            MarkupChange(kind: .changed, name: "STRONG", oldRange: TextRange(start: 0, end: 3), newRange: TextRange(start: 0, end: 7),
                         text: "one two", attribute: "range", oldValue: "one", newValue: "one two"),
        ])
    }

    @Test("Block attributes are compared as markup JSON names them")
    func attributes() throws {
        let old = Document(blocks: [
            Block(.paragraph, text: "Title here"),
            Block(.codeBlock(language: "swift"), text: "let x = 1"),
            Block(.orderedListItem(number: 3), text: "Item", depth: 1, alignment: .center),
        ])
        let new = Document(blocks: [
            Block(.heading(level: 2), text: "Title here"),
            Block(.codeBlock(language: "python"), text: "let x = 1"),
            Block(.orderedListItem(number: 4), text: "Item", depth: 0),
        ])
        let changes = diff(old, new).changes
        let attributes = changes.map { change -> [AttributeChange] in
            guard case .changed(_, _, let details) = change else { return [] }
            return details.attributes
        }
        #expect(attributes == [
            [AttributeChange(name: "type", old: "P", new: "H2")],
            [AttributeChange(name: "language", old: "swift", new: "python")],
            [AttributeChange(name: "depth", old: "1", new: ""), AttributeChange(name: "number", old: "3", new: "4"),
             AttributeChange(name: "align", old: "center", new: "")],
        ])
        #expect(diff(old, new, options: DiffOptions(ignoresAttributes: true)).changes.count == 1)
    }

    @Test("An image's width and height are compared, on an IMG block as an embed's are and on an IMAGE markup")
    func imageSizes() throws {
        let old = Document(blocks: [
            Block(.image(ImageSource(src: "https://e.x/a.png", width: 640, height: 480))),
            paragraph("an \u{FFFC} icon", [Markup(.image(ImageSource(src: "https://e.x/i.png", width: 16)), start: 3, end: 4)]),
        ])
        let new = Document(blocks: [
            Block(.image(ImageSource(src: "https://e.x/a.png", width: 320, height: 480))),
            paragraph("an \u{FFFC} icon", [Markup(.image(ImageSource(src: "https://e.x/i.png", height: 16)), start: 3, end: 4)]),
        ])
        let changes = diff(old, new).changes
        guard changes.count == 2, case .changed(0, 0, let block) = changes[0], case .changed(1, 1, let inline) = changes[1] else { throw Failure.unexpected(changes) }
        #expect(block.attributes == [AttributeChange(name: "width", old: "640", new: "320")])
        #expect(inline.markups == [
            MarkupChange(kind: .changed, name: "IMAGE", oldRange: TextRange(start: 3, end: 4), newRange: TextRange(start: 3, end: 4),
                         text: "\u{FFFC}", attribute: "width", oldValue: "16", newValue: ""),
            MarkupChange(kind: .changed, name: "IMAGE", oldRange: TextRange(start: 3, end: 4), newRange: TextRange(start: 3, end: 4),
                         text: "\u{FFFC}", attribute: "height", oldValue: "", newValue: "16"),
        ])
        // An inserted image shows its size among its attributes, as markup JSON names them.
        #expect(DocumentDiff.attributes(of: old.blocks[0]).map(\.name) == ["src", "width", "height"])
    }

    @Test("A task's state is an attribute: checked, unchecked, or a plain item")
    func taskState() throws {
        let old = Document(blocks: [Block(.unorderedListItem, text: "a", taskState: .unchecked), Block(.unorderedListItem, text: "b", taskState: .checked)])
        let new = Document(blocks: [Block(.unorderedListItem, text: "a", taskState: .checked), Block(.unorderedListItem, text: "b")])
        let attributes = diff(old, new).changes.map { change -> [AttributeChange] in
            guard case .changed(_, _, let details) = change else { return [] }
            return details.attributes
        }
        #expect(attributes == [[AttributeChange(name: "task", old: "unchecked", new: "checked")], [AttributeChange(name: "task", old: "checked", new: "")]])
        #expect(diff(old, new, options: DiffOptions(ignoresAttributes: true)).changes.isEmpty)
    }

    @Test("A table row's cells are an attribute: a header cell that became a data cell, a span that changed")
    func tableCells() throws {
        func row(_ cells: [TableCell]) -> Block {
            Block(.tableRow(TableRow(cells: cells, startsTable: true)), text: "Name | Price")
        }
        let old = Document(blocks: [row([TableCell(TextRange(start: 0, end: 4), isHeader: true), TableCell(TextRange(start: 7, end: 12), isHeader: true)])])
        let new = Document(blocks: [row([TableCell(TextRange(start: 0, end: 4)), TableCell(TextRange(start: 7, end: 12), columnSpan: 2, alignment: .right)])])
        let changes = diff(old, new).changes
        guard changes.count == 1, case .changed(_, _, let details) = changes[0] else {
            Issue.record("expected one changed row, got \(changes)")
            return
        }
        #expect(details.attributes == [AttributeChange(name: "cells", old: "th, th", new: "td, td colspan=2 align=right")])
        #expect(diff(old, new, options: DiffOptions(ignoresAttributes: true)).changes.isEmpty)
        #expect(DocumentDiff.attributes(of: old.blocks[0]).map(\.name) == ["startsTable", "cells"])
    }

    @Test("What the options ignore is no change")
    func ignoring() {
        let old = Document(blocks: [paragraph("Red  text\nhere", [
            Markup(.color(CSSColor(red: 255, green: 0, blue: 0)), start: 0, end: 3),
            Markup(.link(LinkTarget(href: "https://a.example/")), start: 5, end: 9),
        ])])
        let new = Document(blocks: [paragraph("Red text here", [Markup(.link(LinkTarget(href: "https://b.example/")), start: 4, end: 8)])])
        #expect(diff(old, new).changes.count == 1)
        let ignoring = DiffOptions(ignoresWhitespace: true, ignoredMarkups: [.color], ignoresLinkTargets: true)
        #expect(diff(old, new, options: ignoring).isEmpty)
        // Each alone leaves the others' changes.
        #expect(!diff(old, new, options: DiffOptions(ignoresWhitespace: true, ignoredMarkups: [.color])).isEmpty)
    }

    @Test("An edited paragraph next to inserted ones pairs with its own edit, not with a stranger")
    func pairing() throws {
        let old = Document(blocks: [paragraph("Keep."), paragraph("The old wording of this sentence."), paragraph("End.")])
        let new = Document(blocks: [paragraph("Keep."), paragraph("Something else entirely."),
                                    paragraph("The new wording of this sentence."), paragraph("End.")])
        let changes = diff(old, new).changes
        #expect(changes.count == 2)
        guard case .changed(1, 2, let details) = changes.first(where: { if case .changed = $0 { true } else { false } }) else {
            throw Failure.unexpected(changes)
        }
        #expect(details.text.map(\.removed) == ["old"])
        #expect(changes.contains(.inserted(index: 1, block: paragraph("Something else entirely."))))
    }

    @Test("Unrelated long documents stay within the edit bound and still account for every block")
    func pathologicalPair() {
        let old = Document(blocks: (0..<6_000).map { paragraph("old \($0)") })
        let new = Document(blocks: (0..<6_000).map { paragraph("new \($0) text") })
        let changes = diff(old, new).changes
        var oldSeen = Set<Int>(), newSeen = Set<Int>()
        for change in changes {
            switch change {
            case .inserted(let index, _): newSeen.insert(index)
            case .deleted(let index, _): oldSeen.insert(index)
            case .moved(let from, let to, _), .changed(let from, let to, _):
                oldSeen.insert(from)
                newSeen.insert(to)
            }
        }
        #expect(oldSeen.count == 6_000)
        #expect(newSeen.count == 6_000)
    }

    @Test("A list that begins beside another, and an anchor, are attributes: containerStart and name")
    func containerStartAndName() throws {
        let old = Document(blocks: [Block(.unorderedListItem, text: "One item"), Block(.unorderedListItem, text: "Two item", anchor: "two")])
        let new = Document(blocks: [Block(.unorderedListItem, text: "One item"), Block(.unorderedListItem, text: "Two item", containerStart: 0)])
        let changes = diff(old, new).changes
        guard case .changed(1, 1, let details) = try #require(changes.first), changes.count == 1 else { throw Failure.unexpected(changes) }
        #expect(details.attributes == [AttributeChange(name: "containerStart", old: "", new: "0"), AttributeChange(name: "name", old: "two", new: "")])
        #expect(diff(old, new, options: DiffOptions(ignoresAttributes: true)).isEmpty)
    }

    private enum Failure: Error {
        case unexpected([BlockChange])
    }
}
