@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeMarkdown
import MarkbridgeEntities

/// The oracle the safety tests and the fuzzer hold output to: what a browser would build from
/// it, element by element. Markdown is first rendered by cmark with raw HTML allowed, as the
/// least careful CommonMark renderer would, so that raw HTML slipping out of a title, a
/// destination or a code block shows up as the elements it makes.
public enum OutputSafety {
    /// Elements that run or load something, whatever their attributes.
    static let activeElements: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link", "form",
        "template", "noscript", "svg", "math",
    ]

    /// Attributes holding a URL, checked against the default URL policy's schemes (not its
    /// length limit: a renderer's percent-encoding makes a URL longer than the one written).
    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "poster", "data", "xlink:href", "srcset", "background"]

    /// Every unsafe element, attribute or URL in `html`, described; empty when it is safe.
    /// `schemes` are let through beside the default policy's: those a caller named for its
    /// conversion (an entity link template's `app:`), never one that runs script.
    public static func unsafeParts(ofHTML html: [UInt8], allowing extraSchemes: Set<String> = []) -> [String] {
        guard let tree = try? HTMLParser(options: .init(repairsInvalidUTF8: true)).parseFragment(html).value else {
            return ["the HTML does not parse"]
        }
        var schemes = URLPolicy(maxLength: .max)
        schemes.allowedSchemes.formUnion(extraSchemes.subtracting(EntityLinkTemplate.refusedSchemes))
        var found: [String] = []
        var stack = tree.children(of: tree.contentRoot)
        while let node = stack.popLast() {
            stack.append(contentsOf: tree.children(of: node))
            guard tree.kind(of: node) == .element else { continue }
            let name = tree.name(of: node)
            if activeElements.contains(name) { found.append("<\(name)> element") }
            for attribute in tree.attributes(of: node) {
                let attributeName = attribute.qualifiedName.lowercased()
                if attributeName.hasPrefix("on") { found.append("\(attributeName) attribute on <\(name)>") }
                if urlAttributes.contains(attributeName), case .rejected(let reason) = schemes.check(attribute.value, for: .image) {
                    found.append("\(attributeName)=\(attribute.value.debugDescription) on <\(name)>: \(reason)")
                }
            }
        }
        return found
    }

    /// The same for Markdown, as cmark renders it with raw HTML allowed.
    public static func unsafeParts(ofMarkdown markdown: [UInt8], allowing extraSchemes: Set<String> = []) -> [String] {
        unsafeParts(ofHTML: Array(CmarkRendering.html(markdown, unsafe: true).utf8), allowing: extraSchemes)
    }
}
