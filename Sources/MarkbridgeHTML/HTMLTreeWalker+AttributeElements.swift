@_spi(MarkbridgeBytes) import MarkbridgeBytes
import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// The elements whose attributes carry content: images, embeds and their posters, form
/// controls (a task's checkbox), list numbers, and the URL check every one goes through.
extension HTMLTreeWalker {
    mutating func image(_ node: HTMLNodeID, style: CSSStyle) {
        let alt = tree.attribute("alt", of: node)
        guard let src = tree.attribute("src", of: node), let checked = checkedURL(src, for: .image, node: node) else {
            if let alt, !alt.isEmpty {
                // The alt text stands where the image would: apart from the words around it.
                ensureBlock()
                builder.appendCollapsibleSpace()
                builder.append(alt)
                builder.appendCollapsibleSpace()
            }
            return
        }
        if cellDepth == 0 && !builder.isInBlock {
            // An image outside any text: promoted to an IMG block if nothing joins it.
            ensureBlock()
        }
        ensureBlock()
        let size = HTMLImageSize(attribute: { tree.attribute($0, of: node) }, style: style)
        for dropped in size.dropped {
            report.note("dropped-style", "image size " + dropped.reason.rawValue, at: tree.sourceLocation(of: node)) { dropped.message(count: $0) }
        }
        builder.appendImage(ImageSource(src: checked, alt: alt, title: tree.attribute("title", of: node), width: size.width, height: size.height))
    }

    /// What became of an embed element, and so of its content.
    enum EmbedOutcome {
        /// An embed block is open; its content is its fallback text, and leaving it ends it.
        case started
        /// Its content is not walked: a frame (never shown), a void element, or one written as
        /// a link where only text can be.
        case skipped
        /// No embed (no source, or one the policy refuses): the fallback content is ordinary text.
        case fallbackAsText
    }

    /// Starts an embed block for `<iframe>`, `<video>`, `<audio>`, `<object>` or `<embed>`. An
    /// embed where only text can be (a table row, a heading, a code block, another embed's
    /// fallback) becomes its title or source, linked.
    mutating func embed(_ node: HTMLNodeID, _ elementKind: Embed.Kind) -> EmbedOutcome {
        let name = tree.name(of: node)
        let raw = tree.attribute(name == "object" ? "data" : "src", of: node) ?? firstSourceChild(of: node)
        let walksContent = elementKind != .iframe && name != "embed"
        // A frame with nothing allowed is how the writer writes an object (see HTMLBlockEmitter).
        let kind = elementKind == .iframe && tree.attribute("sandbox", of: node)?.allSatisfy(\.isWhitespace) == true ? .object : elementKind
        let withoutEmbed: EmbedOutcome = walksContent ? .fallbackAsText : .skipped
        // A source of spaces and controls only is none: what a browser loads from it is the page itself.
        guard let raw, !URLPolicy.cleaned(raw).isEmpty else {
            if kind == .video, keepPoster(of: node) { return withoutEmbed }
            report.note("dropped-element", name, at: tree.sourceLocation(of: node)) { "<\(name)> without a source dropped, its fallback text kept (\($0)×)" }
            return withoutEmbed
        }
        guard let src = checkedURL(raw, for: .embed(kind), node: node) else { return withoutEmbed }
        let title = tree.attribute("title", of: node)
        if cellDepth > 0 || embedDepth > 0 || preDepth > 0 || !headingLevels.isEmpty {
            report.note("embed-flattened", name, at: tree.sourceLocation(of: node)) { "<\(name)> where only text can be written as a link to its source (\($0)×)" }
            ensureBlock()
            let link = builder.openMarkup(.link(LinkTarget(href: src)))
            builder.append(title.flatMap { $0.isEmpty ? nil : $0 } ?? src)
            builder.closeMarkup(link)
            return .skipped
        }
        let poster = tree.attribute("poster", of: node).flatMap { checkedURL($0, for: .image, node: node) }
        let embed = Embed(kind, src: src, poster: kind == .video ? poster : nil,
                          width: dimension("width", of: node), height: dimension("height", of: node), title: title)
        startPendingListItem()
        breakBlock()
        builder.startBlock(.embed(embed), enclosedBy: &context, alignment: alignments.last)
        guard walksContent else {
            builder.endBlock(keepingIfEmpty: true)
            return .skipped
        }
        embedDepth += 1
        return .started
    }

    /// A video with a poster and no source shows the poster and nothing plays: kept as what
    /// the page shows, an image block (its fallback text after it, as for any source-less
    /// embed), said. False when there is no poster to keep (or the policy refused it, said).
    mutating func keepPoster(of node: HTMLNodeID) -> Bool {
        guard let raw = tree.attribute("poster", of: node), !raw.trimmingASCIIWhitespace().isEmpty,
              let poster = checkedURL(raw, for: .image, node: node) else { return false }
        // Shown where the video would be, at its size.
        let image = ImageSource(src: poster, title: tree.attribute("title", of: node),
                                width: dimension("width", of: node), height: dimension("height", of: node))
        if cellDepth > 0 || embedDepth > 0 || preDepth > 0 || !headingLevels.isEmpty {
            // Where only text can be, an inline image, as an `<img>` there is.
            ensureBlock()
            builder.appendImage(image)
        } else {
            startPendingListItem()
            breakBlock()
            builder.startBlock(.image(image), enclosedBy: &context, alignment: alignments.last)
            builder.endBlock(keepingIfEmpty: true)
        }
        report.note("dropped-element", "video poster", at: tree.sourceLocation(of: node)) {
            "<video> without a source kept as its poster image (the first \(poster)), as the page shows it; nothing to play (\($0)×)"
        }
        return true
    }

