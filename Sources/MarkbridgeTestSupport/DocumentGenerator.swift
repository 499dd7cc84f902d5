@_spi(InlineTraversal) import MarkbridgeIR

/// Generates canonical IR documents from a seed: the realistic shape of stored articles
/// (headings, paragraphs, nested lists, quotes, code, images) with text that stresses offsets
/// (astral characters, combining marks, emoji sequences, CJK) and Markdown syntax, and random
/// overlapping markups. Shared by the round-trip properties and the benchmark corpus.
public struct DocumentGenerator {
    public struct Profile: Sendable {
        /// Share of words drawn from the hostile list (astral, combining, syntax) in percent.
        public var hostileWordPercent: Int
        public var maxMarkupsPerBlock: Int
        /// Share of link and image titles and URLs, code languages and list numbers drawn from
        /// the hostile lists below, in percent. Zero draws nothing extra from the generator, so
        /// profiles without it give the same documents they always have.
        public var hostileAttributePercent: Int

        public init(hostileWordPercent: Int, maxMarkupsPerBlock: Int, hostileAttributePercent: Int = 0) {
            self.hostileWordPercent = hostileWordPercent
            self.maxMarkupsPerBlock = maxMarkupsPerBlock
            self.hostileAttributePercent = hostileAttributePercent
        }

        /// Mostly ordinary prose, as a migration corpus would be.
        public static let realistic = Profile(hostileWordPercent: 3, maxMarkupsPerBlock: 6)
        /// Every edge case as often as possible, for property tests.
        public static let hostile = Profile(hostileWordPercent: 40, maxMarkupsPerBlock: 10, hostileAttributePercent: 30)
    }

    var random: SeededRandom
    let profile: Profile

    public init(seed: UInt64, profile: Profile = .realistic) {
        random = SeededRandom(seed: seed)
        self.profile = profile
    }

    /// A generator whose decisions are `entropy`'s bytes, one a decision (``SeededRandom/init(entropy:)``):
    /// the fuzzer's mutations of the bytes are then mutations of the document's structure.
    public init(entropy: [UInt8], profile: Profile = .hostile) {
        random = SeededRandom(entropy: entropy)
        self.profile = profile
    }

    static let ordinaryWords = [
        "the", "migration", "of", "stored", "documents", "keeps", "every", "character", "and", "markup",
        "paragraph", "client", "renders", "text", "quickly", "without", "HTML", "engine", "Привет", "команда",
        "дизайн", "процессы", "同意", "提供", "身分證字號", "物流", "日本語", "です", "強調", "consent",
        "naïve", "café", "offset", "range", "link", "bold", "italic", "Samokat", "tech", "2026",
    ]

    static let hostileWords = [
        "👍", "👨‍👩‍👧‍👦", "🇺🇦", "e\u{301}", "a\u{308}\u{323}", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "日本**「強調」**です", "*a*", "_b_",
        "# c", "1.", "- e", "[f](g)", "`h`", "<script>", "&amp;", "\\", "**foo.**bar", "a*(b)*c", "> q",
        "===", "---", "~~", "|", "\u{202E}rtl", "\u{2028}", "tab\there", "\u{FEFF}", "0x7F\u{7F}", "\u{FFFD}",
    ]

    /// Titles and alt text a reader decodes or a writer could let out: blank lines, raw HTML,
    /// character references, backslashes, quotes, controls.
    static let hostileTitles = [
        "a\n\n<img src=x onerror=alert(1)>\n\n", "<script>alert(1)</script>", "&amp; &#10; &colon;", "\\\" back\\slash \\",
        "\"q\"", " edges ", "x\r\ny", "tab\tand\u{1B}[0m", "```", "> q\n- l", "&#106;", "(paren", "*a* _b_",
    ]

    /// URLs as a reader leaves them (after the URL policy's clean-up) that CommonMark would
    /// decode or cut: references, escapes, spaces, parentheses, angle brackets.
    static let hostileURLs = [
        "&#106;avascript:alert(1)", "javascript&colon;alert(1)", "https://x/a&amp;b", "/p?a=1&b=2", "https://e.x/a b(c)<d>",
        "/a(b", "/((((((((((x))))))))))", "https://x/\\", "<javascript:x>", "a\\&amp;b", "https://x/\"q\"", "",
    ]

