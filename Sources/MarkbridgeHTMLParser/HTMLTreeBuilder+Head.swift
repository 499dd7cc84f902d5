/// The modes before the body: initial, before html, before head, in head, in head noscript,
/// after head; and the text mode.
extension HTMLTreeBuilder {
    mutating func initialMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (_, rest) = Self.splitLeadingWhitespace(run)
            if !rest.isEmpty { initialAnythingElse(.characters(rest, offset: offset)) }
        case .comment(let data, let offset):
            insertComment(data, offset: offset, at: InsertionPlace(parent: 0))
        case .doctype(let doctype):
            let node = tree.createDoctype(name: doctype.name ?? "", publicID: doctype.publicID, systemID: doctype.systemID, offset: doctype.offset)
            tree.append(node, to: 0)
            isQuirks = Quirks.isQuirks(doctype)
            mode = .beforeHTML
        default:
            initialAnythingElse(token)
        }
    }

    private mutating func initialAnythingElse(_ token: TreeToken) {
        isQuirks = true
        mode = .beforeHTML
        reprocess(token)
    }

    mutating func beforeHTMLMode(_ token: TreeToken) {
        switch token {
        case .doctype:
            return
        case .comment(let data, let offset):
            insertComment(data, offset: offset, at: InsertionPlace(parent: 0))
        case .characters(let run, let offset):
            let (_, rest) = Self.splitLeadingWhitespace(run)
            if !rest.isEmpty { beforeHTMLAnythingElse(.characters(rest, offset: offset)) }
        case .startTag(let tag) where tag.tag == .html:
            let element = createElement(for: tag)
            tree.append(element, to: 0)
            push(element)
            mode = .beforeHead
        case .endTag(let tag) where !([.head, .body, .html, .br] as HTMLTagSet).contains(tag.tag):
            return
        default:
            beforeHTMLAnythingElse(token)
        }
    }

    private mutating func beforeHTMLAnythingElse(_ token: TreeToken) {
        let element = tree.createElement(tag: .html, customName: nil, namespace: .html, offset: offset(of: token))
        tree.append(element, to: 0)
        push(element)
        mode = .beforeHead
        reprocess(token)
    }

    mutating func beforeHeadMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (_, rest) = Self.splitLeadingWhitespace(run)
            if !rest.isEmpty { beforeHeadAnythingElse(.characters(rest, offset: offset)) }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .startTag(let tag) where tag.tag == .head:
            headElement = insertElement(for: tag)
            mode = .inHead
        case .endTag(let tag) where !([.head, .body, .html, .br] as HTMLTagSet).contains(tag.tag):
            return
        default:
            beforeHeadAnythingElse(token)
        }
    }

    private mutating func beforeHeadAnythingElse(_ token: TreeToken) {
        headElement = insertElement(for: Self.syntheticTag("head", .head, offset: offset(of: token)))
        mode = .inHead
        reprocess(token)
    }

    mutating func inHeadMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            insertCharacters(space, offset: offset)
            if !rest.isEmpty { inHeadAnythingElse(.characters(rest, offset: offset)) }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag):
            switch tag.tag {
            case .html:
                inBodyMode(token)
            case .base, .basefont, .bgsound, .link, .meta:
                insertElement(for: tag)
                pop()
            case .title:
                parseText(tag, state: .rcdata)
            case .noscript where scripting, .noframes, .style:
                parseText(tag, state: .rawtext)
            case .noscript:
                insertElement(for: tag)
                mode = .inHeadNoscript
            case .script:
                parseText(tag, state: .scriptData)
            case .template:
                insertElement(for: tag)
                activeFormatting.append(.marker)
                framesetOK = false
                mode = .inTemplate
                templateModes.append(.inTemplate)
            case .head:
                return
            default:
                inHeadAnythingElse(token)
            }
        case .endTag(let tag):
            switch tag.tag {
            case .head:
                pop()
                mode = .afterHead
            case .body, .html, .br:
                inHeadAnythingElse(token)
            case .template:
                endTemplate()
            default:
                return
            }
        case .endOfFile:
            inHeadAnythingElse(token)
        }
    }

    private mutating func inHeadAnythingElse(_ token: TreeToken) {
        pop()
        mode = .afterHead
        reprocess(token)
    }

    /// An end tag `template` in head (and wherever "in head" rules apply).
    mutating func endTemplate() {
        guard isOpen(.template) else { return }
        generateAllImpliedEndTagsThoroughly()
        popUntil(.template)
        clearActiveFormattingToLastMarker()
        templateModes.removeLast()
        resetInsertionMode()
    }

    mutating func inHeadNoscriptMode(_ token: TreeToken) {
        switch token {
        case .doctype:
            return
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .endTag(let tag) where tag.tag == .noscript:
            pop()
            mode = .inHead
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            inHeadMode(.characters(space, offset: offset))
            if !rest.isEmpty { inHeadNoscriptAnythingElse(.characters(rest, offset: offset)) }
        case .comment:
            inHeadMode(token)
        case .startTag(let tag) where ([.basefont, .bgsound, .link, .meta, .noframes, .style] as HTMLTagSet).contains(tag.tag):
            inHeadMode(token)
        case .startTag(let tag) where tag.tag == .head || tag.tag == .noscript:
            return
        case .endTag(let tag) where tag.tag != .br:
            return
        default:
            inHeadNoscriptAnythingElse(token)
        }
    }

    private mutating func inHeadNoscriptAnythingElse(_ token: TreeToken) {
        pop()
        mode = .inHead
        reprocess(token)
    }

    mutating func afterHeadMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            insertCharacters(space, offset: offset)
            if !rest.isEmpty { afterHeadAnythingElse(.characters(rest, offset: offset)) }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag):
            switch tag.tag {
            case .html:
                inBodyMode(token)
            case .body:
                insertElement(for: tag)
                framesetOK = false
                mode = .inBody
            case .frameset:
                insertElement(for: tag)
                mode = .inFrameset
            case .base, .basefont, .bgsound, .link, .meta, .noframes, .script, .style, .template, .title:
                if headElement >= 0 { push(headElement) }
                inHeadMode(token)
                if headElement >= 0 { removeFromStack(headElement) }
            case .head:
                return
            default:
                afterHeadAnythingElse(token)
            }
        case .endTag(let tag):
            switch tag.tag {
            case .template: inHeadMode(token)
            case .body, .html, .br: afterHeadAnythingElse(token)
            default: return
            }
        case .endOfFile:
            afterHeadAnythingElse(token)
        }
    }

    private mutating func afterHeadAnythingElse(_ token: TreeToken) {
        insertElement(for: Self.syntheticTag("body", .body, offset: offset(of: token)))
        mode = .inBody
        reprocess(token)
    }

    mutating func textMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            insertCharacters(run, offset: offset)
        case .endOfFile:
            pop()
            mode = originalMode
            reprocess(token)
        case .endTag:
            pop()
            mode = originalMode
        default:
            return
        }
    }

    // MARK: Helpers

    static func syntheticTag(_ name: String, _ tag: HTMLTag, offset: Int) -> HTMLTagToken {
        HTMLTagToken(name: name, tag: tag, isSelfClosing: false, offset: offset)
    }

    func offset(of token: TreeToken) -> Int {
        switch token {
        case .characters(_, let offset), .comment(_, let offset): offset
        case .startTag(let tag), .endTag(let tag): tag.offset
        case .doctype(let doctype): doctype.offset
        case .endOfFile: tokenizer.input.count
        }
    }
}
