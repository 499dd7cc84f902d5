/// The attributes of a block the diff compares, named as markup JSON names them and in the order
/// it writes them (`type` first: a block's kind). `AttributeChange.name` is one of these; the
/// severity of a change and the reports' order are derived from here.
package enum BlockAttribute: String, CaseIterable, Hashable, Sendable {
    case type, depth, quoteDepth, quoteListDepths, containerStart, number, language, embed, src, poster, width, height,
         alt, title, startsTable, cells, continues, align, name, task
}

/// The attributes of a markup the diff compares: where it lies (`range`, the text it covers) and
/// the values its kind carries, named as markup JSON names them. `MarkupChange.attribute` is one of these.
package enum MarkupAttribute: String, CaseIterable, Hashable, Sendable {
    case range, href, title, color, src, alt, width, height, tag, name
}
