/// The template mode. (The select modes are gone from the standard since customizable
/// `<select>`, whatwg/html#10548: select content is parsed by the body rules.)
extension HTMLTreeBuilder {
    mutating func inTemplateMode(_ token: TreeToken) {
        switch token {
        case .characters, .comment, .doctype:
            inBodyMode(token)
        case .startTag(let tag):
            switch tag.tag {
            case .base, .basefont, .bgsound, .link, .meta, .noframes, .script, .style, .template, .title:
                inHeadMode(token)
            case .caption, .colgroup, .tbody, .tfoot, .thead:
                switchTemplateMode(to: .inTable, token)
            case .col:
                switchTemplateMode(to: .inColumnGroup, token)
            case .tr:
                switchTemplateMode(to: .inTableBody, token)
            case .td, .th:
                switchTemplateMode(to: .inRow, token)
            default:
                switchTemplateMode(to: .inBody, token)
            }
        case .endTag(let tag):
            if tag.tag == .template { inHeadMode(token) }
        case .endOfFile:
            guard isOpen(.template) else { return }
            popUntil(.template)
            clearActiveFormattingToLastMarker()
            templateModes.removeLast()
            resetInsertionMode()
            reprocess(token)
        }
    }

    private mutating func switchTemplateMode(to newMode: HTMLInsertionMode, _ token: TreeToken) {
        templateModes.removeLast()
        templateModes.append(newMode)
        mode = newMode
        reprocess(token)
    }
}
