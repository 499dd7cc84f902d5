/// Creating and inserting nodes: the appropriate place for inserting a node (with foster
/// parenting), elements for tokens, characters and comments.
extension HTMLTreeBuilder {
    /// Where a new node goes: appended to `parent`, or inserted before `before`.
    struct InsertionPlace {
        var parent: Int32
        var before: Int32?
    }

    mutating func appropriatePlace(overrideTarget: Int32? = nil) -> InsertionPlace {
        let target = overrideTarget ?? currentNode ?? 0
        var place = InsertionPlace(parent: target)
        if fosterParenting && isHTML(target, in: [.table, .tbody, .tfoot, .thead, .tr]) {
            var lastTemplate: Int?
            var lastTable: Int?
            for index in openElements.indices.reversed() where lastTemplate == nil || lastTable == nil {
                let element = openElements[index]
                if lastTemplate == nil && isHTML(element, .template) { lastTemplate = index }
                if lastTable == nil && isHTML(element, .table) { lastTable = index }
            }
            if let lastTemplate, lastTable == nil || lastTemplate > lastTable! {
                place = InsertionPlace(parent: openElements[lastTemplate])
            } else if let lastTable {
                let table = openElements[lastTable]
                let parent = tree.nodes[Int(table)].parent
                if parent >= 0 {
                    place = InsertionPlace(parent: parent, before: table)
                } else {
                    place = InsertionPlace(parent: openElements[max(lastTable - 1, 0)])
                }
            } else {
                place = InsertionPlace(parent: openElements.first ?? 0)
            }
        }
        if isHTML(place.parent, .template), tree.nodes[Int(place.parent)].kind == .element {
            place.parent = tree.templateContents(of: place.parent)
        }
        return place
    }

    mutating func insert(_ node: Int32, at place: InsertionPlace) {
        if let before = place.before {
            tree.insert(node, before: before, in: place.parent)
        } else {
            tree.append(node, to: place.parent)
        }
    }

    mutating func createElement(for token: HTMLTagToken, namespace: HTMLNamespace = .html) -> Int32 {
        // A foreign element keeps its name (adjusted case for SVG); an HTML one only when it is
        // not its tag's.
        tree.createElement(tag: token.tag, customName: namespace == .html ? token.customName : token.name,
                           namespace: namespace, attributes: token.attributes, offset: token.offset)
    }

    /// "Insert an HTML element" (or a foreign one): create, insert at the appropriate place, push.
    @discardableResult
    mutating func insertElement(for token: HTMLTagToken, namespace: HTMLNamespace = .html) -> Int32 {
        let element = createElement(for: token, namespace: namespace)
        insert(element, at: appropriatePlace())
        push(element)
        return element
    }

    /// Inserts an element that may nest without bound (containers, formatting and unknown
    /// elements, foreign content). Past `maxDepth` open elements it is not created: its content
    /// flows into the current node, so text is kept and only structure is flattened, and every
    /// scan of the stack stays bounded. Returns nil when flattened.
    @discardableResult
    mutating func insertFlattenableElement(for token: HTMLTagToken, namespace: HTMLNamespace = .html) -> Int32? {
        if openElements.count >= maxDepth {
            if depthLimitOffset == nil { depthLimitOffset = token.offset }
            flattenedElementCount += 1
            // A block flattened into its parent still parts the words on either side of it,
            // as the boundary would have: `a<p>b` is "a b", never "ab".
            if namespace == .html && HTMLCategory.blockBoundaries.contains(token.tag) {
                insertCharacters([0x20][...], offset: token.offset)
            }
            return nil
        }
        return insertElement(for: token, namespace: namespace)
    }

    mutating func insertCharacters(_ bytes: ArraySlice<UInt8>, offset: Int) {
        guard !bytes.isEmpty, let node = textNodeForCharacters(offset: offset) else { return }
        tree.appendText(bytes, to: node)
    }

    /// `insertCharacters` for a run that is the input's bytes in `range`.
    mutating func insertInputCharacters(_ range: Range<Int>, offset: Int) {
        guard !range.isEmpty, let node = textNodeForCharacters(offset: offset) else { return }
        tree.appendInputText(Int32(range.lowerBound)..<Int32(range.upperBound), to: node)
    }

    /// The text node characters go into at the appropriate place: the text node that ends
    /// there, or a new one. Nil where text is dropped (directly in the document).
    private mutating func textNodeForCharacters(offset: Int) -> Int32? {
        let place = appropriatePlace()
        if tree.nodes[Int(place.parent)].kind == .document { return nil }
        let previous = if let before = place.before { tree.previousSiblingIndex(before) } else { tree.lastChildIndex(place.parent) }
        if previous >= 0, tree.nodes[Int(previous)].kind == .text { return previous }
        let text = tree.createText(offset: offset)
        insert(text, at: place)
        return text
    }

    mutating func insertComment(_ data: [UInt8], offset: Int, at place: InsertionPlace? = nil) {
        let comment = tree.createComment(data, offset: offset)
        insert(comment, at: place ?? appropriatePlace())
    }

    // MARK: Character runs

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// Splits a run into its leading whitespace and the rest.
    static func splitLeadingWhitespace(_ run: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let end = run.firstIndex { !isWhitespace($0) } ?? run.endIndex
        return (run[run.startIndex..<end], run[end...])
    }

    static func isAllWhitespace(_ run: ArraySlice<UInt8>) -> Bool {
        run.allSatisfy(isWhitespace)
    }

    /// The run with every U+0000 removed (they are ignored where the standard says so).
    static func removingNulls(_ run: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard run.contains(0) else { return run }
        return ArraySlice(run.filter { $0 != 0 })
    }

    /// The run with every U+0000 replaced by U+FFFD.
    static func replacingNulls(_ run: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard run.contains(0) else { return run }
        var out: [UInt8] = []
        out.reserveCapacity(run.count + 2)
        for byte in run {
            if byte == 0 { out += HTMLTokenizer.replacementCharacter } else { out.append(byte) }
        }
        return out[...]
    }

    // MARK: Generic content parsing

    /// The generic raw text and RCDATA element parsing algorithms.
    mutating func parseText(_ token: HTMLTagToken, state: HTMLTokenizerState) {
        insertElement(for: token)
        tokenizer.state = state
        originalMode = mode
        mode = .text
    }
}
