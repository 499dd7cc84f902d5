import Markbridge
import MarkbridgeTestSupport

/// What a service does with untrusted input: read it, write it in every format. The first
/// byte picks the reader (its value modulo 3: markup JSON, HTML, Markdown) and, in bit 4,
/// whether Markdown keeps HTML or drops it (`--markdown-html`), and in bit 5 whether the read
/// detects hashtags, mentions and web addresses (`--detect`, hashtags linked by a template), so
/// that what detection adds must survive every writer too; the rest is the input.
/// For each writer:
/// - the output reads back as a document that holds the invariants (a writer's output its own
///   reader refuses is a finding);
/// - the read-back is the document minus what the writer reported (issue 22's guarantee, as
///   `CorpusRoundTripTests` checks it over the samples: ``UnreportedChanges``);
/// - HTML and Markdown output is safe as the safety oracle sees it (``OutputSafety``): no
///   element, attribute or URL that runs anything. Embeds are written as sandboxed frames by
///   design: for a document that has them, frames are allowed, but never one let run script
///   with the page's origin (HOSTILE-INPUTS E1).
enum ConvertTarget {
    static let keepsHTML = Converter(options: .init(repairsInvalidUTF8: true))
    static let dropsHTML = Converter(options: .init(repairsInvalidUTF8: true, markdownHTML: .drop))
    static let sources = [Format.markupJSON, .html, .markdown]
    static let detection: EntityDetection? = {
        guard let link = try? EntityLinkTemplate("app://tag?t={tag}", placeholder: "{tag}") else { return nil }
        return EntityDetection(kinds: [.hashtags, .mentions, .urls], hashtagLink: link)
    }()

    static func check(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let source = sources[Int(first) % sources.count]
        var converter = first & 0x10 != 0 ? dropsHTML : keepsHTML
        let detects = first & 0x20 != 0
        if detects { converter.options.entityDetection = detection }
        guard let document = try? converter.read(Array(input.dropFirst()), from: source).value else { return }
        // Written output is read back as it is: what detection found is in the document now,
        // and the template's scheme stays let through, as it is for the whole conversion.
        if converter.options.entityDetection != nil {
            converter.options.entityDetection = nil
            converter.options.urlPolicy.allowedSchemes.insert("app")
        }
        ReaderTargets.checkInvariants(document, source.name)
        let hasEmbeds = document.blocks.contains { if case .embed = $0.kind { true } else { false } }
        for target in [Format.markupJSON, .html, .markdown] {
            guard let written = try? converter.write(document, to: target) else { continue }
            let text = String(decoding: written.value, as: UTF8.self)
            if target.name != Format.markupJSON.name {
                let schemes: Set<String> = detects ? ["app"] : []
                var unsafe = target.name == Format.html.name ? OutputSafety.unsafeParts(ofHTML: written.value, allowing: schemes)
                    : OutputSafety.unsafeParts(ofMarkdown: written.value, allowing: schemes)
                if hasEmbeds {
                    unsafe.removeAll { $0 == "<iframe> element" }
                    if text.lowercased().contains("allow-same-origin") { unsafe.append("a frame allowed both script and its origin") }
                }
                if !unsafe.isEmpty { finding("unsafe \(target.name) output from \(source.name): \(unsafe)\n\(shown(text.debugDescription))") }
            }
            let read: Document
            do { read = try converter.read(written.value, from: target).value } catch {
                finding("\(target.name) written from a \(source.name) document does not read back: \(error)\n\(shown(text.debugDescription))")
            }
            ReaderTargets.checkInvariants(read, "\(target.name) (reading back)")
            let unreported = UnreportedChanges.of(before: document, writeDiagnostics: written.diagnostics, changes: DocumentDiff(document, read).changes)
            if !unreported.isEmpty {
                finding("""
                    \(source.name) -> \(target.name) -> \(target.name) lost what the writer did not report
                    written \(shown(text.debugDescription))
                    warnings \(written.diagnostics.map { "\($0.code)@\($0.block ?? -1)" })
                    \(shown("\(unreported)"))
                    """)
            }
        }
        _ = try? converter.write(document, to: .plainText)
    }
}
