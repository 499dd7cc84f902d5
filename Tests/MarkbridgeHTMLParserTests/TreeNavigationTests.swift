import Testing
import MarkbridgeHTMLParser

/// The public way through a parsed tree. The tree stores fewer links than it offers (a parent's
/// last child and a first child's previous sibling share one slot), so every accessor is checked
/// against the order the html5lib dump gives, after the moves tree construction makes.
@Suite("HTML parser: walking the tree")
struct TreeNavigationTests {
    private func names(_ tree: HTMLTree, _ nodes: [HTMLNodeID]) -> [String] {
        nodes.map { tree.kind(of: $0) == .text ? "\"\(tree.text(of: $0))\"" : tree.name(of: $0) }
    }

    private func backwards(_ tree: HTMLTree, from parent: HTMLNodeID) -> [HTMLNodeID] {
        var out: [HTMLNodeID] = []
        var child = tree.lastChild(of: parent)
        while let current = child {
            out.append(current)
            child = tree.previousSibling(of: current)
        }
        return out.reversed()
    }

    @Test("Children read the same forwards and backwards, after foster parenting and the adoption agency", arguments: [
        "<p>a<b>b<i>c</b>d</i>e</p>",
        "<table>x<tr><td>y</td></tr>z</table>",
        "<b><p>one</b>two</p>",
        "only",
        "<ul><li>a<li>b<li>c</ul>",
    ])
    func bothDirections(html: String) throws {
        let tree = try HTMLParser().parseFragment(Array(html.utf8)).value
        var pending = [tree.contentRoot]
        var visited = 0
        while let node = pending.popLast() {
            let forwards = tree.children(of: node)
            #expect(backwards(tree, from: node) == forwards)
            #expect(tree.lastChild(of: node) == forwards.last)
            if let first = forwards.first {
                #expect(tree.previousSibling(of: first) == nil)
                #expect(tree.parent(of: first) == node)
            }
            pending += forwards
            visited += 1
        }
        // Every node but two is under the content root: the document, and the `<body>` context
        // element fragment parsing creates beside it.
        #expect(visited == tree.nodeCount - 2)
    }

    @Test("The adoption agency's moves leave the links the dump shows")
    func adoptionAgency() throws {
        let tree = try HTMLParser().parseFragment(Array("<b>1<p>2</b>3</p>".utf8)).value
        let top = tree.children(of: tree.contentRoot)
        #expect(names(tree, top) == ["b", "p"])
        #expect(names(tree, tree.children(of: top[1])) == ["b", "\"3\""])
        #expect(names(tree, backwards(tree, from: top[1])) == ["b", "\"3\""])
        #expect(tree.previousSibling(of: top[1]) == top[0])
        #expect(tree.nextSibling(of: top[1]) == nil)
    }

    @Test("Attributes come back in source order, with foreign prefixes, and by name")
    func attributes() throws {
        let tree = try HTMLParser().parseFragment(Array("<a href=\"/x?a=1&amp;b=2\" title=t>l</a><svg xlink:href=\"#i\" viewbox=\"0 0 1 1\"></svg>".utf8)).value
        let top = tree.children(of: tree.contentRoot)
        #expect(tree.attributes(of: top[0]) == [HTMLAttribute(name: "href", value: "/x?a=1&b=2"), HTMLAttribute(name: "title", value: "t")])
        #expect(tree.attribute("href", of: top[0]) == "/x?a=1&b=2")
        #expect(tree.attribute("hre", of: top[0]) == nil)
        #expect(tree.attributes(of: top[1]) == [HTMLAttribute(prefix: "xlink", name: "href", value: "#i"), HTMLAttribute(name: "viewBox", value: "0 0 1 1")])
        // A prefixed attribute is not found by its local name alone.
        #expect(tree.attribute("href", of: top[1]) == nil)
        #expect(tree.attributes(of: tree.children(of: top[0])[0]) == [])
    }
}
