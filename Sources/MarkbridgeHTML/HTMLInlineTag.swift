@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// What a lone inline HTML tag means, for readers of formats that embed HTML tags one at a time
/// (Markdown's inline HTML: `<u>`, then text, then `</u>`), by the same rule table and style
/// parser the HTML reader uses.
package enum HTMLInlineTag: Equatable, Sendable {
    /// A start tag opening these markups (none for a tag that carries no formatting).
    case open(name: String, markups: [MarkupKind])
    case close(name: String)
    case lineBreak
    case image(ImageSource)
    /// A link target with no destination (`<a id="x">`, `<a name="x">`): the anchor of the
    /// block it begins; its end tag closes it like any start tag's.
    case anchor(name: String, id: String)
    /// `<abbr title>`: its markups, and the title, for the reader to write after the text
    /// (see ``Abbreviation``) when its end tag comes.
    case abbreviation(name: String, markups: [MarkupKind], title: String)
    /// A checkbox (`<input type="checkbox">`): at the start of a list item, its task state
    /// (as GitHub renders task list items); anywhere else, a form control.
    case checkbox(TaskState)
    /// A tag with no inline meaning here; its name, for the diagnostic.
    case unsupported(name: String)

    /// Interprets one tag's source text. Style properties the IR cannot carry, and URLs the
    /// policy refuses, are reported in `diagnostics`.
    public static func interpret(_ literal: String, urlPolicy: URLPolicy, baseURL: String? = nil, diagnostics: inout [String]) -> HTMLInlineTag {
        // Relative URLs resolved against the base first, as the HTML reader does.
        func resolved(_ url: String) -> String {
            guard let baseURL else { return url }
            return URLReference.resolve(URLPolicy.cleaned(url), against: baseURL)
        }
        let bytes = Array(literal.utf8)
        if bytes.starts(with: Array("</".utf8)) {
            let name = String(decoding: bytes.dropFirst(2).prefix { $0 != UInt8(ascii: ">") && $0 != 0x20 && $0 != 0x09 && $0 != 0x0A }, as: UTF8.self)
            return .close(name: name.asciiLowercased())
        }
        guard let element = HTMLParser().parseStartTag(bytes) else {
            return .unsupported(name: literal)
        }
        let name = element.name
        let rule = HTMLElementRules.rule(for: element.tag)
        var report = LossReport()
        let location = { SourceLocation(line: 1, column: 1, byteOffset: 0) }
        let style = CSSStyle(element.attribute("style"), isImage: rule == .image, report: &report, location: location)
        diagnostics += report.diagnostics.map(\.message)
        switch rule {
        case .lineBreak?:
            return .lineBreak
        case .image?:
            guard let src = element.attribute("src") else { return .unsupported(name: name) }
            guard case .allowed(let checked) = urlPolicy.check(resolved(src), for: .image) else {
                diagnostics.append("image <\(name)> dropped: unsafe URL")
                return .unsupported(name: name)
            }
            let size = HTMLImageSize(attribute: element.attribute, style: style)
            diagnostics += size.dropped.map { $0.message() }
            return .image(ImageSource(src: checked, alt: element.attribute("alt"), title: element.attribute("title"), width: size.width, height: size.height))
        case .formatting(let tag)?:
            return .open(name: name, markups: MarkupKind(withoutPayload: tag).map { [$0] + style.markups } ?? style.markups)
        case .link?:
            var markups = style.markups
            if element.attribute("href") == nil, markups.isEmpty, let id = element.attribute("id") ?? element.attribute("name"), !id.isEmpty {
                return .anchor(name: name, id: id)
            }
            if let href = element.attribute("href") {
                switch urlPolicy.check(resolved(href), for: .link) {
                // Only an embed's source is ever link-only.
                case .allowed(let checked), .linkOnly(let checked, _): markups.insert(.link(LinkTarget(href: checked, title: element.attribute("title"))), at: 0)
                case .rejected(let reason): diagnostics.append("link dropped, its text kept: \(reason)")
                }
            }
            return .open(name: name, markups: markups)
        case .transparent?:
            if element.tag == .abbr, let title = element.attribute("title"), !title.isEmpty {
                return .abbreviation(name: name, markups: style.markups, title: title)
            }
            if element.tag == .span, let entity = HTMLEntitySpan.markup(attribute: element.attribute) {
                return .open(name: name, markups: style.markups + [entity])
            }
            return .open(name: name, markups: style.markups)
        case .formControl? where name == "input" && element.attribute("type")?.asciiLowercased() == "checkbox":
            return .checkbox(TaskState(isChecked: element.attribute("checked") != nil))
        default:
            return .unsupported(name: name)
        }
    }
}

extension HTMLReader {
    /// Reads an HTML block embedded in another format (a Markdown HTML block), reporting
    /// diagnostics at lines counted from `line` in the embedding document.
    package func readEmbedded(_ html: String, line: Int) -> Diagnosed<Document> {
        guard let read = try? self.read(Array(html.utf8)) else {
            return Diagnosed(Document(), diagnostics: [.warning("invalid-html", "HTML block could not be read; dropped", at: SourceLocation(line: line, column: 1, byteOffset: 0))])
        }
        let shifted = read.diagnostics.map { diagnostic -> Diagnostic in
            var copy = diagnostic
            if var location = copy.location {
                location.line += line - 1
                copy.location = location
            }
            return copy
        }
        return Diagnosed(read.value, diagnostics: shifted)
    }
}
