@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeHTMLParser

@Suite("HTML parser: input bytes")
struct ParserInputTests {
    @Test("A14: invalid UTF-8 is refused with the offset of the first bad byte", arguments: [
        ([0x61, 0xC3, 0x28], 1), ([0xC0, 0xAF], 0), ([0x61, 0x62, 0xED, 0xA0, 0x80], 2), ([0xFF], 0), ([0x61, 0xF0, 0x9F, 0x98], 1),
        // The inline paths for two-byte and E1-EC three-byte sequences: cut short, at the end,
        // and after valid ones.
        ([0xD0, 0x9F, 0xD0], 2), ([0xD0, 0x41], 0), ([0xE3, 0x81, 0x82, 0xE3, 0x81], 3), ([0xE3, 0x41, 0x82], 0),
        ([0xE3, 0x81, 0x41], 0), ([0xD0, 0x9F, 0xE0, 0x80, 0x80], 2), ([0xEC, 0xBF, 0xBF, 0xDF, 0xC0], 3),
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) throws {
        #expect(throws: ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte \(offset)",
                                        at: SourceLocation(line: 1, column: offset + 1, byteOffset: offset))) {
            try HTMLParser().parseFragment(bytes)
        }
    }

    @Test("A14: lossy mode, one U+FFFD per maximal invalid subpart, counted and located", arguments: [
        ([0x61, 0xC3, 0x28], "a\u{FFFD}(", 1), ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}", 2),
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}", 3), ([0xFF], "\u{FFFD}", 1), ([0x61, 0xF0, 0x9F, 0x98], "a\u{FFFD}", 1),
    ] as [([UInt8], String, Int)])
    func lossy(bytes: [UInt8], text: String, count: Int) throws {
        let parsed = try HTMLParser(options: .init(repairsInvalidUTF8: true)).parseFragment(bytes)
        #expect(parsed.value.html5libDump() == "| \"\(text)\"")
        #expect(parsed.diagnostics.map(\.description) == [
            "1:\(bytes.firstIndex { $0 >= 0x80 }! + 1): warning: \(count) invalid UTF-8 sequence\(count == 1 ? "" : "s") replaced with U+FFFD [invalid-utf8-replaced]",
        ])
    }

    @Test("A leading byte-order mark is dropped; CR LF and lone CR become LF")
    func bomAndNewlines() throws {
        let parsed = try HTMLParser().parseFragment(Array("\u{FEFF}a\r\nb\rc".utf8))
        #expect(parsed.value.html5libDump() == "| \"a\nb\nc\"")
    }

    @Test("A15: NUL dropped from body text, U+FFFD in attributes, and reported")
    func nul() throws {
        let parsed = try HTMLParser().parseFragment(Array("a\u{0}b<p title=\"x\u{0}y\">c</p>".utf8))
        #expect(parsed.value.html5libDump() == """
            | "ab"
            | <p>
            |   title="x\u{FFFD}y"
            |   "c"
            """)
        #expect(parsed.diagnostics.map(\.code) == ["nul-character"])
        #expect(parsed.diagnostics.first?.location?.column == 2)
    }

    @Test("Every node knows the line, column and byte offset it came from, in the caller's bytes")
    func sourcePositions() throws {
        let source = "\u{FEFF}<p>one\r\n<b>two</b></p>\n<!-- c -->"
        let tree = try HTMLParser().parseFragment(Array(source.utf8)).value
        let root = tree.contentRoot
        let p = try #require(tree.firstChild(of: root))
        let b = try #require(tree.children(of: p).last)
        let comment = try #require(tree.children(of: root).last)
        #expect(tree.sourceLocation(of: p) == SourceLocation(line: 1, column: 1, byteOffset: 3))
        #expect(tree.sourceLocation(of: b) == SourceLocation(line: 2, column: 1, byteOffset: 11))
        #expect(tree.sourceLocation(of: comment) == SourceLocation(line: 3, column: 1, byteOffset: 26))
    }

    @Test("A24: input over the size limit is refused")
    func tooLarge() throws {
        #expect(throws: ConversionError(code: "input-too-large", message: "input is 11 bytes, over the limit of 10")) {
            try HTMLParser(options: .init(maxInputBytes: 10)).parseFragment(Array("hello world".utf8))
        }
    }

    @Test("No option lifts the input limit past what 32-bit offsets can hold")
    func limitIsCapped() {
        #expect(HTMLParser.Options(maxInputBytes: 1 << 40).effectiveMaxInputBytes == 1 << 29)
        // The default is the service's 64 MiB, as for every reader.
        #expect(HTMLParser.Options().effectiveMaxInputBytes == 64 << 20)
        #expect(HTMLParser.Options(maxInputBytes: 10).effectiveMaxInputBytes == 10)
    }
}
