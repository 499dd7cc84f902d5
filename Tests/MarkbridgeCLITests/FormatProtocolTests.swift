import Testing
import Markbridge
import MarkbridgeTestSupport

/// A format is made from a reader type and a writer type (``DocumentReader``,
/// ``DocumentWriter``) and how a conversion's options map to each one's: every format the
/// registry ships reads back what it writes, and a format of the test's own, made the same way,
/// is found by name and file extension and converts through ``Converter`` with its options.
@Suite("Formats made from reader and writer types")
struct FormatProtocolTests {
    @Test("Every registered format reads back what it writes: the same document, or for plain text, which carries no formatting, text that reads back as itself",
          arguments: FormatRegistry.standard.formats.map(\.name))
    func roundTrip(format name: String) throws {
        let format = try #require(FormatRegistry.standard.format(named: name))
        guard format != .gfm || MarkdownReader.gfmVersion != nil else {
            Issue.record("cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev): GFM not round-tripped")
            return
        }
        let converter = Converter()
        var generator = DocumentGenerator(seed: 25, profile: .hostile)
        for index in 0..<60 {
            let document = generator.document(blockCount: 1 + index % 12)
            let written = try converter.write(document, to: format)
            let read = try converter.read(written.value, from: format)
            #expect(read.value.invariantViolations().isEmpty, "\(name) document \(index)")
            guard format == .plainText else {
                // Every other format carries the whole document, and says so by saying nothing.
                #expect(written.diagnostics.isEmpty, "\(name) document \(index): \(written.diagnostics)")
                #expect(read.value == document, "\(name) document \(index)\n\(String(decoding: written.value, as: UTF8.self))")
                continue
            }
            // Text keeps no formatting, and blank and empty lines part paragraphs as they may:
            // what it writes of what it read, it reads back as the same document.
            let rewritten = try converter.write(read.value, to: format)
            let reread = try converter.read(rewritten.value, from: format)
            #expect(try converter.write(reread.value, to: format).value == rewritten.value,
                    "text document \(index)\n\(String(decoding: rewritten.value, as: UTF8.self))")
        }
    }

    @Test("A format of one's own: one conformance each and one registry entry, then by name, by extension and with its options")
    func ownFormat() throws {
        let registry = FormatRegistry(FormatRegistry.standard.formats + [.lines])
        #expect(registry.readableNames.contains("lines") && registry.writableNames.contains("lines"))
        let html = "<p>one <b>two</b></p><p>three</p>"

        let plain = try Converter(registry: registry).convert(Array(html.utf8), from: "html", to: "lines")
        #expect(String(decoding: plain.value, as: UTF8.self) == "one two\nthree\n")
        #expect(plain.diagnostics.map(\.code) == ["markup-dropped"])

        // The conversion's options reach the writer through the format's mapping.
        let numbered = try Converter(registry: registry, options: ConversionOptions(prettyPrinted: true)).convert(html, from: .html, to: .lines)
        #expect(numbered.value == "1. one two\n2. three\n")

        let source = try #require(registry.format(forFileName: "notes.lines"))
        let json = try Converter(registry: registry).convert(Array("first\nsecond".utf8), from: source, to: .markupJSON)
        #expect(String(decoding: json.value, as: UTF8.self)
            == #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"first"},{"type":"P","text":"second"}]}"# + "\n")

        // And the reader's: the conversion's input limit.
        var limited = ConversionOptions()
        limited.limits.maxInputBytes = 4
        #expect(throws: ConversionError(code: "input-too-large", message: "5 bytes, over 4")) {
            try Converter(registry: registry, options: limited).read(Array("first".utf8), from: .lines)
        }
        // Text goes through the protocol's own `read(_:)` over a string.
        #expect(try LinesReader(options: .init(maxInputBytes: 100)).read("a\nb").value.blocks.map(\.text) == ["a", "b"])
    }
}

/// One paragraph a line.
struct LinesReader: DocumentReader {
    struct Options: Sendable {
        var maxInputBytes: Int
    }

    let options: Options

    init(options: Options) {
        self.options = options
    }

    func read(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<Document> {
        guard bytes.count <= options.maxInputBytes else {
            throw ConversionError(code: "input-too-large", message: "\(bytes.count) bytes, over \(options.maxInputBytes)")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        return Diagnosed(Document(blocks: lines.map { Block(.paragraph, text: String($0)) }))
    }
}

/// Each block's text a line, numbered when asked; formatting dropped, and said.
struct LinesWriter: DocumentWriter {
    struct Options: Sendable {
        var numbered: Bool
    }

    let options: Options

    init(options: Options) {
        self.options = options
    }

    func write(_ document: Document) throws(ConversionError) -> Diagnosed<[UInt8]> {
        var out = ""
        var diagnostics: [Diagnostic] = []
        for (index, block) in document.blocks.enumerated() {
            out += (options.numbered ? "\(index + 1). " : "") + block.text + "\n"
            if !block.markups.isEmpty { diagnostics.append(.warning("markup-dropped", "block \(index)'s formatting dropped", block: index)) }
        }
        return Diagnosed(Array(out.utf8), diagnostics: diagnostics)
    }
}

extension Format {
    static let lines = Format(
        name: "lines", summary: "one paragraph a line", fileExtensions: ["lines"],
        reader: LinesReader.self, readerOptions: { options in .init(maxInputBytes: options.limits.maxInputBytes) },
        writer: LinesWriter.self, writerOptions: { options in .init(numbered: options.prettyPrinted) }
    )
}
