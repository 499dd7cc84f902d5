import Markbridge
import MarkbridgeTestSupport
import Testing

/// Properties over generated templates: the text is the naive substitution of the pieces the
/// generator laid down, and each kind of markup covers, unit for unit, what the template's
/// covered (a value when its whole placeholder was covered).
@Suite("Templates: properties over generated templates")
struct TemplatePropertyTests {
    /// One piece of a generated block's text.
    enum Piece {
        case literal(String)
        case percentSign
        /// A placeholder's spelling and the value that replaces it.
        case placeholder(String, value: String)

        var template: String {
            switch self {
            case .literal(let text): text
            case .percentSign: "%%"
            case .placeholder(let spelling, _): spelling
            }
        }

        var output: String {
            switch self {
            case .literal(let text): text
            case .percentSign: "%"
            case .placeholder(_, let value): value
            }
        }
    }

    /// Literals that cannot run into a placeholder with their neighbours: no `%` or `}`, and a
    /// `{` only before a space. Right-to-left, CJK, emoji and a line break among them.
    static let literals = ["a", "word ", " ", "\n", "{ ", "שלום ", "مرحبا", "日本", "👍", "👨‍👩‍👧", "🇯🇵", "<b>", "**", "&amp;", "$", "@", "1"]
    /// Values hold everything a template treats specially, and emoji.
    static let textValues = ["", "Tanaka", "<b>x</b>", "**y**", "%@", "%1$@", "{a}", "%%", "😀", "👨‍👩‍👧 family", "עברית", "a\nb", " spaced "]
    static let kinds: [MarkupKind] = [.strong, .emphasis, .code, .link(LinkTarget(href: "https://example.com/"))]

    struct Generated {
        var template: Document
        var blocks: [[Piece]]
        var values: [String]
        var named: [String: String]
    }

    static func generate(_ random: inout SeededRandom) -> Generated {
        let positional = random.chance(50)
        let valueCount = 1 + random.below(4)
        // Some positions take whole numbers, so that %d can take them too.
        let isInteger = (0..<valueCount).map { _ in random.chance(30) }
        let values = isInteger.map { $0 ? String(random.below(2_001) - 1_000) : random.pick(textValues) }
        let named = ["a": random.pick(textValues), "b_2": random.pick(textValues), "_c": String(random.below(10))]
        var used = Array(repeating: false, count: valueCount)
        var sequential = 0
        var blocks: [[Piece]] = []
        for _ in 0..<(1 + random.below(3)) {
            var pieces: [Piece] = []
            for _ in 0..<random.below(12) {
                switch random.below(10) {
                case 0...3:
                    pieces.append(.literal(random.pick(literals)))
                case 4:
                    pieces.append(.percentSign)
                case 5, 6:
                    let name = random.pick(Array(named.keys.sorted()))
                    pieces.append(.placeholder("{\(name)}", value: named[name] ?? ""))
                default:
                    let position = positional ? random.below(valueCount) : sequential
                    guard position < valueCount else { continue }
                    sequential += 1
                    used[position] = true
                    let conversion = isInteger[position] ? random.pick(["@", "d", "i", "ld"]) : "@"
                    pieces.append(.placeholder(positional ? "%\(position + 1)$\(conversion)" : "%\(conversion)", value: values[position]))
                }
            }
            blocks.append(pieces)
        }
        // Every value taken, none left over: a position no placeholder took gets one at the
        // end; sequential values past the last placeholder and names never used are not given.
        if positional {
            for position in used.indices where !used[position] {
                blocks[blocks.count - 1].append(.placeholder("%\(position + 1)$@", value: values[position]))
            }
        }
        let keptValues = positional ? values : Array(values.prefix(sequential))
        var keptNamed: [String: String] = [:]
        for pieces in blocks {
            for case .placeholder(let spelling, let value) in pieces where spelling.hasPrefix("{") {
                keptNamed[String(spelling.dropFirst().dropLast())] = value
            }
        }
        var document = Document(blocks: blocks.map { pieces in
            let text = pieces.map(\.template).joined()
            let length = text.utf16.count
            let boundaries = boundaryOffsets(text)
            var markups: [Markup] = []
            for _ in 0..<random.below(5) where length > 0 {
                let start = random.pick(boundaries), end = random.pick(boundaries)
                guard start < end else { continue }
                let kind = random.pick(kinds)
                // Links never overlap: one at most.
                if case .link = kind, markups.contains(where: { if case .link = $0.kind { true } else { false } }) { continue }
                markups.append(Markup(kind, start: start, end: end))
            }
            return Block(.paragraph, text: text, markups: markups)
        })
        document.canonicalize()
        return Generated(template: document, blocks: blocks, values: keptValues, named: keptNamed)
    }