    /// A video's or audio's source given by its first `<source src>` child.
    func firstSourceChild(of node: HTMLNodeID) -> String? {
        var child = tree.firstChild(of: node)
        while let current = child {
            if tree.tag(of: current) == .source, let src = tree.attribute("src", of: current), !src.isEmpty { return src }
            child = tree.nextSibling(of: current)
        }
        return nil
    }

    /// A `width` or `height` attribute as CSS pixels: a whole number, clamped to what a page shows.
    func dimension(_ attribute: String, of node: HTMLNodeID) -> Int? {
        guard let literal = tree.attribute(attribute, of: node).flatMap(HTMLInteger.Literal.init), literal.value >= 0 else { return nil }
        return min(literal.value, Embed.maxDimension)
    }

    mutating func formControl(_ node: HTMLNodeID) {
        let name = tree.name(of: node)
        if name == "input", tree.attribute("type", of: node)?.asciiLowercased() == "checkbox",
           markTask(TaskState(isChecked: tree.hasAttribute("checked", of: node))) { return }
        report.note("form-control", "form", at: tree.sourceLocation(of: node)) { "\($0) form control\($0 == 1 ? "" : "s") kept as their visible text" }
        guard name == "input" else {
            builder.appendCollapsibleSpace()
            return
        }
        let type = tree.attribute("type", of: node)?.asciiLowercased() ?? "text"
        guard !["hidden", "password", "checkbox", "radio", "file", "image"].contains(type),
              let value = tree.attribute("value", of: node) ?? tree.attribute("placeholder", of: node), !value.isEmpty else { return }
        ensureBlock()
        builder.append(value)
    }

    /// A checkbox before anything else of a list item makes it a task, as GitHub renders task
    /// list items (`<li><input type="checkbox" checked disabled> done</li>`). Returns false
    /// where it does not begin an item (it is a form control then).
    mutating func markTask(_ state: TaskState) -> Bool {
        guard cellDepth == 0, embedDepth == 0 else { return false }
        if context.hasPendingItem { return context.markPendingItem(state) }
        guard builder.currentKind?.isListItem == true, builder.currentBlockIsEmpty, builder.currentTaskState == nil else { return false }
        builder.updateCurrentBlock { $0.taskState = state }
        return true
    }

    /// The URL after base resolution and the policy; nil (with a diagnostic) when refused.
    mutating func checkedURL(_ raw: String, for use: URLPolicy.Use, node: HTMLNodeID) -> String? {
        var url = raw
        if let base = options.baseURL { url = URLReference.resolve(URLPolicy.cleaned(url), against: base) }
        switch options.urlPolicy.check(url, for: use) {
        // An embed it may only link to stays an embed: the writers write it as a link.
        case .allowed(let cleaned), .linkOnly(let cleaned, _):
            // Named only for a warning: building the name for every link cost more than checking it.
            func what() -> String {
                switch use {
                case .link: "link on <\(tree.name(of: node))>"
                case .image: "image"
                case .embed: "<\(tree.name(of: node))>"
                }
            }
            if let warning = URLPolicy.bidiWarning(cleaned, what()) {
                report.add(.warning("bidi-in-url", warning, at: tree.sourceLocation(of: node)))
            }
            return cleaned
        case .rejected(let reason):
            let what = switch use {
            case .link: "link on <\(tree.name(of: node))> dropped, its text kept"
            case .image: tree.tag(of: node) == .video ? "video poster dropped" : "image dropped, its alt text kept"
            case .embed: "<\(tree.name(of: node))> dropped, its fallback text kept"
            }
            report.add(.warning("unsafe-url", "\(what): \(reason)", at: tree.sourceLocation(of: node)))
            return nil
        }
    }

    static func codeLanguage(of node: HTMLNodeID, in tree: HTMLTree) -> String? {
        func language(_ element: HTMLNodeID) -> String? {
            guard let classes = tree.attribute("class", of: element) else { return nil }
            // Split and matched by scalars, as HTML splits a class list on ASCII whitespace: by
            // characters, a combining mark after the hyphen (or a space) joins it into one.
            for name in classes.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{C}" }) {
                for prefix in ["language-", "lang-"] where name.starts(with: prefix.unicodeScalars) {
                    return CodeLanguage.normalized(String(Substring(name.dropFirst(prefix.unicodeScalars.count))))
                }
            }
            return nil
        }
        if let found = language(node) { return found }
        if let child = tree.children(of: node).first(where: { tree.kind(of: $0) == .element }), tree.tag(of: child) == .code {
            return language(child)
        }
        return nil
    }

    static func alignAttribute(_ node: HTMLNodeID, in tree: HTMLTree) -> TextAlignment? {
        tree.attribute("align", of: node).flatMap { TextAlignment(rawValue: $0.asciiLowercased().trimmingASCIIWhitespace()) }
    }

    /// A list number outside ``ListNumber/range``, which every format can carry, was moved to
    /// its nearest end: counted, at the first place it happened.
    mutating func noteClampedListNumber(_ number: String, _ node: HTMLNodeID) {
        report.note("list-number-clamped", "", at: tree.sourceLocation(of: node)) { count in
            ListNumber.clampingMessage(first: number, count: count)
        }
    }
}
