/// A start or end tag as the tokenizer emits it.
///
/// The one-byte fields come last so that the token packs without padding (it is copied for
/// every tag, inside the token enums).
struct HTMLTagToken: Sendable {
    /// The name when it is not `tag`'s lower-case name: unknown tags, adjusted SVG names.
    var customName: String?
    var attributes: HTMLTokenAttributes
    /// Offset of the `<` in the normalised input.
    var offset: Int
    var tag: HTMLTag
    var isSelfClosing: Bool

    init(name: String, tag: HTMLTag, attributes: HTMLTokenAttributes = HTMLTokenAttributes(), isSelfClosing: Bool, offset: Int) {
        self.tag = tag
        self.customName = tag != .unknown && name == tag.lowercaseName ? nil : name
        self.attributes = attributes
        self.isSelfClosing = isSelfClosing
        self.offset = offset
    }

    init(tag: HTMLTag, customName: String?, attributes: HTMLTokenAttributes, isSelfClosing: Bool, offset: Int) {
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

/// A class so that the token enums, copied for every token, stay small: doctypes are rare,
/// and their three optional strings would otherwise set the size of every token.
final class HTMLDoctypeToken: Sendable {
    let name: String?
    let publicID: String?
    let systemID: String?
    let forceQuirks: Bool
    let offset: Int

    init(name: String?, publicID: String?, systemID: String?, forceQuirks: Bool, offset: Int) {
        self.name = name
        self.publicID = publicID
        self.systemID = systemID
        self.forceQuirks = forceQuirks
        self.offset = offset
    }
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
