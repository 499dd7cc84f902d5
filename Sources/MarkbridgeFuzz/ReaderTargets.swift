import Markbridge
import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// The readers on raw bytes. Invalid UTF-8 is repaired where the reader offers it, so that the
/// fuzzer's byte mutations reach the parsers instead of stopping at the encoding check.
enum ReaderTargets {
    static let htmlReader = HTMLReader(options: .init(parser: .init(repairsInvalidUTF8: true)))
    static let htmlParser = HTMLParser(options: .init(repairsInvalidUTF8: true))

    static func html(_ input: [UInt8]) {
        guard let document = try? htmlReader.read(input).value else { return }
        checkInvariants(document, "HTML")
    }

    /// Fragment contexts that switch the tokenizer's state or the tree builder's insertion mode,
    /// as html5lib's fragment tests use them.
    static let fragmentContexts: [HTMLParser.FragmentContext] = [
        .body, .init("td"), .init("select"), .init("textarea"), .init("table"), .init("title"), .init("svg", namespace: .svg), .init("math", namespace: .mathml),
    ]

    /// The bytes as a whole document; or, when the first byte is below 8 (no HTML starts so), the
    /// rest as a fragment in the context it picks. Both dumped as html5lib prints a tree.
    static func htmlParser(_ input: [UInt8]) {
        if let first = input.first, Int(first) < fragmentContexts.count {
            _ = try? htmlParser.parseFragment(Array(input.dropFirst()), context: fragmentContexts[Int(first)]).value.html5libDump()
        } else {
            _ = try? htmlParser.parseDocument(input).value.html5libDump()
        }
    }

    static func markdown(_ input: [UInt8]) {
        guard let document = try? MarkdownReader().read(input).value else { return }
        checkInvariants(document, "Markdown")
    }

    /// Markup JSON that reads is a canonical document: written back (in UTF-16 offsets) and read
    /// again, it is the same document.
    static func json(_ input: [UInt8]) {
        guard let document = try? MarkupJSONReader().read(input).value else { return }
        checkInvariants(document, "markup JSON")
        guard let written = try? MarkupJSONWriter().write(document) else { finding("the JSON writer refused a document the JSON reader made") }
        guard let again = try? MarkupJSONReader().read(written.value).value else {
            finding("JSON written from a read document does not read back\n\(shown(String(decoding: written.value, as: UTF8.self)))")
        }
        // The same document, but for what the writer said it changed (an embed whose host the
        // URL policy refuses is written as a paragraph linking to its source).
        if again != document, !UnreportedChanges.of(before: document, writeDiagnostics: written.diagnostics, changes: DocumentDiff(document, again).changes).isEmpty {
            finding("markup JSON read, written and read again changed, unreported\n\(shown("\(document)"))\n\(shown("\(again)"))")
        }
    }

    static func checkInvariants(_ document: Document, _ reader: String) {
        let violations = document.invariantViolations()
        if !violations.isEmpty { finding("the \(reader) reader broke the IR's invariants: \(violations)") }
    }
}
