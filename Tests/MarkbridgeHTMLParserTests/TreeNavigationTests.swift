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
        // Presence alone, by the same rule: an empty value counts, a prefixed name or a text node does not.
        let present = try HTMLParser().parseFragment(Array("<input checked><a href>x</a>".utf8)).value
        let inputAndLink = present.children(of: present.contentRoot)
        #expect(present.hasAttribute("checked", of: inputAndLink[0]))
        #expect(!present.hasAttribute("check", of: inputAndLink[0]))
        #expect(present.hasAttribute("href", of: inputAndLink[1]))
        #expect(!tree.hasAttribute("href", of: top[1]))
        #expect(tree.hasAttribute("title", of: top[0]))
        #expect(!tree.hasAttribute("href", of: tree.children(of: top[0])[0]))
    }

    @Test("A repeated attribute keeps its first value, before and after the tokenizer switches to a set of names")
    func repeatedAttributes() throws {
        // Twenty names, then repeats of the 4th (found by the linear scan, under sixteen names)
        // and of the 18th (found by the set, past sixteen), then one more new name.
        let names = (0..<20).map { "a\($0)=v\($0)" }
        let early = "<p " + names[..<10].joined(separator: " ") + " a3=dup " + names[10...].joined(separator: " ") + " a17=dup last=z>x</p>"
        let tree = try HTMLParser().parseFragment(Array(early.utf8)).value
        let p = tree.children(of: tree.contentRoot)[0]
        let attributes = tree.attributes(of: p)
        #expect(attributes.count == 21)
        #expect(attributes.map(\.name) == (0..<20).map { "a\($0)" } + ["last"])
        #expect(tree.attribute("a3", of: p) == "v3")
        #expect(tree.attribute("a17", of: p) == "v17")
        #expect(tree.attribute("last", of: p) == "z")
    }

    @Test("Noah's Ark: a fourth formatting element with the same attributes in another order pushes out the first")
    func noahsArkIgnoresAttributeOrder() throws {
        // Four <b>s with equal attributes (two orders), then a paragraph: only three are reopened.
        let html = "<p><b x=1 y=2><b y=2 x=1><b x=1 y=2><b y=2 x=1>a<p>b"
        let tree = try HTMLParser().parseFragment(Array(html.utf8)).value
        let paragraphs = tree.children(of: tree.contentRoot)
        #expect(paragraphs.count == 2)
        var depth = 0
        var node = tree.children(of: paragraphs[1]).first
        while let current = node, tree.kind(of: current) == .element {
            #expect(tree.name(of: current) == "b")
            depth += 1
            node = tree.children(of: current).first
        }
        #expect(depth == 3)
        // A <b> whose attributes differ is not counted with them.
        let different = "<p><b x=1><b x=1><b x=1><b x=2>a<p>b"
        let other = try HTMLParser().parseFragment(Array(different.utf8)).value
        var reopened = 0
        var next = other.children(of: other.children(of: other.contentRoot)[1]).first
        while let current = next, other.kind(of: current) == .element {
            reopened += 1
            next = other.children(of: current).first
        }
        #expect(reopened == 4)
    }

    @Test("A later <html> tag adds the attributes the element lacks, in order, around other elements' attributes")
    func mergedAttributes() throws {
        // The root's attributes move past the <p>s' when they outgrow their spare slots: every
        // element must keep its own.
        let html = #"<html a="1"><p id="p1">x<html a="2" b="3"><p id="p2" class="c">y<html c="4" b="5" d="6"><html e="7">"#
        let tree = try HTMLParser().parseFragment(Array(html.utf8)).value
        let root = tree.contentRoot
        #expect(tree.attributes(of: root).map { "\($0.name)=\($0.value)" } == ["a=1", "b=3", "c=4", "d=6", "e=7"])
        let paragraphs = tree.children(of: root)
        #expect(paragraphs.map { tree.attribute("id", of: $0) } == ["p1", "p2"])
        #expect(tree.attribute("class", of: paragraphs[1]) == "c")
    }
}