    /// One-word languages a fence has to take care with.
    static let hostileLanguages = ["c++", "a&amp;b", "x`y", "~tilde", "`tick", "\\back", "&#10;", "\"q\""]

    /// List numbers at and around the ends of what every format carries.
    static let edgeListNumbers = [0, 1, 9, 10, 99_999_999, 999_999_998, 999_999_999]

    /// Anchors (HTML ids) as every format carries them: characters an attribute or Markdown's
    /// inline HTML must take care with, but none an anchor may not hold.
    static let anchors = ["intro", "section-2", "a&b", "日本語", "👍", "x_y.z", "#hash", "a%20b", "[1]", "e\u{301}"]

    /// `ordinary`, or now and then (under a hostile profile only) one from `list`.
    mutating func hostileAttribute<T>(_ list: [T], else ordinary: T) -> T {
        guard profile.hostileAttributePercent > 0, random.chance(profile.hostileAttributePercent) else { return ordinary }
        return random.pick(list)
    }

    /// An image's size (width, height, both, or neither; 0 and the largest kept among them), only
    /// where the profile draws attributes, so realistic documents stay as they were.
    mutating func imageSize() -> (width: Int?, height: Int?) {
        guard profile.hostileAttributePercent > 0, random.chance(40) else { return (nil, nil) }
        func dimension(_ random: inout SeededRandom) -> Int {
            random.chance(10) ? random.pick([0, 1, Embed.maxDimension]) : 16 + random.below(1200)
        }
        switch random.below(4) {
        case 0: return (dimension(&random), nil)
        case 1: return (nil, dimension(&random))
        default: return (dimension(&random), dimension(&random))
        }
    }

    /// Whether the profile draws the shapes of containers kept apart and anchors (sibling
    /// lists, quotes and definition lists, empty quotes, ids): only where it draws attributes,
    /// so realistic documents stay as they were.
    private var drawsContainerShapes: Bool { profile.hostileAttributePercent > 0 }

    /// `chance` percent of the time, where the profile draws container shapes.
    private mutating func drawsShape(_ chance: Int) -> Bool {
        drawsContainerShapes && random.chance(chance)
    }

