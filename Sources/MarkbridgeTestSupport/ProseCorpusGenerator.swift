/// Generates HTML shaped like the articles in `../shared/data/samples/` rather than like a stress
/// test: long paragraphs of running text, formatting and links on whole words now and then,
/// headings, lists and a quote, entities where editors leave them. `article-ru.html` has a tag
/// every 58 bytes; this has one every 50 to 60 (the stress corpus: every 18), with the same mix
/// of Latin, Cyrillic and CJK words as the other generators.
public struct ProseCorpusGenerator: HTMLBlockGenerator {
    private var random: SeededRandom

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    public mutating func block() -> String {
        switch random.below(20) {
        case 0, 1: return "<h\(2 + random.below(2))>\(sentence(words: 3 + random.below(6)))</h\(2 + random.below(2))>"
        case 2, 3: return list()
        case 4: return "<blockquote><p>\(sentence(words: 15 + random.below(25)))</p></blockquote>"
        case 5: return "<p><img src=\"https://example.com/\(random.below(999)).png\" alt=\"\(sentence(words: 2))\"></p>"
        default: return "<p>\(paragraph())</p>"
        }
    }

    private mutating func paragraph() -> String {
        (0..<(2 + random.below(4))).map { _ in sentence(words: 8 + random.below(18)) }.joined(separator: " ")
    }

    private mutating func list() -> String {
        let tag = random.chance(60) ? "ul" : "ol"
        let items = (0..<(2 + random.below(4))).map { _ in "<li>\(sentence(words: 6 + random.below(14)))</li>" }
        return "<\(tag)>" + items.joined() + "</\(tag)>"
    }

    /// Words, some of them formatted or linked, a few words at a time; a full stop at the end.
    private mutating func sentence(words count: Int) -> String {
        var out = ""
        var index = 0
        while index < count {
            if index > 0 { out += random.chance(2) ? "&nbsp;" : " " }
            let span = min(count - index, 1 + random.below(3))
            let words = (0..<span).map { _ in random.pick(DocumentGenerator.ordinaryWords) }.joined(separator: " ")
            switch random.below(48) {
            case 0: out += "<b>\(words)</b>"
            case 1: out += "<strong>\(words)</strong>"
            case 2: out += "<em>\(words)</em>"
            case 3: out += "<a href=\"https://example.com/\(random.below(999))\">\(words)</a>"
            case 4: out += "<i>\(words)</i>"
            case 5 where random.chance(30): out += "<span style=\"color:#C00000\">\(words)</span>"
            case 6 where random.chance(30): out += "<u>\(words)</u>"
            default: out += words
            }
            index += span
        }
        return out + "."
    }
}
