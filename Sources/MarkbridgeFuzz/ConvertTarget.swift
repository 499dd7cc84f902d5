import Markbridge
import MarkbridgeTestSupport

/// What a service does with untrusted input: read it, write it in every format. The first
/// byte picks the reader (markup JSON, HTML, Markdown); the rest is the input. Every writer's
/// output must read back as a document that holds the invariants (a writer's output its own
/// reader refuses is a finding), and HTML and Markdown output must be safe as the safety
/// oracle sees it (``OutputSafety``): no element, attribute or URL that runs anything. Embeds
/// are written as sandboxed frames by design: for a document that has them, frames are allowed,
/// but never one let run script with the page's origin (HOSTILE-INPUTS E1).
enum ConvertTarget {
    static let converter = Converter(options: .init(repairsInvalidUTF8: true))
    static let sources = [Format.markupJSON, .html, .markdown]

    static func check(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let source = sources[Int(first) % sources.count]
        guard let document = try? converter.read(Array(input.dropFirst()), from: source).value else { return }
        ReaderTargets.checkInvariants(document, source.name)
        let hasEmbeds = document.blocks.contains { if case .embed = $0.kind { true } else { false } }
        for target in [Format.markupJSON, .html, .markdown] {
            guard let written = try? converter.write(document, to: target).value else { continue }
            let text = String(decoding: written, as: UTF8.self)
            if target.name != Format.markupJSON.name {
                var unsafe = target.name == Format.html.name ? OutputSafety.unsafeParts(ofHTML: written) : OutputSafety.unsafeParts(ofMarkdown: written)
                if hasEmbeds {
                    unsafe.removeAll { $0 == "<iframe> element" }
                    if text.lowercased().contains("allow-same-origin") { unsafe.append("a frame allowed both script and its origin") }
                }
                if !unsafe.isEmpty { finding("unsafe \(target.name) output from \(source.name): \(unsafe)\n\(shown(text.debugDescription))") }
            }
            let read: Document
            do { read = try converter.read(written, from: target).value } catch {
                finding("\(target.name) written from a \(source.name) document does not read back: \(error)\n\(shown(text.debugDescription))")
            }
            ReaderTargets.checkInvariants(read, "\(target.name) (reading back)")
        }
        _ = try? converter.write(document, to: .plainText)
    }
}
