import Testing
@_spi(InlineTraversal) import MarkbridgeIR
@testable import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// cmark parses large input a piece at a time, cut before a line that follows a blank line and
/// starts with a letter (`MarkdownPieces`); reading in pieces must give exactly the document and
/// the diagnostics, lines included, of one parse of the whole.
@Suite("Markdown read in pieces")
struct MarkdownPiecesTests {
    static func cut(_ text: String, after offset: Int = 0) -> Int? {
        MarkdownPieces.cut(in: Array(text.utf8).span, after: offset)
    }

    @Test("A cut goes before a line starting with a letter after a blank line, and nowhere else")
    func cuts() {
        #expect(Self.cut("a\n\nb\n") == 3)
        #expect(Self.cut("a\n \t\nb") == 5)
        #expect(Self.cut("a\r\n\r\nb") == 5)
        #expect(Self.cut("a\r\rb") == 3)
        #expect(Self.cut("a\n\nпривет\n") == 3)
        #expect(Self.cut("a\n\nb\n\nc\n", after: 3) == 6)
        // Lines that start other blocks, or may: lists, quotes, fences, HTML, indentation, a
        // link reference definition, digits (an ordered list), a byte-order mark.
        for start in ["- b", "* b", "+ b", "> b", "```", "~~~", "<div>", " b", "\tb", "[b]", "# b", "1. b", "_b_", "=", "\u{FEFF}b"] {
            #expect(Self.cut("a\n\n" + start + "\n") == nil, "\(start.debugDescription)")
        }
        // No blank line before.
        #expect(Self.cut("a\nb\n") == nil)
        #expect(Self.cut("a\n\n") == nil)
    }

    @Test("Input that may define a link reference is not cut")
    func linkReferences() {
        func defines(_ text: String) -> Bool { MarkdownPieces.mayDefineLinkReference(Array(text.utf8).span) }
        #expect(defines("[a]: /url"))
        #expect(defines("x\n\n> [a\nb]: /url"))
        #expect(defines(#"[a\\]: /url"#))
        #expect(!defines(#"[a\]: /url"#))
        #expect(!defines(#"[a\\\]: /url"#))
        #expect(!defines("[a] : /url [b](c) ]"))
    }

    @Test("Lines are counted as cmark counts them: LF, CR and CR LF")
    func lineCount() {
        let bytes = Array("a\nb\r\nc\rd\n\n".utf8)
        #expect(MarkdownPieces.lineCount(bytes.span, in: 0..<bytes.count) == 5)
        #expect(MarkdownPieces.lineCount(bytes.span, in: 0..<5) == 2)
    }

    static func pieces(_ text: String, pieceBytes: Int) -> Int {
        var count = 0
        let bytes = Array(text.utf8)
        let walked = CmarkLibrary.walk(bytes, pieceBytes: pieceBytes) { event, _ in
            if case .document = event.kind, event.isEnter { count += 1 }
        }
        #expect(walked == count)
        return walked
    }

    @Test("A fenced code block or HTML block open at a cut makes the piece longer")
    func openBlocks() {
        let tail = String(repeating: "c\n\n", count: 10)
        // The first cut, before `b`, lies inside the block: the piece is read again twice as
        // long, to the cut before the third `c`, and every `c` after it is a piece.
        #expect(Self.pieces("a\n\n```\nx\n\nb\n\n```\n" + tail, pieceBytes: 1) == 9)
        #expect(Self.pieces("a\n\n<!--\nx\n\nb\n\n-->\n" + tail, pieceBytes: 1) == 9)
        #expect(Self.pieces("a\n\n<pre>\nx\n\nb\n\n</pre>\n" + tail, pieceBytes: 1) == 9)
        // Closed ones end their piece: `a` and the fence, then `b`, then each `c`.
        #expect(Self.pieces("a\n\n```\nx\n```\n\nb\n\n" + tail, pieceBytes: 1) == 12)
        // Small input is one piece, whatever it holds.
        #expect(Self.pieces("a\n\nb\n\n" + tail, pieceBytes: 100) == 1)
        // A link reference definition anywhere: one piece.
        #expect(Self.pieces("a\n\n[b]\n\n" + tail + "[b]: /url\n", pieceBytes: 1) == 1)
        for text in ["a\n\n```\nx\n\nb\n\n```\n", "a\n\n<!--\nx\n\nb\n\n-->\n", "a\n\n<pre>\nx\n\nb\n\n</pre>\n"] {
            Self.expectSameRead(text + tail, "open block")
        }
    }

    static func expectSameRead(_ text: String, _ label: String) {
        let bytes = Array(text.utf8)
        var wholeCache = MarkdownReader.InlineTagCache(), piecesCache = MarkdownReader.InlineTagCache()
        let whole = MarkdownReader().readChecked(bytes, tagCache: &wholeCache, pieceBytes: Int.max)
        let pieces = MarkdownReader().readChecked(bytes, tagCache: &piecesCache, pieceBytes: 1)
        #expect(pieces.value == whole.value, "\(label)\n\(text)")
        #expect(pieces.diagnostics == whole.diagnostics, "\(label)\n\(text)")
    }

    /// Separators between examples: most make a cut, some leave the next example in the block before.
    static let separators = ["\n\nword\n\n", "\n\nЖ\n", "\n", "\n\n", "\r\n\r\nz\r\n\r\n", "\n\nx\n    y\n\n", "\n\n", "\n\nend\n\n"]

    @Test("In pieces or whole, the CommonMark spec's examples read the same, strung together at random",
          .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"), arguments: [1, 2, 3, 4, 5, 6])
    func specExamples(seed: UInt64) {
        let examples = CommonMarkSpecTests.examples.map(\.markdown).filter { !MarkdownPieces.mayDefineLinkReference(Array($0.utf8).span) }
        #expect(examples.count > 500)
        var random = SeededRandom(seed: seed)
        var documents = 0
        var cut = 0
        for _ in 0..<60 {
            var text = ""
            for _ in 0..<(5 + random.below(20)) { text += random.pick(examples) + random.pick(Self.separators) }
            Self.expectSameRead(text, "seed \(seed)")
            documents += 1
            if Self.pieces(text, pieceBytes: 1) > 1 { cut += 1 }
        }
        // A document that ends inside a fence opened early has no cut: most have some.
        #expect(documents == 60 && cut >= 50)
    }

    @Test("In pieces or whole, generated documents written as Markdown read the same", arguments: [11, 12, 13])
    func generated(seed: UInt64) throws {
        var generator = DocumentGenerator(seed: seed, profile: .hostile)
        var cut = 0
        for index in 0..<80 {
            let markdown = String(decoding: try MarkdownWriter().write(generator.document(blockCount: 4 + index % 30)).value, as: UTF8.self)
            Self.expectSameRead(markdown, "seed \(seed) document \(index)")
            if Self.pieces(markdown, pieceBytes: 1) > 1 { cut += 1 }
        }
        #expect(cut > 40)
    }

    @Test("Diagnostics in a later piece name their line in the whole input")
    func diagnosticLines() {
        let bytes = Array("a\n\nb\n\nc [x](javascript:alert(1))\n".utf8)
        var cache = MarkdownReader.InlineTagCache()
        let read = MarkdownReader().readChecked(bytes, tagCache: &cache, pieceBytes: 1)
        #expect(read.diagnostics.map(\.code) == ["unsafe-url"])
        #expect(read.diagnostics.map { $0.location?.line } == [5])
    }
}
