/// The insertion modes of tree construction (HTML standard 13.2.6.4).
enum HTMLInsertionMode: UInt8, Sendable {
    case initial, beforeHTML, beforeHead, inHead, inHeadNoscript, afterHead, inBody, text
    case inTable, inTableText, inCaption, inColumnGroup, inTableBody, inRow, inCell
    case inTemplate, afterBody, inFrameset, afterFrameset
    case afterAfterBody, afterAfterFrameset
}

/// A token as tree construction handles it; character runs are slices so a mode can take part
/// of a run (its leading whitespace) and hand the rest to another mode.
enum TreeToken {
    case characters(ArraySlice<UInt8>, offset: Int)
    case startTag(HTMLTagToken)
    case endTag(HTMLTagToken)
    case comment([UInt8], offset: Int)
    case doctype(HTMLDoctypeToken)
    case endOfFile
}

/// Element categories of the standard, as sets of tags in the HTML namespace.
enum HTMLCategory {
    static let special: HTMLTagSet = [
        .address, .applet, .area, .article, .aside, .base, .basefont, .bgsound, .blockquote, .body, .br, .button,
        .caption, .center, .col, .colgroup, .dd, .details, .dir, .div, .dl, .dt, .embed, .fieldset, .figcaption,
        .figure, .footer, .form, .frame, .frameset, .h1, .h2, .h3, .h4, .h5, .h6, .head, .header, .hgroup, .hr,
        .html, .iframe, .img, .input, .keygen, .li, .link, .listing, .main, .marquee, .menu, .meta, .nav,
        .noembed, .noframes, .noscript, .object, .ol, .p, .param, .plaintext, .pre, .script, .search, .section,
        .select, .source, .style, .summary, .table, .tbody, .td, .template, .textarea, .tfoot, .th, .thead,
        .title, .tr, .track, .ul, .wbr, .xmp,
    ]
    /// Elements a browser lays out as blocks: where one is flattened at the depth limit, a space
    /// keeps the text on either side of it apart.
    static let blockBoundaries: HTMLTagSet = [
        .address, .article, .aside, .blockquote, .caption, .center, .dd, .details, .dialog, .dir, .div, .dl, .dt,
        .fieldset, .figcaption, .figure, .footer, .form, .h1, .h2, .h3, .h4, .h5, .h6, .header, .hgroup, .hr, .legend,
        .li, .listing, .main, .menu, .nav, .ol, .p, .pre, .search, .section, .summary, .table, .tbody, .td, .tfoot,
        .th, .thead, .tr, .ul, .xmp,
    ]
    static let formatting: HTMLTagSet = [.a, .b, .big, .code, .em, .font, .i, .nobr, .s, .small, .strike, .strong, .tt, .u]
    static let impliedEndTags: HTMLTagSet = [.dd, .dt, .li, .optgroup, .option, .p, .rb, .rp, .rt, .rtc]
    static let thoroughlyImpliedEndTags: HTMLTagSet = impliedEndTags.union([.caption, .colgroup, .tbody, .td, .tfoot, .th, .thead, .tr])
    static let headings: HTMLTagSet = [.h1, .h2, .h3, .h4, .h5, .h6]
    static let defaultScope: HTMLTagSet = [.applet, .caption, .html, .table, .td, .th, .marquee, .object, .template]
    static let tableSections: HTMLTagSet = [.tbody, .tfoot, .thead]
}
