@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The "in body" insertion mode: where almost all real content is built.
extension HTMLTreeBuilder {
    static let blockContainers: HTMLTagSet = [
        .address, .article, .aside, .blockquote, .center, .details, .dialog, .dir, .div, .dl, .fieldset,
        .figcaption, .figure, .footer, .header, .hgroup, .main, .menu, .nav, .ol, .p, .search, .section, .summary, .ul,
    ]
    static let blockEndTags: HTMLTagSet = blockContainers.subtracting([.p]).union([.button, .listing, .pre, .select])

    mutating func inBodyMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let text = inputHasNull ? Self.removingNulls(run) : run
            guard !text.isEmpty else { return }
            reconstructActiveFormattingElements()
            insertCharacters(text, offset: offset)
            if framesetOK && !Self.isAllWhitespace(text) { framesetOK = false }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag):
            inBodyStartTag(tag, token)
        case .endTag(let tag):
            inBodyEndTag(tag, token)
        case .endOfFile:
            if !templateModes.isEmpty { inTemplateMode(token) }
        }
    }

    private mutating func inBodyStartTag(_ tag: HTMLTagToken, _ token: TreeToken) {
        switch tag.tag {
        case .html:
            if isOpen(.template) { return }
            if let root = openElements.first { tree.addMissingAttributes(tag.attributes, to: root) }
        case .base, .basefont, .bgsound, .link, .meta, .noframes, .script, .style, .template, .title:
            inHeadMode(token)
        case .body:
            guard openElements.count > 1, isHTML(openElements[1], .body), !isOpen(.template) else { return }
            framesetOK = false
            tree.addMissingAttributes(tag.attributes, to: openElements[1])
        case .frameset:
            guard openElements.count > 1, isHTML(openElements[1], .body), framesetOK else { return }
            tree.detach(openElements[1])
            while openElements.count > 1 { pop() }
            insertElement(for: tag)
            mode = .inFrameset
        case let name where Self.blockContainers.contains(name):
            closePIfInButtonScope()
            insertFlattenableElement(for: tag)
        case .h1, .h2, .h3, .h4, .h5, .h6:
            closePIfInButtonScope()
            if let current = currentNode, isHTML(current, in: HTMLCategory.headings) { pop() }
            insertFlattenableElement(for: tag)
        case .pre, .listing:
            closePIfInButtonScope()
            insertFlattenableElement(for: tag)
            ignoresNextLineFeed = true
            framesetOK = false
        case .form:
            if formElement >= 0 && !isOpen(.template) { return }
            closePIfInButtonScope()
            let element = insertFlattenableElement(for: tag)
            if !isOpen(.template), let element { formElement = element }
        case .li, .dd, .dt:
            framesetOK = false
            let matches: HTMLTagSet = tag.tag == .li ? [.li] : [.dd, .dt]
            var index = openElements.count
            while index > 0 {
                index -= 1
                let element = openElements[index]
                if isHTML(element, in: matches) {
                    let found = tree.nodes[Int(element)].tag
                    generateImpliedEndTags(except: found)
                    popUntil(found)
                    break
                }
                if isSpecial(element) && !isHTML(element, in: [.address, .div, .p]) { break }
            }
            closePIfInButtonScope()
            insertFlattenableElement(for: tag)
        case .plaintext:
            closePIfInButtonScope()
            insertElement(for: tag)
            tokenizer.state = .plaintext
        case .button:
            if hasInScope(.button) {
                generateImpliedEndTags()
                popUntil(.button)
            }
            reconstructActiveFormattingElements()
            insertFlattenableElement(for: tag)
            framesetOK = false
        case .a:
            if let existing = lastFormattingElement(of: .a) {
                adoptionAgency(subject: .a, token: token)
                removeFromActiveFormatting(existing)
                removeFromStack(existing)
            }
            reconstructActiveFormattingElements()
            if let element = insertFlattenableElement(for: tag) { pushActiveFormatting(element, tag) }
        case .b, .big, .code, .em, .font, .i, .s, .small, .strike, .strong, .tt, .u:
            reconstructActiveFormattingElements()
            if let element = insertFlattenableElement(for: tag) { pushActiveFormatting(element, tag) }
        case .nobr:
            reconstructActiveFormattingElements()
            if hasInScope(.nobr) {
                adoptionAgency(subject: .nobr, token: token)
                reconstructActiveFormattingElements()
            }
            if let element = insertFlattenableElement(for: tag) { pushActiveFormatting(element, tag) }
        case .applet, .marquee, .object:
            reconstructActiveFormattingElements()
            if insertFlattenableElement(for: tag) != nil { activeFormatting.append(.marker) }
            framesetOK = false
        case .table:
            if !isQuirks { closePIfInButtonScope() }
            insertElement(for: tag)
            framesetOK = false
            mode = .inTable
        case .area, .br, .embed, .img, .keygen, .wbr:
            reconstructActiveFormattingElements()
            insertElement(for: tag)
            pop()
            framesetOK = false
        case .input:
            // Customizable select (whatwg/html#10548): an input closes an open select.
            if isFragmentIn(.select) { return }
            if hasInScope(.select) { popUntil(.select) }
            reconstructActiveFormattingElements()
            insertElement(for: tag)
            pop()
            let type = tag.attributes.value(named: "type").map { String(decoding: $0, as: UTF8.self).asciiLowercased() }
            if type != "hidden" { framesetOK = false }
        case .param, .source, .track:
            insertElement(for: tag)
            pop()
        case .hr:
            closePIfInButtonScope()
            if hasInScope(.select) { generateImpliedEndTags() }
            insertElement(for: tag)
            pop()
            framesetOK = false
        case .image:
            var renamed = tag
            renamed.name = "img"
            renamed.tag = .img
            reprocess(.startTag(renamed))
        case .textarea:
            insertElement(for: tag)
            ignoresNextLineFeed = true
            tokenizer.state = .rcdata
            originalMode = mode
            framesetOK = false
            mode = .text
        case .xmp:
            closePIfInButtonScope()
            reconstructActiveFormattingElements()
            framesetOK = false
            parseText(tag, state: .rawtext)
        case .iframe:
            framesetOK = false
            parseText(tag, state: .rawtext)
        case .noembed:
            parseText(tag, state: .rawtext)
        case .noscript where scripting:
            parseText(tag, state: .rawtext)
        case .select:
            // Customizable select: select content is parsed by the body rules; a nested select
            // closes the open one.
            if isFragmentIn(.select) { return }
            if hasInScope(.select) {
                popUntil(.select)
                return
            }
            reconstructActiveFormattingElements()
            insertFlattenableElement(for: tag)
            framesetOK = false
        case .option:
            if hasInScope(.select) {
                generateImpliedEndTags(except: .optgroup)
            } else if currentIs(.option) {
                pop()
            }
            reconstructActiveFormattingElements()
            insertFlattenableElement(for: tag)
        case .optgroup:
            if hasInScope(.select) {
                generateImpliedEndTags()
            } else if currentIs(.option) {
                pop()
            }
            reconstructActiveFormattingElements()
            insertFlattenableElement(for: tag)
        case .rb, .rtc:
            if hasInScope(.ruby) { generateImpliedEndTags() }
            insertFlattenableElement(for: tag)
        case .rp, .rt:
            if hasInScope(.ruby) { generateImpliedEndTags(except: .rtc) }
            insertFlattenableElement(for: tag)
        case .math, .svg:
            reconstructActiveFormattingElements()
            let namespace: HTMLNamespace = tag.tag == .math ? .mathml : .svg
            let adjusted = ForeignContent.adjust(tag, namespace: namespace)
            if insertFlattenableElement(for: adjusted, namespace: namespace) != nil, tag.isSelfClosing { pop() }
        case .caption, .col, .colgroup, .frame, .head, .tbody, .td, .tfoot, .th, .thead, .tr:
            return
        default:
            reconstructActiveFormattingElements()
            insertFlattenableElement(for: tag)
        }
    }

    private mutating func inBodyEndTag(_ tag: HTMLTagToken, _ token: TreeToken) {
        switch tag.tag {
        case .template:
            inHeadMode(token)
        case .body, .html:
            guard hasInScope(.body) else { return }
            mode = .afterBody
            if tag.tag == .html { reprocess(token) }
        case let name where Self.blockEndTags.contains(name):
            guard hasInScope(name) else { return }
            generateImpliedEndTags()
            popUntil(name)
        case .form:
            if !isOpen(.template) {
                let element = formElement
                formElement = -1
                guard element >= 0, hasElementInScope(element) else { return }
                generateImpliedEndTags()
                removeFromStack(element)
            } else {
                guard hasInScope(.form) else { return }
                generateImpliedEndTags()
                popUntil(.form)
            }
        case .p:
            if !hasInScope(.p, .button) {
                insertElement(for: Self.syntheticTag("p", .p, offset: tag.offset))
            }
            closePElement()
        case .li:
            guard hasInScope(.li, .listItem) else { return }
            generateImpliedEndTags(except: .li)
            popUntil(.li)
        case .dd, .dt:
            guard hasInScope(tag.tag) else { return }
            generateImpliedEndTags(except: tag.tag)
            popUntil(tag.tag)
        case .h1, .h2, .h3, .h4, .h5, .h6:
            guard hasInScope(anyOf: HTMLCategory.headings) else { return }
            generateImpliedEndTags()
            popUntil(anyOf: HTMLCategory.headings)
        case .a, .b, .big, .code, .em, .font, .i, .nobr, .s, .small, .strike, .strong, .tt, .u:
            adoptionAgency(subject: tag.tag, token: token)
        case .applet, .marquee, .object:
            guard hasInScope(tag.tag) else { return }
            generateImpliedEndTags()
            popUntil(tag.tag)
            clearActiveFormattingToLastMarker()
        case .br:
            inBodyStartTag(HTMLTagToken(name: "br", tag: .br, isSelfClosing: false, offset: tag.offset),
                           .startTag(HTMLTagToken(name: "br", tag: .br, isSelfClosing: false, offset: tag.offset)))
        default:
            anyOtherEndTag(tag)
        }
    }

    /// Whether this is a fragment parse whose context element is an HTML `tag`.
    func isFragmentIn(_ tag: HTMLTag) -> Bool {
        contextElement >= 0 && isHTML(contextElement, tag)
    }

    /// "Any other end tag" in body: close the nearest open element of that name, unless a
    /// special element stands in the way.
    mutating func anyOtherEndTag(_ tag: HTMLTagToken) {
        // No open HTML element has that tag (unknown tags share one count): the walk would end at
        // a special element or the bottom of the stack without doing anything.
        if !isOpen(tag.tag) { return }
        for index in stride(from: openElements.count - 1, through: 0, by: -1) {
            let element = openElements[index]
            if isHTML(element, named: tag.tag, customName: tag.customName) {
                generateImpliedEndTags(except: tag.tag == .unknown ? nil : tag.tag)
                while openElements.count > index { pop() }
                return
            }
            if isSpecial(element) { return }
        }
    }
}
