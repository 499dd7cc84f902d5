@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// What an element's `style` attribute means to the IR: markups for its content, a paragraph
/// alignment, a whitespace mode. Properties the IR cannot carry are reported, once per property
/// name per document, with the first place they occurred.
struct CSSStyle {
    var markups: [MarkupKind] = []
    /// Formatting the style turns off for the element's content, as a browser renders it:
    /// `font-weight: normal` (or any weight under 600) and `font-style: normal` override what
    /// the element and its ancestors set, since both properties are inherited;
    /// `text-decoration: none` only undoes the element's own underline or strike (`<u>`,
    /// `<s>`), since an ancestor's decoration is drawn across its descendants whatever they say.
    var cancelsInherited: [MarkupKind.Tag] = []
    var cancelsOwn: [MarkupKind.Tag] = []
    var alignment: TextAlignment?
    var whitespace: HTMLTreeWalker.WhitespaceMode?
    /// Microsoft Word's list paragraphs: `mso-list: l0 level2 lfo1` makes a paragraph an item
    /// of a list at that level, and `mso-list: Ignore` marks the bullet or number Word wrote
    /// as text before it.
    var wordListLevel: Int?
    var isWordListMarker = false
    /// An image's `width` and `height` (read only for one: elsewhere the IR has no size, and
    /// they are dropped as any other property is). Any value wins over the attribute of the
    /// same name, as in a browser; what is not whole pixels (`auto` among them) keeps no size.
    var imageWidth: HTMLImageSize.Length?
    var imageHeight: HTMLImageSize.Length?

    /// No style: nothing to apply.
    init() {}

    init(_ attribute: String?, isImage: Bool = false, report: inout LossReport, location: () -> SourceLocation) {
        guard let attribute, !attribute.isEmpty else { return }
        for declaration in CSSDeclarations.parse(attribute) {
            let value = declaration.value.asciiLowercased()
            switch declaration.property {
            case "font-weight":
                if value == "bold" || value == "bolder" || (Int(value).map { $0 >= 600 && $0 <= 900 } ?? false) {
                    markups.append(.strong)
                } else if value == "normal" || value == "lighter" || (Int(value).map { $0 >= 1 && $0 < 600 } ?? false) {
                    cancelsInherited.append(.strong)
                } else {
                    Self.dropValue(declaration, report: &report, location: location)
                }
            case "font-style":
                if value.hasPrefix("italic") || value.hasPrefix("oblique") {
                    markups.append(.emphasis)
                } else if value == "normal" {
                    cancelsInherited.append(.emphasis)
                }
            case "text-decoration", "text-decoration-line":
                let words = value.split(separator: " ")
                if words.contains("underline") { markups.append(.underline) }
                if words.contains("line-through") { markups.append(.strike) }
                if words.contains("none") { cancelsOwn += [.underline, .strike] }
            case "color":
                if let color = CSSColorParser.parse(value) {
                    markups.append(.color(color))
                } else {
                    Self.dropValue(declaration, report: &report, location: location)
                }
            case "background-color", "background":
                if let color = CSSColorParser.parse(value) {
                    // `transparent` (Google Docs sets it on every span) is no background at all.
                    if color.alpha > 0 { markups.append(.background(color)) }
                } else {
                    Self.dropValue(declaration, report: &report, location: location)
                }
            case "vertical-align":
                if value == "super" { markups.append(.superscript) } else if value == "sub" { markups.append(.subscript) }
            case "text-align":
                switch value {
                case "left", "start": alignment = .left
                case "center", "-webkit-center": alignment = .center
                case "right", "end": alignment = .right
                case "justify": alignment = .justify
                default: Self.dropValue(declaration, report: &report, location: location)
                }
            case "mso-list":
                if value == "ignore" {
                    isWordListMarker = true
                } else if let word = value.split(separator: " ").first(where: { $0.hasPrefix("level") }), let level = Int(word.dropFirst(5)), level >= 1 {
                    wordListLevel = min(level, IRLimits.maxDepth + 1)
                } else {
                    Self.dropValue(declaration, report: &report, location: location)
                }
            case "white-space":
                switch value {
                case "pre", "pre-wrap", "break-spaces": whitespace = .preserve
                case "pre-line": whitespace = .preserveLines
                case "normal", "nowrap": whitespace = .normal
                default: break
                }
            case "width" where isImage, "height" where isImage:
                let length = HTMLImageSize.cssLength(value)
                if declaration.property == "width" { imageWidth = length } else { imageHeight = length }
                // `auto` is what no size is: nothing is lost.
                if case .dropped = length, value != "auto" {
                    let key = "\(declaration.property): \(declaration.value)"
                    let attribute = declaration.property
                    report.note("dropped-style", key, at: location()) {
                        "CSS value '\(key)' of an image dropped, and with it any \(attribute) attribute it overrides: the IR keeps an image's size in whole CSS pixels only (\($0)×)"
                    }
                }
            default:
                let property = declaration.property
                report.note("dropped-style", property, at: location()) { "CSS property '\(property)' dropped (\($0)×)" }
            }
        }
        // In canonical order, so that the block they end up in needs no sorting.
        if markups.count > 1 { markups.sort { $0.canonicalRank < $1.canonicalRank } }
    }

    private static func dropValue(_ declaration: CSSDeclarations.Declaration, report: inout LossReport, location: () -> SourceLocation) {
        let key = "\(declaration.property): \(declaration.value)"
        report.note("dropped-style", key, at: location()) { "CSS value '\(key)' not understood, dropped (\($0)×)" }
    }
}