    /// Every UTF-16 offset of `text` that is a scalar boundary.
    static func boundaryOffsets(_ text: String) -> [Int] {
        var offsets = [0], offset = 0
        for scalar in text.unicodeScalars {
            offset += scalar.utf16.count
            offsets.append(offset)
        }
        return offsets
    }

    /// For each output unit, the template range it comes from: a literal unit from its own
    /// unit, a value's unit from its whole placeholder.
    static func sources(_ pieces: [Piece]) -> [TextRange] {
        var result: [TextRange] = []
        var offset = 0
        for piece in pieces {
            let length = piece.template.utf16.count
            switch piece {
            case .literal:
                result += (0..<length).map { TextRange(start: offset + $0, end: offset + $0 + 1) }
            case .percentSign, .placeholder:
                result += Array(repeating: TextRange(start: offset, end: offset + length), count: piece.output.utf16.count)
            }
            offset += length
        }
        return result
    }

    /// The units each markup kind covers.
    static func coverage(_ block: Block) -> [String: Set<Int>] {
        var result: [String: Set<Int>] = [:]
        for markup in block.markups {
            result["\(markup.kind)", default: []].formUnion(markup.range.start..<markup.range.end)
        }
        return result
    }

    @Test("2,000 generated templates: the naive substitution's text, the template's coverage, canonical form")
    func generatedTemplates() throws {
        var random = SeededRandom(seed: 26)
        for iteration in 0..<2_000 {
            let generated = Self.generate(&random)
            let filled: Diagnosed<Document>
            do {
                filled = try generated.template.substitutingPlaceholders(generated.values, named: generated.named)
            } catch {
                Issue.record("template \(iteration) \(generated.template): \(error)")
                continue
            }
            #expect(filled.value.blocks.count == generated.blocks.count)
            #expect(filled.value.invariantViolations().isEmpty, "template \(iteration)")
            for (index, pieces) in generated.blocks.enumerated() where index < filled.value.blocks.count {
                let block = filled.value.blocks[index], templateBlock = generated.template.blocks[index]
                #expect(block.text == pieces.map(\.output).joined(), "template \(iteration) block \(index)")
                // What each kind should cover: the output units whose whole source it covered.
                let templateCoverage = Self.coverage(templateBlock)
                var expected: [String: Set<Int>] = [:]
                for (unit, source) in Self.sources(pieces).enumerated() {
                    for (kind, covered) in templateCoverage where (source.start..<source.end).allSatisfy(covered.contains) {
                        expected[kind, default: []].insert(unit)
                    }
                }
                #expect(Self.coverage(block) == expected.filter { !$0.value.isEmpty }, "template \(iteration) block \(index): \(templateBlock)")
            }
        }
    }

    @Test("A pure value function: 200 substitutions from concurrent tasks equal the same ones made in turn")
    func concurrent() async throws {
        let template = try Converter().read(Array("<p>Dear <b>{name}</b>, %1$@ <i>owes</i> %2$d.</p><ul><li>{name}: %2$d</li></ul>".utf8), from: .html).value
        let arguments = (0..<200).map { (["👤\($0)", String($0)], ["name": "user \($0) <b>"]) }
        let sequential = try arguments.map { try template.substitutingPlaceholders($0.0, named: $0.1) }
        let concurrent = await withTaskGroup(of: (Int, Diagnosed<Document>?).self) { group in
            for (index, argument) in arguments.enumerated() {
                group.addTask { (index, try? template.substitutingPlaceholders(argument.0, named: argument.1)) }
            }
            var results = [Diagnosed<Document>?](repeating: nil, count: arguments.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
        #expect(concurrent == sequential.map { Optional($0) })
        #expect(sequential[7].value.blocks[0].text == "Dear user 7 <b>, 👤7 owes 7.")
    }

    @Test("Linear: twice the placeholders, markups and value text take about twice as long")
    func linear() throws {
        func template(_ count: Int) -> Document {
            let text = String(repeating: "ab {name} %@ c%% ", count: count)
            let markups = (0..<count).flatMap { index in
                [Markup(.strong, start: index * 17, end: index * 17 + 9), Markup(.emphasis, start: index * 17 + 4, end: index * 17 + 14)]
            }
            return Document(blocks: [Block(.paragraph, text: text, markups: markups)]).canonicalized()
        }
        let small = template(20_000), large = template(40_000)
        let smallValues = Array(repeating: "👍 value", count: 20_000), largeValues = Array(repeating: "👍 value", count: 40_000)
        let ratios = LinearTime.ratios(small: [0], large: [1], runs: 2) { which in
            if which == [0] {
                _ = try? small.substitutingPlaceholders(smallValues, named: ["name": "Tanaka"])
            } else {
                _ = try? large.substitutingPlaceholders(largeValues, named: ["name": "Tanaka"])
            }
        }
        #expect(ratios.contains { $0 < 2.5 }, "time ratios for 2n against n were \(ratios)")
    }
}
