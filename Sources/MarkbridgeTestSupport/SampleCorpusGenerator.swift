/// Records made from real content: HTML samples cut into pieces at element boundaries, pieces of
/// different samples mixed, then dropped, duplicated, swapped and wrapped in formatting or
/// containers, all from a seed, so the same records come out on every run.
public struct SampleCorpusGenerator {
    /// Every balanced element, void element, comment and text run of the samples, at any depth.
    public let pieces: [String]
    private var random: SeededRandom

    /// Pieces longer than this are left out, so records stay small and shapes stay findable.
    static let longestPiece = 1_500

    public init(samples: [String], seed: UInt64) {
        pieces = samples.flatMap { HTMLPieceCutter.pieces(of: $0) }.filter { $0.utf8.count <= Self.longestPiece }
        random = SeededRandom(seed: seed)
    }

    /// Wrappers a record puts around a piece or a run of pieces: inline formatting, blocks and
    /// containers, the shapes stored content nests real pieces in.
    static let wrappers: [(open: String, close: String)] = [
        ("<b>", "</b>"), ("<i>", "</i>"), ("<em>", "</em>"), ("<strong>", "</strong>"), ("<u>", "</u>"),
        ("<s>", "</s>"), ("<code>", "</code>"), ("<sup>", "</sup>"),
        ("<a href=\"https://example.com/w?a=1&amp;b=2\">", "</a>"),
        ("<span style=\"color:#c00;font-weight:bold\">", "</span>"),
        ("<p>", "</p>"), ("<div>", "</div>"), ("<h2>", "</h2>"), ("<blockquote>", "</blockquote>"),
        ("<li>", "</li>"), ("<ul><li>", "</li></ul>"), ("<ol start=\"3\"><li>", "</li></ol>"),
        ("<table><tr><td>", "</td></tr></table>"), ("<pre>", "</pre>"), ("<dl><dt>t</dt><dd>", "</dd></dl>"),
    ]

    static let separators = ["", "\n", " ", "<br>", "\n\n"]

    /// One record: a few pieces from anywhere, mutated.
    public mutating func record() -> String {
        var parts = (0..<(1 + random.below(6))).map { _ in random.pick(pieces) }
        for _ in 0..<random.below(4) {
            let index = random.below(parts.count)
            switch random.below(4) {
            case 0 where parts.count > 1: parts.remove(at: index)
            case 1: parts.insert(parts[index], at: index)
            case 2: parts.swapAt(index, random.below(parts.count))
            default:
                let wrapper = random.pick(Self.wrappers)
                let end = min(parts.count, index + 1 + random.below(2))
                let joined = parts[index..<end].joined()
                parts.replaceSubrange(index..<end, with: [wrapper.open + joined + wrapper.close])
            }
        }
        let separator = random.pick(Self.separators)
        return parts.joined(separator: separator)
    }
}

/// Cuts HTML into pieces at element boundaries without building a tree: a start tag and its
/// matching end tag (same name, counted), a void or unclosed-by-design element alone, a comment,
/// or a run of text between tags. Pieces nest: an element's children are pieces too.
public enum HTMLPieceCutter {
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    struct Tag {
        var name: String
        var isEnd: Bool
        var range: Range<String.Index>
    }

    public static func pieces(of html: String) -> [String] {
        var tags: [Tag] = []
        var pieces: [String] = []
        var textStart = html.startIndex
        var index = html.startIndex
        while index < html.endIndex {
            guard html[index] == "<", let close = tagEnd(in: html, from: index) else {
                index = html.index(after: index)
                continue
            }
            let text = html[textStart..<index]
            if !text.allSatisfy(\.isWhitespace) { pieces.append(String(text)) }
            let body = html[html.index(after: index)..<html.index(before: close)]
            if body.hasPrefix("!") || body.hasPrefix("?") {
                pieces.append(String(html[index..<close]))
            } else {
                let isEnd = body.hasPrefix("/")
                let name = String(body.drop(while: { $0 == "/" }).prefix(while: { !$0.isWhitespace && $0 != "/" && $0 != ">" })).lowercased()
                tags.append(Tag(name: name, isEnd: isEnd, range: index..<close))
            }
            index = close
            textStart = close
        }
        for (position, tag) in tags.enumerated() where !tag.isEnd {
            if voidElements.contains(tag.name) {
                pieces.append(String(html[tag.range]))
                continue
            }
            var open = 0
            for later in tags[(position + 1)...] where later.name == tag.name {
                if !later.isEnd {
                    open += 1
                } else if open == 0 {
                    pieces.append(String(html[tag.range.lowerBound..<later.range.upperBound]))
                    break
                } else {
                    open -= 1
                }
            }
        }
        return pieces
    }

    /// Where the tag or comment opening at `start` ends (past its `>`), or nil for a `<` that opens none.
    static func tagEnd(in html: String, from start: String.Index) -> String.Index? {
        let rest = html[start...]
        if rest.hasPrefix("<!--") {
            guard let end = rest.range(of: "-->") else { return nil }
            return end.upperBound
        }
        let next = html.index(after: start)
        guard next < html.endIndex, html[next].isLetter || html[next] == "/" || html[next] == "!" else { return nil }
        var quote: Character?
        var index = next
        while index < html.endIndex {
            let character = html[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return html.index(after: index)
            }
            index = html.index(after: index)
        }
        return nil
    }
}
