/// The states of the WHATWG tokenizer (HTML standard 13.2.5), named as the standard names them.
/// Character references are consumed by a function rather than states of their own.
enum HTMLTokenizerState: UInt8, Sendable {
    case data, rcdata, rawtext, scriptData, plaintext
    case tagOpen, endTagOpen, tagName
    case rcdataLessThanSign, rcdataEndTagOpen, rcdataEndTagName
    case rawtextLessThanSign, rawtextEndTagOpen, rawtextEndTagName
    case scriptDataLessThanSign, scriptDataEndTagOpen, scriptDataEndTagName
    case scriptDataEscapeStart, scriptDataEscapeStartDash
    case scriptDataEscaped, scriptDataEscapedDash, scriptDataEscapedDashDash
    case scriptDataEscapedLessThanSign, scriptDataEscapedEndTagOpen, scriptDataEscapedEndTagName
    case scriptDataDoubleEscapeStart, scriptDataDoubleEscaped, scriptDataDoubleEscapedDash
    case scriptDataDoubleEscapedDashDash, scriptDataDoubleEscapedLessThanSign, scriptDataDoubleEscapeEnd
    case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
    case attributeValueDoubleQuoted, attributeValueSingleQuoted, attributeValueUnquoted
    case afterAttributeValueQuoted, selfClosingStartTag
    case bogusComment, markupDeclarationOpen
    case commentStart, commentStartDash, comment, commentLessThanSign, commentLessThanSignBang
    case commentLessThanSignBangDash, commentLessThanSignBangDashDash, commentEndDash, commentEnd, commentEndBang
    case doctype, beforeDoctypeName, doctypeName, afterDoctypeName
    case afterDoctypePublicKeyword, beforeDoctypePublicIdentifier
    case doctypePublicIdentifierDoubleQuoted, doctypePublicIdentifierSingleQuoted, afterDoctypePublicIdentifier
    case betweenDoctypePublicAndSystemIdentifiers, afterDoctypeSystemKeyword, beforeDoctypeSystemIdentifier
    case doctypeSystemIdentifierDoubleQuoted, doctypeSystemIdentifierSingleQuoted, afterDoctypeSystemIdentifier
    case bogusDoctype
    case cdataSection, cdataSectionBracket, cdataSectionEnd
}