    /// Blocks in a structure every format can carry: list depth grows one level at a time,
    /// and a paragraph continues a list item only right after one; an ordered list's items
    /// are numbered one after another (Markdown numbers them so: an item out of turn begins a
    /// list of its own). Under a hostile profile, lists, quotes and definition lists now and
    /// then begin beside one of their kind (``Block/containerStart``), quotes are empty, and
    /// blocks have anchors.
    public mutating func document(blockCount: Int) -> Document {
        var blocks: [Block] = []
        var listDepth = -1
        // For each depth of the open lists: whether it is ordered, and its last number.
        var openLists: [(ordered: Bool, number: Int)] = []
        for _ in 0..<blockCount {
            let roll = random.below(100)
            var block: Block
            var staysInList = false
            switch roll {
            case 0..<8:
                block = Block(.heading(level: 1 + random.below(6)), text: sentence(words: 2 + random.below(6)))
            case 8..<45:
                block = Block(.paragraph, text: sentence(words: 8 + random.below(40)))
            case 45..<52:
                block = Block(.blockquote, text: drawsShape(15) ? "" : sentence(words: 5 + random.below(20)), quoteDepth: 1 + random.below(2))
                // A quote beside the one before: the outer one, or (in two) the inner one, begins here.
                if drawsShape(30) { block.containerStart = random.below(block.quoteDepth) }
                if drawsShape(30) {
                    // And another beside it.
                    block.markups = markups(over: block.text)
                    block.canonicalize()
                    blocks.append(block)
                    block = Block(.blockquote, text: drawsShape(15) ? "" : sentence(words: 5 + random.below(20)), quoteDepth: block.quoteDepth)
                    block.containerStart = random.below(block.quoteDepth)
                }
            case 52..<72:
                listDepth = max(0, min(listDepth + 1, listDepth + random.below(3) - 1))
                var kind: BlockKind = roll < 62 ? .unorderedListItem
                    : .orderedListItem(number: hostileAttribute(Self.edgeListNumbers, else: 1 + random.below(20)))
                // A list beside the one before at its depth, of its kind.
                let beginsList = drawsShape(20)
                if openLists.count > listDepth + 1 { openLists.removeSubrange((listDepth + 1)...) }
                if beginsList, listDepth < openLists.count {
                    kind = openLists[listDepth].ordered ? .orderedListItem(number: 1 + random.below(20)) : .unorderedListItem
                }
                if listDepth < openLists.count, case .orderedListItem = kind, openLists[listDepth].ordered, !beginsList {
                    let next = openLists[listDepth].number + 1
                    if ListNumber.range.contains(next) { kind = .orderedListItem(number: next) }
                }
                block = Block(kind, text: sentence(words: 3 + random.below(15)), depth: listDepth)
                if beginsList { block.containerStart = block.containerChainCount - 1 }
                let number = if case .orderedListItem(let number) = block.kind { number } else { 0 }
                let continues = listDepth < openLists.count && openLists[listDepth].ordered == block.kind.isOrdered && !beginsList
                    && (!block.kind.isOrdered || number == openLists[listDepth].number + 1)
                if !continues, case .orderedListItem = kind, listDepth < openLists.count, openLists[listDepth].ordered {
                    // Out of turn (past the largest number): a list of its own, as Markdown reads it.
                    block.containerStart = block.containerChainCount - 1
                }
                if listDepth < openLists.count { openLists[listDepth] = (block.kind.isOrdered, number) } else { openLists.append((block.kind.isOrdered, number)) }
                staysInList = true
            case 72..<76 where listDepth >= 0:
                // A further paragraph of the last list item, or (where the profile draws
                // attributes) a quote inside it, or a quote in a quote.
                if profile.hostileAttributePercent > 0 && random.chance(40) {
                    let quotes = 1 + random.below(2)
                    block = Block(.blockquote, text: drawsShape(15) ? "" : sentence(words: 5 + random.below(10)), depth: listDepth + 1, quoteDepth: quotes,
                                  quoteListDepths: Array(repeating: listDepth + 1, count: quotes))
                    // A quote beside the item's quote before it.
                    if drawsShape(30) { block.containerStart = listDepth + 1 }
                } else {
                    block = Block(.paragraph, text: sentence(words: 5 + random.below(10)), depth: listDepth + 1)
                }
                staysInList = true
            case 76..<82:
                let language: String? = random.chance(60) ? hostileAttribute(Self.hostileLanguages, else: random.pick(["swift", "python", "js"])) : nil
                block = Block(.codeBlock(language: language), text: code())
            case 82..<85 where profile.hostileAttributePercent > 0 && random.chance(40):
                // Embeds only where the profile draws attributes, so realistic documents stay as they were.
                let kind = random.pick(Embed.Kind.allCases)
                var drawn = hostileAttribute(Self.hostileURLs, else: "https://media.example.com/\(random.below(1000))")
                // A frame or an object needs a host of its own to be embedded (a relative one is
                // written as a link): resolved, the hostile characters stay.
                if kind.runsDocuments, URLPolicy.scheme(of: URLPolicy.cleaned(drawn)) == nil {
                    drawn = URLReference.resolve(URLPolicy.cleaned(drawn), against: "https://media.example.com/")
                }
                let embed = Embed(kind, src: drawn.isEmpty ? "https://media.example.com/empty" : drawn,
                                  poster: kind == .video && random.chance(50) ? "https://media.example.com/poster.jpg" : nil,
                                  width: random.chance(50) ? 100 + random.below(1000) : nil, height: random.chance(50) ? 100 + random.below(700) : nil,
                                  title: random.chance(50) ? hostileAttribute(Self.hostileTitles, else: sentence(words: 3)) : nil)
                block = Block(.embed(embed), text: random.chance(60) ? sentence(words: 4 + random.below(8)) : "")
            case 82..<85:
                var image = ImageSource(src: hostileAttribute(Self.hostileURLs, else: "https://example.com/\(random.below(1000)).png"),
                                        alt: random.chance(70) ? hostileAttribute(Self.hostileTitles, else: sentence(words: 3)) : nil,
                                        title: random.chance(20) ? hostileAttribute(Self.hostileTitles, else: "Figure") : nil)
                (image.width, image.height) = imageSize()
                block = Block(.image(image),
                              text: drawsShape(40) ? sentence(words: 2 + random.below(8)) : "")
            case 85..<88 where profile.hostileAttributePercent > 0 && random.chance(40):
                // Tables only where the profile draws attributes, as embeds.
                listDepth = -1
                openLists = []
                // A caption, the table's first block (`<caption>`).
                if drawsShape(25) {
                    var caption = Block(.tableCaption, text: sentence(words: 2 + random.below(5)))
                    caption.markups = markups(over: caption.text)
                    if drawsShape(10) { caption.anchor = random.pick(Self.anchors) }
                    caption.canonicalize()
                    blocks.append(caption)
                }
                var rows = table()
                for index in rows.indices where drawsShape(10) { rows[index].anchor = random.pick(Self.anchors) }
                blocks += rows
                continue
            case 85..<88:
                block = Block(.horizontalRule)
            case 88..<91 where profile.hostileAttributePercent > 0 && random.chance(50):
                // A definition list: terms, each with one or two definitions.
                listDepth = -1
                openLists = []
                // A definition list beside the one before, or two side by side.
                let beginsList = drawsShape(40)
                let secondList = drawsShape(40) ? 1 + random.below(2) : -1
                for index in 0..<(1 + random.below(2) + (secondList > 0 ? secondList : 0)) {
                    var term = Block(.definitionTerm(continues: false), text: sentence(words: 1 + random.below(4)))
                    term.markups = markups(over: term.text)
                    if (index == 0 && beginsList) || index == secondList { term.containerStart = 0 }
                    if drawsShape(10) { term.anchor = random.pick(Self.anchors) }
                    term.canonicalize()
                    blocks.append(term)
                    for _ in 0..<(1 + random.below(2)) {
                        var definition = Block(.definitionDescription(continues: false), text: sentence(words: 3 + random.below(12)))
                        definition.markups = markups(over: definition.text)
                        if drawsShape(10) { definition.anchor = random.pick(Self.anchors) }
                        definition.canonicalize()
                        blocks.append(definition)
                        // A definition of two paragraphs, one element (`<dd><p>…</p><p>…</p></dd>`).
                        if drawsShape(25) {
                            var further = Block(.definitionDescription(continues: true), text: sentence(words: 3 + random.below(12)))
                            further.markups = markups(over: further.text)
                            further.canonicalize()
                            blocks.append(further)
                        }
                    }
                }
                continue
            default:
                block = Block(.paragraph, text: sentence(words: 10 + random.below(30)),
                              alignment: random.chance(20) ? random.pick(TextAlignment.allCases) : nil)
            }
            if !staysInList {
                listDepth = -1
                openLists = []
            }
            if drawsShape(10) { block.anchor = random.pick(Self.anchors) }
            switch block.kind {
            case .codeBlock, .horizontalRule, .tableRow: break
            case .image, .definitionTerm, .definitionDescription, .tableCaption: block.markups = markups(over: block.text)
            case .paragraph, .heading, .blockquote, .unorderedListItem, .orderedListItem, .embed: block.markups = markups(over: block.text)
            }
            block.canonicalize()
            blocks.append(block)
        }
        var document = Document(blocks: drawsContainerShapes ? nested(blocks) : blocks)
        // Starts where the containers begin anyway say nothing: canonical form drops them.
        document.canonicalizeContainerStarts()
        return document
    }
}

private extension BlockKind {
    var isOrdered: Bool {
        if case .orderedListItem = self { true } else { false }
    }
}
