import Testing
@testable import MarkbridgeIR
import MarkbridgeTestSupport

@Suite("Canonical form")
struct CanonicalizationTests {
    @Test("Markups sort by start, then longest first, then kind")
    func ordering() {
        var block = Block(.paragraph, text: "0123456789", markups: [
            Markup(.emphasis, start: 2, end: 5),
            Markup(.strong, start: 2, end: 5),
            Markup(.code, start: 0, end: 3),
            Markup(.underline, start: 2, end: 9),
        ])
        block.canonicalize()
        #expect(block.markups == [
            Markup(.code, start: 0, end: 3),
            Markup(.underline, start: 2, end: 9),
            Markup(.strong, start: 2, end: 5),
            Markup(.emphasis, start: 2, end: 5),
        ])
    }

    @Test("The insertion sort of a block's markups orders them as the standard library's stable sort does, ties kept in their order, over random markups, few and many")
    func insertionSortAgreesWithSort() {
        var random = SeededRandom(seed: 20261207)
        // Small offsets, so that ties happen; images that differ only in size, which the order
        // does not look at, so that a sort that does not keep ties in their order is seen.
        let kinds: [MarkupKind] = [
            .strong, .emphasis, .code, .strike,
            .link(LinkTarget(href: "https://a.example/")), .link(LinkTarget(href: "https://b.example/", title: "B")),
            .color(CSSColor(red: 255, green: 0, blue: 0)), .color(CSSColor(red: 0, green: 0, blue: 255)),
            .image(ImageSource(src: "i.png", alt: "i", width: 10)), .image(ImageSource(src: "i.png", alt: "i", width: 20)),
        ]
        for round in 0..<3_000 {
            // Past 32 markups the standard library's sort does it; both paths are taken.
            let count = round % 10 == 0 ? Int.random(in: 33...60, using: &random) : Int.random(in: 0...12, using: &random)
            var markups = (0..<count).map { _ in
                let start = Int.random(in: 0...6, using: &random)
                return Markup(kinds.randomElement(using: &random)!, start: start, end: start + Int.random(in: 0...6, using: &random))
            }
            let expected = markups.sorted(by: MarkupOrder.precedes)
            MarkupOrder.sort(&markups)
            #expect(markups == expected, "round \(round)")
            if markups != expected { return }
        }
    }

    @Test("Overlapping colours: over shared text only the innermost stays (later start, then shorter, then later by value); other markups untouched")
    func overlappingColors() {
        let red = MarkupKind.color(CSSColor(red: 255, green: 0, blue: 0))
        let blue = MarkupKind.color(CSSColor(red: 0, green: 0, blue: 255))
        let green = MarkupKind.color(CSSColor(red: 0, green: 128, blue: 0))
        var block = Block(.paragraph, text: "0123456789", markups: [
            Markup(red, start: 0, end: 6),
            Markup(blue, start: 2, end: 8),
            Markup(green, start: 2, end: 4),
            Markup(.strong, start: 1, end: 9),
            Markup(.background(CSSColor(red: 0, green: 0, blue: 0)), start: 0, end: 9),
        ])
        block.canonicalize()
        #expect(block.markups == [
            Markup(.background(CSSColor(red: 0, green: 0, blue: 0)), start: 0, end: 9),
            Markup(red, start: 0, end: 2),
            Markup(.strong, start: 1, end: 9),
            Markup(green, start: 2, end: 4),
            Markup(blue, start: 4, end: 8),
        ])
        // Equal ranges: the later by value (#0000FF before #FF0000) is the inner one.
        var equal = Block(.paragraph, text: "ab", markups: [Markup(blue, start: 0, end: 2), Markup(red, start: 0, end: 2)])
        equal.canonicalize()
        #expect(equal.markups == [Markup(red, start: 0, end: 2)])
        #expect(Block.colorsOverlap([Markup(red, start: 0, end: 2), Markup(red, start: 1, end: 3)]) == false)
        #expect(Block.colorsOverlap([Markup(red, start: 3, end: 5), Markup(blue, start: 0, end: 4)]))
    }

    @Test("Overlapping colours resolve in O(k log k): 20,000 nested colours canonicalise, each keeping the text only it covers")
    func manyOverlappingColors() {
        let count = 20_000
        let markups = (0..<count).map { index in
            Markup(.color(CSSColor(red: UInt8(index % 255 + 1), green: UInt8(index / 255 % 256), blue: 0)), start: index, end: 2 * count - index)
        }
        var block = Block(.paragraph, text: String(repeating: "x", count: 2 * count), markups: markups.reversed())
        block.canonicalize()
        #expect(block.markups.count == 2 * count - 1)
        #expect(block.markups[count - 1] == Markup(markups[count - 1].kind, start: count - 1, end: count + 1))
        #expect(block.markups.first == Markup(markups[0].kind, start: 0, end: 1))
        #expect(block.markups.last == Markup(markups[0].kind, start: 2 * count - 1, end: 2 * count))
    }

    @Test("Empty ranges are dropped; touching and overlapping equal markups merge")
    func merging() {
        var block = Block(.paragraph, text: "0123456789", markups: [
            Markup(.strong, start: 0, end: 2),
            Markup(.strong, start: 2, end: 4),
            Markup(.strong, start: 3, end: 6),
            Markup(.strong, start: 8, end: 8),
            Markup(.emphasis, start: 7, end: 9),
            Markup(.link(LinkTarget(href: "a")), start: 0, end: 2),
            Markup(.link(LinkTarget(href: "b")), start: 2, end: 4),
        ])
        block.canonicalize()
        #expect(block.markups == [
            Markup(.strong, start: 0, end: 6),
            Markup(.link(LinkTarget(href: "a")), start: 0, end: 2),
            Markup(.link(LinkTarget(href: "b")), start: 2, end: 4),
            Markup(.emphasis, start: 7, end: 9),
        ])
    }

    @Test("Overlapping markups of different kinds stay as they are (STRONG 50..63 with EM 55..69)")
    func overlapKept() {
        var block = Block(.paragraph, text: String(repeating: "x", count: 70), markups: [
            Markup(.emphasis, start: 55, end: 69), Markup(.strong, start: 50, end: 63),
        ])
        block.canonicalize()
        #expect(block.markups == [Markup(.strong, start: 50, end: 63), Markup(.emphasis, start: 55, end: 69)])
    }

    @Test("Adjacent images do not merge: each covers its own U+FFFC")
    func imagesStaySeparate() {
        let image = MarkupKind.image(ImageSource(src: "a.png"))
        var block = Block(.paragraph, text: "\u{FFFC}\u{FFFC}", markups: [
            Markup(image, start: 1, end: 2), Markup(image, start: 0, end: 1), Markup(image, start: 0, end: 1),
        ])
        block.canonicalize()
        #expect(block.markups == [Markup(image, start: 0, end: 1), Markup(image, start: 1, end: 2)])
    }

    @Test("Backgrounds of different values are ordered by value and never merged (one over another shows through where not opaque)")
    func backgroundsByValue() {
        let red = MarkupKind.background(CSSColor(red: 255, green: 0, blue: 0))
        let blue = MarkupKind.background(CSSColor(red: 0, green: 0, blue: 255))
        var block = Block(.paragraph, text: "abcd", markups: [Markup(red, start: 0, end: 2), Markup(blue, start: 0, end: 2)])
        block.canonicalize()
        #expect(block.markups == [Markup(blue, start: 0, end: 2), Markup(red, start: 0, end: 2)])
    }

    @Test("A paragraph inside a quote is a blockquote block, and a blockquote has quoteDepth 1 or more")
    func quoteKinds() {
        var quoted = Block(.paragraph, quoteDepth: 2)
        quoted.canonicalize()
        #expect(quoted.kind == .blockquote && quoted.quoteDepth == 2)
        var bare = Block(.blockquote)
        bare.canonicalize()
        #expect(bare.quoteDepth == 1)
    }

    @Test("Canonicalizing is idempotent over generated documents")
    func idempotent() {
        var generator = GeneratedDocuments.hostile(seed: 7)
        for _ in 0..<200 {
            let document = generator.document(blockCount: 12).canonicalized()
            #expect(document.canonicalized() == document)
            #expect(document.invariantViolations().isEmpty)
        }
    }
}

@Suite("Canonical form: overlapping links")
struct OverlappingLinkTests {
    @Test("C5: where links overlap, the later (inner) one keeps its text and the other is cut around it")
    func separated() {
        let outer = MarkupKind.link(LinkTarget(href: "https://a/"))
        let inner = MarkupKind.link(LinkTarget(href: "https://b/"))
        var block = Block(.paragraph, text: "0123456789", markups: [Markup(outer, start: 0, end: 10), Markup(inner, start: 3, end: 6)])
        block.canonicalize()
        #expect(block.markups == [Markup(outer, start: 0, end: 3), Markup(inner, start: 3, end: 6), Markup(outer, start: 6, end: 10)])
        #expect(Document(blocks: [block]).invariantViolations().isEmpty)
    }
}
