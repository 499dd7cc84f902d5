import Markbridge
import MarkbridgeAttributedString
import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// One conversion path the benchmark times. Every issue that adds a reader or writer adds its
/// paths here, so this is the one list of what is measured.
struct BenchmarkPath: Sendable {
    /// A conversion ready to time; returns the size of its output, so nothing is optimised away.
    typealias Run = () throws -> Int

    let name: String
    /// The input bytes throughput is counted over, made from a generated document (or, for
    /// HTML paths, from generated HTML of the same size).
    let input: @Sendable (Corpus.Sample) -> [UInt8]
    /// Untimed set-up from the input (parsing it, for a writer-only path), giving the timed run.
    let prepare: @Sendable ([UInt8]) throws -> Run

    static let all: [BenchmarkPath] = [
        BenchmarkPath(name: "json-to-json", input: markupJSON) { bytes in
            { try MarkupJSONWriter().write(try MarkupJSONReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "json-read", input: markupJSON) { bytes in
            { try MarkupJSONReader().read(bytes).value.blocks.count }
        },
        BenchmarkPath(name: "json-write", input: markupJSON) { bytes in
            let document = try MarkupJSONReader().read(bytes).value
            return { try MarkupJSONWriter().write(document).value.count }
        },
        // What a native client does with each document it shows: markup JSON read and written
        // as an AttributedString (MarkbridgeAttributedString), documents per second the figure.
        BenchmarkPath(name: "json-to-attributed", input: markupJSON) { bytes in
            { try AttributedStringWriter().write(markupJSON: bytes).value.runs.count }
        },
        BenchmarkPath(name: "md-to-json", input: markdown) { bytes in
            { try MarkupJSONWriter().write(try MarkdownReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "json-to-md", input: markupJSON) { bytes in
            { try MarkdownWriter().write(try MarkupJSONReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "html-to-md", input: html) { bytes in
            { try MarkdownWriter().write(try HTMLReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "html-parse", input: html) { bytes in
            { try HTMLParser().parseFragment(bytes).value.nodeCount }
        },
        BenchmarkPath(name: "html-read", input: html) { bytes in
            { try HTMLReader().read(bytes).value.blocks.count }
        },
        BenchmarkPath(name: "html-to-json", input: html) { bytes in
            { try MarkupJSONWriter().write(try HTMLReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "html-to-html", input: html) { bytes in
            { try HTMLWriter().write(try HTMLReader().read(bytes).value).value.count }
        },
        BenchmarkPath(name: "html-to-text", input: html) { bytes in
            { try PlainTextWriter().write(try HTMLReader().read(bytes).value).value.count }
        },
        // The document against a copy with an edit every 97 blocks (words, markups, blocks
        // inserted, deleted, moved): the diff alone is timed, over the HTML's size.
        BenchmarkPath(name: "diff-edited", input: html) { bytes in
            let document = try HTMLReader().read(bytes).value
            let edited = DocumentEdits(of: document).document
            return { diff(document, edited).changes.count }
        },
        // One huge paragraph (the document's text joined) against itself with one word changed.
        BenchmarkPath(name: "diff-one-block", input: html) { bytes in
            let text = try HTMLReader().read(bytes).value.blocks.map(\.text).joined(separator: " ")
            var words = text.split(separator: " ", omittingEmptySubsequences: false)
            if !words.isEmpty { words[words.count / 2] = "changed" }
            let old = Document(blocks: [Block(.paragraph, text: text)])
            let new = Document(blocks: [Block(.paragraph, text: words.joined(separator: " "))])
            return { diff(old, new).changes.count }
        },
        // The pathological pair: the document against itself in reverse, where every block but
        // one is an edit. The alignment's edit bound keeps it O((N + M) × 2,000).
        BenchmarkPath(name: "diff-reversed", input: html) { bytes in
            let document = try HTMLReader().read(bytes).value
            let reversed = Document(blocks: document.blocks.reversed())
            return { diff(document, reversed).changes.count }
        },
    ]

    // Generated documents are valid, and an empty input would show in the table at once.
    private static let markdown: @Sendable (Corpus.Sample) -> [UInt8] = { (try? MarkdownWriter().write($0.document))?.value ?? [] }
    private static let html: @Sendable (Corpus.Sample) -> [UInt8] = { Array($0.html.utf8) }
    private static let markupJSON: @Sendable (Corpus.Sample) -> [UInt8] = { (try? MarkupJSONWriter().write($0.document))?.value ?? [] }
}
