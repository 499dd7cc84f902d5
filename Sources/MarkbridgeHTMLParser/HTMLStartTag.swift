@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// One start tag read on its own, without building a tree: for formats that embed HTML a tag
/// at a time (Markdown's inline HTML gives `<u>`, then text, then `</u>`), where parsing a
/// fragment per tag would cost a tree, a root element and an insertion mode each time.
public struct HTMLStartTag: Sendable {
    /// The lower-case name as the tokenizer reads it.
    public let name: String
    public let tag: HTMLTag
    /// Attributes in source order; a repeated name keeps its first value, as the standard says.
    public let attributes: [HTMLAttribute]

    public func attribute(_ name: String) -> String? {
        attributes.first { $0.prefix == nil && $0.name == name }?.value
    }
}

extension HTMLParser {
    /// The start tag `bytes` begin with, read by the HTML tokenizer; nil when they begin with
    /// anything else (text, an end tag, a comment). Invalid UTF-8 is repaired, not refused.
    public func parseStartTag(_ bytes: [UInt8]) -> HTMLStartTag? {
        guard bytes.count <= options.effectiveMaxInputBytes,
              let input = try? HTMLInput(bytes, repairingInvalidUTF8: true) else { return nil }
        var tokenizer = HTMLTokenizer(input: input.bytes)
        guard case .startTag(var token) = tokenizer.next() else { return nil }
        // In body, the standard reads `<image>` as `<img>`.
        if token.tag == .image {
            token.tag = .img
            token.name = "img"
        }
        return HTMLStartTag(name: token.name, tag: token.tag, attributes: token.attributes.list)
    }
}
