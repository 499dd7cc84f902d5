import MarkbridgeHTMLParser
@_spi(InlineTraversal) import MarkbridgeIR

/// What an HTML element becomes in the IR: conversion rules as data, in the spirit of
/// turndown's rules. Each rule names the tags it matches; a tag with no rule falls to the
/// reader's ``HTMLReader/Options/unknownElements`` policy, always with a diagnostic.
enum HTMLElementRule: Sendable, Equatable {
    /// A boundary between blocks that holds other blocks or text (`div`, `section`, ...).
    case container
    /// A paragraph (`p`): a container whose lone `<br>` makes an intentional empty paragraph.
    case paragraph
    case heading(level: Int)
    case blockquote
    case preformatted
    case list(ordered: Bool)
    case listItem
    /// `dt` and `dd`: a definition term and a definition (``BlockKind/definitionTerm(continues:)``,
    /// ``BlockKind/definitionDescription(continues:)``), each block inside a definition one of
    /// its kind, the `dl` around them marking where a definition list begins.
    case definition
    case horizontalRule
    case lineBreak
    case image
    /// Embedded media: an embed block whose text is the element's fallback content (none for a
    /// frame, whose content is never shown).
    case embed(Embed.Kind)
    case figure
    case figureCaption
    case table
    case tableRow
    case tableCell(header: Bool)
    /// A table part with no text of its own (`thead`, `tbody`, `colgroup`...).
    case tablePart
    case tableCaption
    /// Inline formatting: the markup its content gets, one of the kinds without a payload (a
    /// tag, not the kind, so that a rule, which the walker copies for every element, holds no reference).
    case formatting(MarkupKind.Tag)
    case link
    /// `q`: its text in quotation marks.
    case inlineQuote
    /// Carries no formatting, but its content is kept (`span`, `font` without color, `abbr`).
    case transparent
    /// Never rendered as text: dropped with everything inside.
    case dropped
    /// A form control whose visible text is kept (`input` values; `button`, `select`, `textarea` content).
    case formControl
}

enum HTMLElementRules {
    static func rule(for tag: HTMLTag) -> HTMLElementRule? {
        byRawValue[Int(tag.rawValue)]
    }

    /// The rules indexed by tag, so a lookup is an array read.
    private static let byRawValue: [HTMLElementRule?] = {
        var array = [HTMLElementRule?](repeating: nil, count: 256)
        for (tag, rule) in table { array[Int(tag.rawValue)] = rule }
        return array
    }()

    /// The elements that mean each markup kind by themselves, and the kind they open; nil for
    /// the kinds HTML says otherwise, each read by rules of its own. One switch over every
    /// kind: a new one stops the build here until the reader knows how HTML writes it.
    static func formattingElements(for tag: MarkupKind.Tag) -> [HTMLTag]? {
        switch tag {
        case .strong: [.b, .strong]
        case .emphasis: [.i, .em, .cite, .dfn, .var]
        case .code: [.code, .kbd, .samp, .tt]
        case .strike: [.s, .strike, .del]
        case .underline: [.u, .ins]
        case .superscript: [.sup]
        case .subscript: [.sub]
        case .highlight: [.mark]
        // `<a href>` (the link rule), CSS `color` and `<font color>`, CSS `background-color`,
        // `<img>` (the image rule), and a span's class and data attribute (`HTMLEntitySpan`).
        case .link, .color, .background, .image, .hashtag, .mention: nil
        }
    }

    private static let table: [HTMLTag: HTMLElementRule] = {
        var rules: [HTMLTag: HTMLElementRule] = [:]
        func set(_ tags: [HTMLTag], _ rule: HTMLElementRule) { for tag in tags { rules[tag] = rule } }
        set([.div, .section, .article, .main, .header, .footer, .nav, .aside, .address, .center, .hgroup, .search,
             .details, .summary, .dialog, .form, .fieldset, .legend, .body, .html, .menu, .dir, .listing, .xmp], .container)
        set([.p], .paragraph)
        for (level, tag) in [HTMLTag.h1, .h2, .h3, .h4, .h5, .h6].enumerated() { rules[tag] = .heading(level: level + 1) }
        set([.blockquote], .blockquote)
        set([.pre, .plaintext], .preformatted)
        set([.ul], .list(ordered: false))
        set([.ol], .list(ordered: true))
        set([.li], .listItem)
        set([.dl], .container)
        set([.dt, .dd], .definition)
        set([.hr], .horizontalRule)
        set([.br], .lineBreak)
        set([.img, .image], .image)
        set([.iframe], .embed(.iframe))
        set([.video], .embed(.video))
        set([.audio], .embed(.audio))
        set([.object, .embed], .embed(.object))
        set([.figure], .figure)
        set([.figcaption], .figureCaption)
        set([.table], .table)
        set([.tr], .tableRow)
        set([.td], .tableCell(header: false))
        set([.th], .tableCell(header: true))
        set([.thead, .tbody, .tfoot, .colgroup, .col], .tablePart)
        set([.caption], .tableCaption)
        for tag in MarkupKind.Tag.allCases {
            if let elements = formattingElements(for: tag) { set(elements, .formatting(tag)) }
        }
        set([.a], .link)
        set([.q], .inlineQuote)
        set([.span, .font, .abbr, .time, .small, .big, .label, .bdi, .bdo, .data, .nobr, .wbr, .ruby, .rb, .rp, .rt, .rtc,
             .output, .meter, .progress, .picture, .source, .track, .slot, .blink, .marquee, .mglyph, .malignmark], .transparent)
        set([.script, .style, .template, .noscript, .head, .title, .meta, .link, .base,
             .basefont, .bgsound, .param, .frameset, .frame, .noframes, .noembed, .canvas, .map, .area,
             .applet], .dropped)
        set([.input, .button, .select, .option, .optgroup, .textarea, .datalist, .keygen], .formControl)
        return rules
    }()
}
