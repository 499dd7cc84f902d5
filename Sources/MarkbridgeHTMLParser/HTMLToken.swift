/// A start or end tag as the tokenizer emits it.
struct HTMLTagToken: Sendable {
    var name: String
    var tag: HTMLTag
    var attributes: [HTMLAttribute]
    var isSelfClosing: Bool
    /// Offset of the `<` in the normalised input.
    var offset: Int
}

struct HTMLDoctypeToken: Sendable {
    var name: String?
    var publicID: String?
    var systemID: String?
    var forceQuirks: Bool
    var offset: Int
}

/// What the tokenizer emits. Character runs are not copied into the token: the run is the
/// tokenizer's `characters` buffer, valid until the next call to `next()`.
enum HTMLToken: Sendable {
    case characters
    case startTag(HTMLTagToken)
    case endTag(HTMLTagToken)
    case comment([UInt8], offset: Int)
    case doctype(HTMLDoctypeToken)
    case endOfFile
}
