import Markbridge
import MarkbridgeTestSupport

/// Structure-aware fuzzing of the round trips: the input is not a document's text but the
/// decisions of ``DocumentGenerator`` (its hostile profile, as the property tests draw), one
/// byte a decision, so that libFuzzer's mutations insert, drop and change blocks, markups and
/// attributes. The document goes through one format and back and must come back the same,
/// compared as the round-trip tests compare (`RoundTripTests`, `HTMLRoundTripTests`,
/// `MarkdownRoundTripTests`): no writer diagnostics, a read-back that holds the invariants and
/// equals the document; for JSON, in the offset unit the first byte picks, also no reader
/// diagnostics and the same bytes when written again. One target a format, so that each input
/// costs one writer and one reader; the JSON one also runs the plain-text writer, which must
/// not trap.
///
/// The first byte: the block count (1 to 8, at most one for each 24 bytes after the first two;
/// the property tests' documents are longer, but small ones run faster and find the same) and
/// the offset unit; the second: a document, or (one in four) a table alone, as the GFM round
/// trip draws them.
enum RoundTripTarget {
    enum Format {
        case json, html, markdown
    }

    static func check(_ input: [UInt8], through format: Format) {
        guard input.count >= 2 else { return }
        let decisions = Array(input.dropFirst(2))
        var generator = DocumentGenerator(entropy: decisions, profile: .hostile)
        // A block takes a few dozen decisions: no more blocks than the bytes can decide, so
        // that the document's size follows the input's (past the bytes, every decision is 0).
        let blocks = min(1 + Int(input[0] % 8), 1 + decisions.count / 24)
        let document = input[1] % 4 == 3 ? Document(blocks: generator.table()) : generator.document(blockCount: blocks)
        let generated = document.invariantViolations()
        if !generated.isEmpty { finding("the generator made a document that breaks the invariants: \(generated)\n\(shown("\(document)"))") }
        switch format {
        case .json:
            json(document, unit: OffsetUnit.allCases[Int(input[0] / 8) % OffsetUnit.allCases.count])
            _ = try? PlainTextWriter().write(document)
        case .html: html(document)
        case .markdown: markdown(document)
        }
    }

    static func json(_ document: Document, unit: OffsetUnit) {
        let writer = MarkupJSONWriter(options: .init(offsetUnit: unit))
        let written: Diagnosed<[UInt8]>
        do { written = try writer.write(document) } catch { finding("the JSON writer (\(unit)) threw \(error)\n\(shown("\(document)"))") }
        let text = String(decoding: written.value, as: UTF8.self)
        if !written.diagnostics.isEmpty { finding("the JSON writer (\(unit)) reported \(written.diagnostics)\n\(shown(text))") }
        let read: Diagnosed<Document>
        do { read = try MarkupJSONReader().read(written.value) } catch { finding("JSON (\(unit)) does not read back: \(error)\n\(shown(text))") }
        if !read.diagnostics.isEmpty { finding("the JSON reader reported \(read.diagnostics)\n\(shown(text))") }
        compare(document, read.value, through: "JSON (\(unit))", written: text)
        guard let again = try? writer.write(read.value).value, again == written.value else {
            finding("JSON (\(unit)) written again differs\n\(shown(text))")
        }
    }

    static func html(_ document: Document) {
        let written: Diagnosed<[UInt8]>
        do { written = try HTMLWriter().write(document) } catch { finding("the HTML writer threw \(error)\n\(shown("\(document)"))") }
        let text = String(decoding: written.value, as: UTF8.self)
        if !written.diagnostics.isEmpty { finding("the HTML writer reported \(written.diagnostics)\n\(shown(text))") }
        let read: Document
        do { read = try HTMLReader().read(written.value).value } catch { finding("HTML does not read back: \(error)\n\(shown(text))") }
        compare(document, read, through: "HTML", written: text)
    }

    static func markdown(_ document: Document) {
        let written: Diagnosed<[UInt8]>
        do { written = try MarkdownWriter().write(document) } catch { finding("the Markdown writer threw \(error)\n\(shown("\(document)"))") }
        let text = String(decoding: written.value, as: UTF8.self)
        if !written.diagnostics.isEmpty { finding("the Markdown writer reported \(written.diagnostics)\n\(shown(text.debugDescription))") }
        let read: Document
        do { read = try MarkdownReader().read(written.value).value } catch { finding("Markdown does not read back: \(error)\n\(shown(text))") }
        compare(document, read, through: "Markdown", written: text.debugDescription)
    }

    static func compare(_ document: Document, _ read: Document, through format: String, written: String) {
        let violations = read.invariantViolations()
        if !violations.isEmpty { finding("\(format) read back breaks the invariants: \(violations)\n\(shown(written))") }
        guard read != document else { return }
        finding("IR -> \(format) -> IR changed the document\n\(shown(written))\n\(firstDifference(document, read))")
    }

    /// The first block that differs, as the round-trip tests print it.
    static func firstDifference(_ lhs: Document, _ rhs: Document) -> String {
        for (index, (a, b)) in zip(lhs.blocks, rhs.blocks).enumerated() where a != b {
            return "block \(index):\n  expected \(a)\n  actual   \(b)"
        }
        return "block counts \(lhs.blocks.count) and \(rhs.blocks.count)"
    }
}
