extension Block {
    /// An embed block as what a reader can still follow where the embed cannot be written: a
    /// paragraph (a quote's, in a quote) at the same place, linking to `source` over its text,
    /// or over its title or the source itself when it has none. Links cannot nest, so text
    /// with links of its own keeps them, and the source follows it as a link of its own.
    /// Every writer writes an embed it may not embed this way, so all say the same.
    package func embedWrittenAsLink(to source: String, title: String?) -> Block {
        var link = self
        link.kind = quoteDepth > 0 ? .blockquote : .paragraph
        if link.text.isEmpty { link.text = title.flatMap { $0.isEmpty ? nil : $0 } ?? source }
        if link.markups.contains(where: { if case .link = $0.kind { true } else { false } }) {
            let start = link.text.utf16.count + 1
            link.text += " " + source
            link.markups.append(Markup(.link(LinkTarget(href: source)), start: start, end: link.text.utf16.count))
        } else {
            link.markups.append(Markup(.link(LinkTarget(href: source)), start: 0, end: link.text.utf16.count))
        }
        link.canonicalize()
        return link
    }
}
