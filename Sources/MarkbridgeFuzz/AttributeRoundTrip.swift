import Markbridge
import MarkbridgeTestSupport

/// The fuzzer's attribute mode: the input becomes the attributes a writer must escape (a link's
/// href and title, an image's source, alt text and title, a code block's language, a list
/// number), set as a reader would leave them, in a quote and a list item. The fields are
/// separated by 0xFF, which UTF-8 never holds. Markdown and HTML
/// output must read back as the same document, and neither may render as anything but that
/// document: no element, attribute or URL the safety oracle flags.
enum AttributeRoundTrip {
    static func check(_ input: [UInt8]) {
        var fields = input.split(separator: 0xFF, maxSplits: 4, omittingEmptySubsequences: false).map { field in
            // What readers leave: valid UTF-8, and no NUL (every reader makes it U+FFFD).
            String(decoding: field, as: UTF8.self).replacingNUL()
        }
        while fields.count < 5 { fields.append("") }
        let number = input.prefix(8).reduce(0) { $0 << 8 | Int($1) }
        guard case .allowed(let href) = URLPolicy.default.check(fields[0], for: .link) else { return }
        let title = fields[1].isEmpty ? nil : fields[1]
        let alt = fields[2].isEmpty ? nil : fields[2]
        let document = Document(blocks: [
            Block(.blockquote, text: "see it \u{FFFC}", markups: [
                Markup(.link(LinkTarget(href: href, title: title)), start: 4, end: 6),
                Markup(.image(ImageSource(src: href, alt: alt, title: fields[3].isEmpty ? nil : fields[3])), start: 7, end: 8),
            ], quoteDepth: 1),
            Block(.orderedListItem(number: ListNumber.clamped(number)), text: "item", markups: [
                Markup(.link(LinkTarget(href: href, title: title)), start: 0, end: 4),
            ]),
            Block(.codeBlock(language: CodeLanguage.normalized(fields[4])), text: "x", depth: 1),
            Block(.image(ImageSource(src: href, alt: alt, title: title))),
        ])
        let converter = Converter()
        for format in ["markdown", "html"] {
            guard let result = try? converter.write(document, to: format) else { fatalError("\(format) writer failed") }
            let written = result.value
            let unsafe = format == "markdown" ? OutputSafety.unsafeParts(ofMarkdown: written) : OutputSafety.unsafeParts(ofHTML: written)
            let shown = String(String(decoding: written, as: UTF8.self).prefix(2_000))
            if !unsafe.isEmpty { fatalError("unsafe \(format) output: \(unsafe)\n\(shown)") }
            guard let read = try? converter.read(written, from: format).value else { fatalError("\(format) output does not read back\n\(shown)") }
            // HTML has no reference for the C1 controls that browsers read as Windows-1252
            // (&#x87; is U+2021): the writer reports those, and the read-back differs there.
            let reportedChange = format == "html" && result.diagnostics.contains { $0.code == "control-character-replaced" }
            if read != document && !reportedChange {
                fatalError("\(format) round trip changed the document\n\(String("\(document)".prefix(2_000)))\n\(shown)\n\(String("\(read)".prefix(2_000)))")
            }
        }
    }
}

extension String {
    fileprivate func replacingNUL() -> String {
        guard unicodeScalars.contains("\u{0}") else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }
}
