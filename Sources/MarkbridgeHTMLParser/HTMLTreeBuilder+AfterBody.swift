/// The modes after the body and the frameset modes.
extension HTMLTreeBuilder {
    mutating func afterBodyMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            inBodyMode(.characters(space, offset: offset))
            if !rest.isEmpty {
                mode = .inBody
                reprocess(.characters(rest, offset: offset))
            }
        case .comment(let data, let offset):
            insertComment(data, offset: offset, at: InsertionPlace(parent: openElements.first ?? 0))
        case .doctype:
            return
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .endTag(let tag) where tag.tag == .html:
            if contextElement < 0 { mode = .afterAfterBody }
        case .endOfFile:
            return
        default:
            mode = .inBody
            reprocess(token)
        }
    }

    mutating func inFramesetMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            insertCharacters(ArraySlice(run.filter(Self.isWhitespace)), offset: offset)
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .startTag(let tag):
            switch tag.tag {
            case .html: inBodyMode(token)
            case .frameset: insertElement(for: tag)
            case .frame:
                insertElement(for: tag)
                pop()
            case .noframes: inHeadMode(token)
            default: return
            }
        case .endTag(let tag) where tag.tag == .frameset:
            guard let current = currentNode, current != openElements.first else { return }
            pop()
            if contextElement < 0 && !currentIs(.frameset) { mode = .afterFrameset }
        default:
            return
        }
    }

    mutating func afterFramesetMode(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            insertCharacters(ArraySlice(run.filter(Self.isWhitespace)), offset: offset)
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .endTag(let tag) where tag.tag == .html:
            mode = .afterAfterFrameset
        case .startTag(let tag) where tag.tag == .noframes:
            inHeadMode(token)
        default:
            return
        }
    }

    mutating func afterAfterBodyMode(_ token: TreeToken) {
        switch token {
        case .comment(let data, let offset):
            insertComment(data, offset: offset, at: InsertionPlace(parent: 0))
        case .doctype:
            inBodyMode(token)
        case .characters(let run, let offset):
            let (space, rest) = Self.splitLeadingWhitespace(run)
            inBodyMode(.characters(space, offset: offset))
            if !rest.isEmpty {
                mode = .inBody
                reprocess(.characters(rest, offset: offset))
            }
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .endOfFile:
            return
        default:
            mode = .inBody
            reprocess(token)
        }
    }

    mutating func afterAfterFramesetMode(_ token: TreeToken) {
        switch token {
        case .comment(let data, let offset):
            insertComment(data, offset: offset, at: InsertionPlace(parent: 0))
        case .doctype:
            inBodyMode(token)
        case .characters(let run, let offset):
            inBodyMode(.characters(ArraySlice(run.filter(Self.isWhitespace)), offset: offset))
        case .startTag(let tag) where tag.tag == .html:
            inBodyMode(token)
        case .startTag(let tag) where tag.tag == .noframes:
            inHeadMode(token)
        default:
            return
        }
    }

    /// "Reset the insertion mode appropriately".
    mutating func resetInsertionMode() {
        for index in stride(from: openElements.count - 1, through: 0, by: -1) {
            var element = openElements[index]
            let last = index == 0
            if last && contextElement >= 0 { element = contextElement }
            let stored = tree.nodes[Int(element)]
            guard stored.namespace == .html else {
                if last { mode = .inBody; return }
                continue
            }
            switch stored.tag {
            case .td where !last, .th where !last:
                mode = .inCell
                return
            case .tr: mode = .inRow; return
            case .tbody, .thead, .tfoot: mode = .inTableBody; return
            case .caption: mode = .inCaption; return
            case .colgroup: mode = .inColumnGroup; return
            case .table: mode = .inTable; return
            case .template: mode = templateModes.last ?? .inTemplate; return
            case .head where !last: mode = .inHead; return
            case .body: mode = .inBody; return
            case .frameset: mode = .inFrameset; return
            case .html:
                mode = headElement < 0 ? .beforeHead : .afterHead
                return
            default:
                if last { mode = .inBody; return }
            }
        }
    }
}
