/// Generates stored-content HTML from a seed: what CMS and editor output looks like, with its
/// debris: headings, paragraphs with inline formatting and inline styles, links, `<br>`,
/// entities, nested lists (some placed directly in a list, as editors emit), images, tables,
/// comments, and now and then an unclosed or misnested tag.
public struct HTMLCorpusGenerator: HTMLBlockGenerator {
    private var random: SeededRandom

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    static let words = DocumentGenerator.ordinaryWords + ["&amp;", "&nbsp;", "&lt;tag&gt;", "&#8212;", "&quot;quoted&quot;", "x&ampy"]

    public mutating func block() -> String {
        switch random.below(20) {
        case 0: return "<h\(1 + random.below(3))>\(inline(words: 3 + random.below(5)))</h\(1 + random.below(3))>\n"
        case 1, 2: return list(depth: 0)
        case 3: return "<blockquote><p>\(inline(words: 10 + random.below(20)))</p></blockquote>\n"
        case 4: return "<pre><code class=\"language-swift\">let x = 1 &lt; 2\n  print(x)\n</code></pre>\n"
        case 5: return table()
        case 6: return "<p><img src=\"https://example.com/\(random.below(999)).png\" alt=\"figure\"></p>\n"
        case 7: return "<div class=\"MsoNormal\" style=\"margin:0cm;line-height:12pt\"><span style=\"font-size:11pt;color:#1F497D\">\(inline(words: 12))</span><o:p></o:p></div>\n"
        case 8: return "<!-- comment \(random.below(100)) --><p>\(inline(words: 15))\n"
        default: return "<p>\(inline(words: 15 + random.below(50)))</p>\n"
        }
    }

    private mutating func inline(words count: Int) -> String {
        var out = ""
        var index = 0
        while index < count {
            if index > 0 { out += random.chance(4) ? "<br>" : " " }
            let word = random.pick(Self.words)
            switch random.below(30) {
            case 0: out += "<b>\(word)</b>"
            case 1: out += "<strong>\(word) \(random.pick(Self.words))</strong>"
            case 2: out += "<i>\(word)</i>"
            case 3: out += "<em>\(word)</em>"
            case 4: out += "<a href=\"https://example.com/\(random.below(999))?a=1&amp;b=2\" title=\"t\">\(word)</a>"
            case 5: out += "<span style=\"color:#FF0000;font-weight:bold\">\(word)</span>"
            case 6: out += "<code>\(word)</code>"
            case 7: out += "<b>\(word)<i>\(word)</b>\(word)</i>"
            case 8: out += "<u>\(word)</u>"
            case 9: out += "<font color=\"red\">\(word)</font>"
            default: out += word
            }
            index += 1
        }
        return out
    }

    private mutating func list(depth: Int) -> String {
        let tag = random.chance(70) ? "ul" : "ol"
        var out = "<\(tag)>"
        for _ in 0..<(2 + random.below(4)) {
            out += "<li>\(inline(words: 4 + random.below(10)))"
            if depth < 2 && random.chance(20) { out += list(depth: depth + 1) }
            out += random.chance(90) ? "</li>" : ""
            if depth < 2 && random.chance(5) { out += list(depth: depth + 1) }
        }
        return out + "</\(tag)>\n"
    }

    private mutating func table() -> String {
        var out = "<table border=\"1\"><tbody>"
        for _ in 0..<(1 + random.below(4)) {
            out += "<tr>"
            for _ in 0..<(1 + random.below(3)) { out += "<td>\(inline(words: 3))</td>" }
            out += "</tr>"
        }
        return out + "</tbody></table>\n"
    }
}

/// A generator of HTML one block at a time, of which fragments of a given size are made.
public protocol HTMLBlockGenerator {
    mutating func block() -> String
}

extension HTMLBlockGenerator {
    /// Blocks until the fragment has roughly `bytes` bytes.
    public mutating func fragment(approximateBytes bytes: Int) -> String {
        var out = ""
        while out.utf8.count < bytes {
            out += block()
        }
        return out
    }
}
