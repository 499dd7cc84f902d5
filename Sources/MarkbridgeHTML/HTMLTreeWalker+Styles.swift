@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// What an element's style and inline attributes make of its text: CSS parsed and cached,
/// colours (the innermost shows), formatting an inherited style turns off, `<font>`, `<abbr>`
/// titles, empty links and text direction, each loss counted.
extension HTMLTreeWalker {
    /// An `<abbr title>`'s expansion (see ``Abbreviation``), nil when there is none to write.
    func abbreviationExpansion(of node: HTMLNodeID) -> String? {
        guard let title = tree.attribute("title", of: node), !title.isEmpty else { return nil }
        // The text is looked at only while it is short: a longer one cannot be its expansion,
        // and an `<abbr>` left open around a page is not walked twice.
        var shown = ""
        var stack = tree.children(of: node).reversed() as [HTMLNodeID]
        while let child = stack.popLast(), shown.utf8.count <= title.utf8.count {
            switch tree.kind(of: child) {
            case .text: shown += tree.text(of: child)
            case .element: stack += tree.children(of: child).reversed()
            case .comment, .templateContents, .document, .fragment, .doctype: break
            }
        }
        return Abbreviation.expansion(title: title, shown: shown)
    }

    /// The IR has no tooltip: an abbreviation's expansion is written after its text, in
    /// parentheses, as print style sheets show it (`HTML (HyperText Markup Language)`), so that
    /// every format keeps it; said, since the text changed. An `<abbr>` that shows no text has
    /// nothing to follow: its expansion goes, said too.
    mutating func writeExpansion(_ expansion: String, since mark: DocumentBuilder.TextMark, of node: HTMLNodeID) {
        guard !builder.showsOnlyWhitespace(since: mark) else {
            report.note("abbreviation-expanded", "dropped", at: tree.sourceLocation(of: node)) {
                "title of an <abbr> that shows no text (the first \(expansion.debugDescription)) dropped: there is no text to write it after (\($0)×)"
            }
            return
        }
        builder.appendCollapsibleSpace()
        builder.append(Abbreviation.written(expansion))
        report.note("abbreviation-expanded", "written", at: tree.sourceLocation(of: node)) {
            "<abbr> title written after its text in parentheses (the first \(expansion.debugDescription)): the IR has no place for an expansion shown on hover (\($0)×)"
        }
    }

    /// A link around no text (`<a href="…"></a>`, or only whitespace) shows nothing to
    /// follow, and the IR has no empty range to keep it in: dropped, said with where it pointed.
    mutating func noteEmptyLink(to href: String, at node: HTMLNodeID) {
        report.note("empty-link-dropped", "link", at: tree.sourceLocation(of: node)) {
            "link with no text (the first to \(href)) dropped: it shows nothing to follow, and an empty range has no place in the IR (\($0)×)"
        }
    }

    /// The element's `style` attribute, parsed. Stored content repeats the same few styles
    /// thousands of times, so styles that lost nothing are remembered (up to a bound); one that
    /// reported a loss is parsed again each time, so each loss is counted.
    /// An image's style is read for its size too (see ``CSSStyle/imageWidth``), and not cached:
    /// the same style means something else on another element.
    mutating func style(of node: HTMLNodeID, isImage: Bool = false) -> CSSStyle {
        guard let attribute = tree.attribute("style", of: node), !attribute.isEmpty else { return CSSStyle() }
        if !isImage, let known = styleCache[attribute] { return known }
        let losses = report.lossCount
        let style = CSSStyle(attribute, isImage: isImage, report: &report, location: tree.sourceLocator(of: node))
        if !isImage && report.lossCount == losses && styleCache.count < 512 { styleCache[attribute] = style }
        return style
    }

