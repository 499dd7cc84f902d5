@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The table modes: in table, in table text, in caption, in column group, in table body, in
/// row, in cell. Content that has no place in a table is foster-parented before it.
extension HTMLTreeBuilder {
    mutating func inTableMode(_ token: TreeToken) {
        switch token {
        case .characters:
            if let current = currentNode, isHTML(current, in: [.table, .tbody, .template, .tfoot, .thead, .tr]) {
                pendingTableCharacters = []
                pendingTableCharactersOffset = offset(of: token)
                originalMode = mode
                mode = .inTableText
                reprocess(token)
            } else {
                inTableAnythingElse(token)
            }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag):
            switch tag.tag {
            case .caption:
                clearStackBackToTableContext()
                activeFormatting.append(.marker)
                insertElement(for: tag)
                mode = .inCaption
            case .colgroup:
                clearStackBackToTableContext()
                insertElement(for: tag)
                mode = .inColumnGroup
            case .col:
                clearStackBackToTableContext()
                insertElement(for: Self.syntheticTag("colgroup", .colgroup, offset: tag.offset))
                mode = .inColumnGroup
                reprocess(token)
            case .tbody, .tfoot, .thead:
                clearStackBackToTableContext()
                insertElement(for: tag)
                mode = .inTableBody
            case .td, .th, .tr:
                clearStackBackToTableContext()
                insertElement(for: Self.syntheticTag("tbody", .tbody, offset: tag.offset))
                mode = .inTableBody
                reprocess(token)
            case .table:
                guard hasInScope(.table, .table) else { return }
                popUntil(.table)
                resetInsertionMode()
                reprocess(token)
            case .style, .script, .template:
                inHeadMode(token)
            case .input where tag.attributes.value(named: "type").map({ String(decoding: $0, as: UTF8.self).asciiLowercased() }) == "hidden":
                insertElement(for: tag)
                pop()
            case .form:
                guard !isOpen(.template), formElement < 0 else { return }
                formElement = insertElement(for: tag)
                pop()
            default:
                inTableAnythingElse(token)
            }
        case .endTag(let tag):
            switch tag.tag {
            case .table:
                guard hasInScope(.table, .table) else { return }
                popUntil(.table)
                resetInsertionMode()
            case .body, .caption, .col, .colgroup, .html, .tbody, .td, .tfoot, .th, .thead, .tr:
                return
            case .template:
                inHeadMode(token)
            default:
                inTableAnythingElse(token)
            }
        case .endOfFile:
            inBodyMode(token)
        }
    }

    /// Content out of place in a table: processed as in body, with foster parenting on.
    private mutating func inTableAnythingElse(_ token: TreeToken) {
        fosterParenting = true
        inBodyMode(token)
        fosterParenting = false
    }

    mutating func clearStackBackToTableContext() {
        while let current = currentNode, !isHTML(current, in: [.table, .template, .html]) { pop() }
    }

    mutating func clearStackBackToTableBodyContext() {
        while let current = currentNode, !isHTML(current, in: [.tbody, .tfoot, .thead, .template, .html]) { pop() }
    }

    mutating func clearStackBackToTableRowContext() {
        while let current = currentNode, !isHTML(current, in: [.tr, .template, .html]) { pop() }
    }

    mutating func inTableTextMode(_ token: TreeToken) {
        if case .characters(let run, _) = token {
            pendingTableCharacters.append(contentsOf: Self.removingNulls(run))
            return
        }
        let pending = pendingTableCharacters[...]
        pendingTableCharacters = []
        if !Self.isAllWhitespace(pending) {
            inTableAnythingElse(.characters(pending, offset: pendingTableCharactersOffset))
        } else {
            insertCharacters(pending, offset: pendingTableCharactersOffset)
        }
        mode = originalMode
        reprocess(token)
    }

    mutating func inCaptionMode(_ token: TreeToken) {
        switch token {
        case .endTag(let tag) where tag.tag == .caption:
            _ = closeCaption()
        case .startTag(let tag) where ([.caption, .col, .colgroup, .tbody, .td, .tfoot, .th, .thead, .tr] as HTMLTagSet).contains(tag.tag):
            if closeCaption() { reprocess(token) }
        case .endTag(let tag) where tag.tag == .table:
            if closeCaption() { reprocess(token) }
        case .endTag(let tag) where ([.body, .col, .colgroup, .html, .tbody, .td, .tfoot, .th, .thead, .tr] as HTMLTagSet).contains(tag.tag):
            return
        default:
            inBodyMode(token)
        }
    }

    private mutating func closeCaption() -> Bool {
        guard hasInScope(.caption, .table) else { return false }
        generateImpliedEndTags()
        popUntil(.caption)
        clearActiveFormattingToLastMarker()
        mode = .inTable
        return true
    }

    mutating func inColumnGroupMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            insertCharacters(space, offset: offset)
            if !rest.isEmpty { columnGroupAnythingElse(.characters(rest, offset: offset)) }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .startTag(let tag) where tag.tag == .col:
            insertElement(for: tag)
            pop()
        case .endTag(let tag) where tag.tag == .colgroup:
            guard currentIs(.colgroup) else { return }
            pop()
            mode = .inTable
        case .endTag(let tag) where tag.tag == .col:
            return
        case .startTag(let tag) where tag.tag == .template:
            inHeadMode(token)
        case .endTag(let tag) where tag.tag == .template:
            inHeadMode(token)
        case .endOfFile:
            inBodyMode(token)
        default:
            columnGroupAnythingElse(token)
        }
    }

    private mutating func columnGroupAnythingElse(_ token: TreeToken) {
        guard currentIs(.colgroup) else { return }
        pop()
        mode = .inTable
        reprocess(token)
    }

    mutating func inTableBodyMode(_ token: TreeToken) {
        switch token {
        case .startTag(let tag) where tag.tag == .tr:
            clearStackBackToTableBodyContext()
            insertElement(for: tag)
            mode = .inRow
        case .startTag(let tag) where tag.tag == .th || tag.tag == .td:
            clearStackBackToTableBodyContext()
            insertElement(for: Self.syntheticTag("tr", .tr, offset: tag.offset))
            mode = .inRow
            reprocess(token)
        case .endTag(let tag) where HTMLCategory.tableSections.contains(tag.tag):
            guard hasInScope(tag.tag, .table) else { return }
            clearStackBackToTableBodyContext()
            pop()
            mode = .inTable
        case .startTag(let tag) where ([.caption, .col, .colgroup, .tbody, .tfoot, .thead] as HTMLTagSet).contains(tag.tag):
            leaveTableBody(token)
        case .endTag(let tag) where tag.tag == .table:
            leaveTableBody(token)
        case .endTag(let tag) where ([.body, .caption, .col, .colgroup, .html, .td, .th, .tr] as HTMLTagSet).contains(tag.tag):
            return
        default:
            inTableMode(token)
        }
    }

    private mutating func leaveTableBody(_ token: TreeToken) {
        guard hasInScope(anyOf: HTMLCategory.tableSections, .table) else { return }
        clearStackBackToTableBodyContext()
        pop()
        mode = .inTable
        reprocess(token)
    }

    mutating func inRowMode(_ token: TreeToken) {
        switch token {
        case .startTag(let tag) where tag.tag == .th || tag.tag == .td:
            clearStackBackToTableRowContext()
            insertElement(for: tag)
            mode = .inCell
            activeFormatting.append(.marker)
        case .endTag(let tag) where tag.tag == .tr:
            guard hasInScope(.tr, .table) else { return }
            clearStackBackToTableRowContext()
            pop()
            mode = .inTableBody
        case .startTag(let tag) where ([.caption, .col, .colgroup, .tbody, .tfoot, .thead, .tr] as HTMLTagSet).contains(tag.tag):
            leaveRow(token)
        case .endTag(let tag) where tag.tag == .table:
            leaveRow(token)
        case .endTag(let tag) where HTMLCategory.tableSections.contains(tag.tag):
            guard hasInScope(tag.tag, .table) else { return }
            leaveRow(token)
        case .endTag(let tag) where ([.body, .caption, .col, .colgroup, .html, .td, .th] as HTMLTagSet).contains(tag.tag):
            return
        default:
            inTableMode(token)
        }
    }

    private mutating func leaveRow(_ token: TreeToken) {
        guard hasInScope(.tr, .table) else { return }
        clearStackBackToTableRowContext()
        pop()
        mode = .inTableBody
        reprocess(token)
    }

    mutating func inCellMode(_ token: TreeToken) {
        switch token {
        case .endTag(let tag) where tag.tag == .td || tag.tag == .th:
            guard hasInScope(tag.tag, .table) else { return }
            generateImpliedEndTags()
            popUntil(tag.tag)
            clearActiveFormattingToLastMarker()
            mode = .inRow
        case .startTag(let tag) where ([.caption, .col, .colgroup, .tbody, .td, .tfoot, .th, .thead, .tr] as HTMLTagSet).contains(tag.tag):
            guard hasInScope(anyOf: [.td, .th], .table) else { return }
            closeCell()
            reprocess(token)
        case .endTag(let tag) where ([.body, .caption, .col, .colgroup, .html] as HTMLTagSet).contains(tag.tag):
            return
        case .endTag(let tag) where ([.table, .tbody, .tfoot, .thead, .tr] as HTMLTagSet).contains(tag.tag):
            guard hasInScope(tag.tag, .table) else { return }
            closeCell()
            reprocess(token)
        default:
            inBodyMode(token)
        }
    }

    private mutating func closeCell() {
        generateImpliedEndTags()
        popUntil(anyOf: [.td, .th])
        clearActiveFormattingToLastMarker()
        mode = .inRow
    }
}
