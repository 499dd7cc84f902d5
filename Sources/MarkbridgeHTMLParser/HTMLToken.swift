/// A start or end tag as the tokenizer emits it.
struct HTMLTagToken: Sendable {
    var tag: HTMLTag
    /// The name when it is not `tag`'s lower-case name: unknown tags, adjusted SVG names.
    var customName: String?
    var attributes: [HTMLAttribute]
    var isSelfClosing: Bool
    /// Offset of the `<` in the normalised input.
    var offset: Int

    init(name: String, tag: HTMLTag, attributes: [HTMLAttribute], isSelfClosing: Bool, offset: Int) {
        self.tag = tag
        self.customName = tag != .unknown && name == tag.lowercaseName ? nil : name
        self.attributes = attributes
        self.isSelfClosing = isSelfClosing
        self.offset = offset
    }

    init(tag: HTMLTag, customName: String?, attributes: [HTMLAttribute], isSelfClosing: Bool, offset: Int) {
        self.tag = tag
        self.customName = customName
        self.attributes = attributes
        self.isSelfClosing = isSelfClosing
        self.offset = offset
    }

    var name: String {
        get { customName ?? tag.lowercaseName }
        set { customName = tag != .unknown && newValue == tag.lowercaseName ? nil : newValue }
    }
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