    /// A text colour for the element's content. Text shows one colour, the innermost, so the
    /// colour open around the element is suspended while it lasts (reopened when it ends, as
    /// ``cancelFormatting(_:exit:)`` suspends an inherited weight): the IR holds the colour each
    /// character shows, never two over the same text. Opaque black is what text is without a
    /// colour (Google Docs and Word set it on every run of text), so it is not kept as a
    /// COLOR: it only ends the colour around it. Counted.
    mutating func openColor(_ color: CSSColor, node: HTMLNodeID, exit: inout Exit) {
        if let outer = openKinds.lastIndex(where: { if case .color = $0 { true } else { false } }) {
            builder.closeMarkup(openHandles[outer])
            if outer >= openHandles.count - exit.markupCount {
                // The element's own (`<font color>` with a `style` colour): the later one wins.
                openHandles.remove(at: outer)
                openKinds.remove(at: outer)
                exit.markupCount -= 1
            } else {
                let suspended = (outer, openKinds[outer])
                exitExtras[extrasIndex(of: &exit)].suspended.append(suspended)
            }
        }
        guard color == CSSColor(red: 0, green: 0, blue: 0) else {
            openMarkup(&exit, .color(color))
            return
        }
        report.note("default-color", "color", at: tree.sourceLocation(of: node)) {
            "opaque black text, the default colour, not kept as COLOR; it ends any colour around it (\($0)×)"
        }
    }

    /// Opens a markup for the element being entered; `leave` closes it.
    mutating func openMarkup(_ exit: inout Exit, _ kind: MarkupKind) {
        openHandles.append(builder.openMarkup(kind))
        openKinds.append(kind)
        exit.markupCount += 1
    }

    /// `<font color>` is a text color, as a browser shows it; `face` and `size` have no place
    /// in the IR and are reported, counted, as dropped styles are.
    mutating func font(_ node: HTMLNodeID, exit: inout Exit) {
        if let value = tree.attribute("color", of: node) {
            if let color = CSSColorParser.parse(value) {
                openColor(color, node: node, exit: &exit)
            } else {
                report.note("dropped-style", "font color: \(value)", at: tree.sourceLocation(of: node)) { "<font color=\"\(value)\"> not understood, dropped (\($0)×)" }
            }
        }
        for attribute in ["face", "size"] where tree.attribute(attribute, of: node) != nil {
            report.note("dropped-style", "font " + attribute, at: tree.sourceLocation(of: node)) { "<font \(attribute)> dropped (\($0)×)" }
        }
    }

    /// Ends the formatting the element's style turns off: its own (which then never opened,
    /// as `<b style="font-weight:normal">` is not bold), and for inherited properties its
    /// ancestors', reopened when the element ends.
    mutating func cancelFormatting(_ style: CSSStyle, exit: inout Exit) {
        let ownStart = openHandles.count - exit.markupCount
        for index in stride(from: openHandles.count - 1, through: 0, by: -1) {
            let tag = openKinds[index].tag
            let isOwn = index >= ownStart
            guard style.cancelsInherited.contains(tag) || (isOwn && style.cancelsOwn.contains(tag)) else { continue }
            builder.closeMarkup(openHandles[index])
            if isOwn {
                openHandles.remove(at: index)
                openKinds.remove(at: index)
                exit.markupCount -= 1
            } else {
                let suspended = (index, openKinds[index])
                exitExtras[extrasIndex(of: &exit)].suspended.append(suspended)
            }
        }
    }

    /// `dir` (and `<bdo>`'s override) has no place in the IR: the text is kept in its logical
    /// order, and a direction other than the default a reader would have seen is reported,
    /// counted (`dir="ltr"`, which Google Docs puts on every paragraph, is the default).
    mutating func noteTextDirection(_ node: HTMLNodeID) {
        guard let direction = tree.attribute("dir", of: node) else { return }
        let value = direction.asciiLowercased()
        guard value == "rtl" || value == "auto" || tree.tag(of: node) == .bdo else { return }
        report.note("dropped-style", "dir", at: tree.sourceLocation(of: node)) { "text direction (dir) dropped, the text kept in its order (\($0)×)" }
    }
}
