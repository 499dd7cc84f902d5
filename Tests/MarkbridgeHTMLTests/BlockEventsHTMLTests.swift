import Testing
import MarkbridgeHTML
import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

/// The HTML writer is one loop over the public block iterator (``Document/blockEvents``): the
/// container tags it writes are exactly the containers the events open and close, in order,
/// with none added by a block's own element, over generated documents of every shape. That
/// the nesting is right, the HTML round trips show: what the writer writes reads back as the
/// same document.
@Suite("Block events against the HTML writer")
struct BlockEventsHTMLTests {
    /// The container tags of the events: `<blockquote>`, `<ul>`, `<ol start="3">`, `<li>`,
    /// `<table>`, `<tr>`, `<td>`, `<dl>` and their ends.
    static func eventTags(_ document: Document) -> [String] {
        var tags: [String] = []
        for event in document.blockEvents {
            switch event {
            case .enter(let node): if let name = name(node) { tags.append("<" + name + ">") }
            case .exit(let node): if let name = name(node) { tags.append("</" + (name.split(separator: " ").first.map(String.init) ?? name) + ">") }
            }
        }
        return tags
    }

    static func name(_ node: BlockNode) -> String? {
        switch node {
        case .quote: "blockquote"
        case .unorderedList: "ul"
        case .orderedList(let start): start == 1 ? "ol" : "ol start=\"\(start)\""
        case .listItem: "li"
        case .table: "table"
        case .tableRow: "tr"
        case .tableCell: "td"
        case .definitionList: "dl"
        case .block: nil
        }
    }

    /// The same tags as the HTML writer wrote them (`<th>` as `<td>`; of attributes only `<ol start>`).
    static func writtenTags(_ html: [UInt8]) -> [String] {
        let names: Set<String> = ["blockquote", "ul", "ol", "li", "table", "tr", "td", "th", "dl"]
        var tags: [String] = []
        var index = 0
        while index < html.count {
            guard html[index] == UInt8(ascii: "<") else { index += 1; continue }
            var cursor = index + 1
            let closing = cursor < html.count && html[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < html.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(html[cursor]) { cursor += 1 }
            var name = String(decoding: html[nameStart..<cursor], as: UTF8.self)
            guard let end = html[cursor...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let attributes = String(decoding: html[cursor..<end], as: UTF8.self)
            index = end + 1
            guard names.contains(name), attributes.isEmpty || attributes.first == " " else { continue }
            if name == "th" { name = "td" }
            if name == "ol", !closing, let range = attributes.range(of: "start=\"") {
                let number = attributes[range.upperBound...].prefix { $0 != "\"" }
                name += " start=\"\(number)\""
            }
            tags.append((closing ? "</" : "<") + name + ">")
        }
        return tags
    }

    @Test("The events' containers are the HTML writer's, over 2,000 generated documents")
    func generated() throws {
        for (seed, profile) in [(UInt64(41), DocumentGenerator.Profile.realistic), (42, .hostile)] {
            var generator = DocumentGenerator(seed: seed, profile: profile)
            for index in 0..<1_000 {
                let document = generator.document(blockCount: 1 + index % 40)
                let html = try HTMLWriter().write(document).value
                let events = Self.eventTags(document), written = Self.writtenTags(html)
                if events != written {
                    let at = (0..<min(events.count, written.count)).first { events[$0] != written[$0] } ?? min(events.count, written.count)
                    Issue.record("seed \(seed), document \(index): tag \(at) is \(events.dropFirst(at).first ?? "none") in the events, \(written.dropFirst(at).first ?? "none") in the HTML\n\(String(decoding: html, as: UTF8.self))")
                    return
                }
            }
        }
    }

    @Test("Hand-made shapes the generator rarely draws: an item around a quote in a paragraph's place, a caption, tables side by side, an empty quote")
    func shapes() throws {
        let row = Block(.tableRow(TableRow(cells: [TableCell(TextRange(start: 0, end: 1))], startsTable: true)), text: "a")
        let documents = [
            Document(blocks: [Block(.orderedListItem(number: 4), text: "a"), Block(.paragraph, text: "p", depth: 1, quoteDepth: 1, quoteListDepths: [1])]),
            Document(blocks: [Block(.tableCaption, text: "c"), row, row, Block(.blockquote, quoteDepth: 1)]),
            Document(blocks: [Block(.blockquote, text: "q", quoteDepth: 2), Block(.blockquote, quoteDepth: 2, containerStart: 1), Block(.paragraph, text: "p")]),
        ]
        for document in documents {
            #expect(Self.eventTags(document) == Self.writtenTags(try HTMLWriter().write(document).value))
        }
    }

    @Test("The writer's exact HTML for the shapes its container nesting decides: a caption and rows, a table after a table, an empty quote, a quote in an item, an item numbered out of turn, a definition of two paragraphs, a task")
    func exactShapes() throws {
        let json = #"{"paragraphs":[{"type":"CAPTION","text":"c"},{"type":"TR","text":"a | b","startsTable":true,"cells":[{"start":0,"end":1,"header":true},{"start":4,"end":5,"header":true}]},{"type":"TR","text":"1 | 2","cells":[{"start":0,"end":1},{"start":4,"end":5,"colspan":1}]},{"type":"TR","text":"next","startsTable":true,"cells":[{"start":0,"end":4}]},{"type":"BQ","quoteDepth":1},{"type":"P","text":"between"},{"type":"OLI","text":"three","number":3},{"type":"BQ","text":"quoted in the item","depth":1,"quoteDepth":1,"quoteListDepths":[1]},{"type":"OLI","text":"five","number":5},{"type":"DT","text":"term"},{"type":"DD","text":"first paragraph"},{"type":"DD","text":"second paragraph","continues":true},{"type":"ULI","text":"task","task":"checked"}]}"#
        let expected = #"""
<table>
<caption>c</caption>
<tr><th>a</th><th>b</th></tr>
<tr><td>1</td><td>2</td></tr>
</table>
<table>
<tr><td>next</td></tr>
</table>
<blockquote>
</blockquote>
<p>between</p>
<ol start="3">
<li>three<blockquote>
<p>quoted in the item</p>
</blockquote>
</li>
<li value="5">five</li>
</ol>
<dl>
<dt>term</dt>
<dd>
<p>first paragraph</p>
<p>second paragraph</p>
</dd>
</dl>
<ul>
<li><input type="checkbox" checked disabled> task</li>
</ul>

"""#
        let document = try MarkupJSONReader().read(Array(json.utf8)).value
        let html = String(decoding: try HTMLWriter().write(document).value, as: UTF8.self)
        #expect(html == expected)
        #expect(try HTMLReader().read(Array(html.utf8)).value == document)
    }
}
