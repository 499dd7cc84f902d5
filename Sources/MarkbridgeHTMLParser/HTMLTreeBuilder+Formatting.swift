/// The list of active formatting elements: pushing with the Noah's Ark clause, reconstruction,
/// and the adoption agency algorithm (HTML standard 13.2.4.3 and 13.2.6.4.7).
extension HTMLTreeBuilder {
    /// Pushes a formatting element. At most three entries with the same name and attributes
    /// after the last marker (the Noah's Ark clause), and at most `maxFormattingEntries` in all:
    /// every paragraph reopens the whole list, so an unbounded list lets `<p><b id=N>` repeated
    /// build a tree quadratic in the input. Past the cap the earliest entry is let go (its
    /// element stays; it is only not reopened), and a diagnostic counts it.
    mutating func pushActiveFormatting(_ element: Int32, _ token: HTMLTagToken) {
        var matches = 0
        var earliest: Int?
        var afterMarker = 0
        for index in stride(from: activeFormatting.count - 1, through: 0, by: -1) {
            // The element alone first: the entry's token (a retain to copy) only for the same tag.
            guard let other = activeFormatting[index].element else { break }
            afterMarker += 1
            if isHTML(other, named: token.tag, customName: token.customName),
               case .element(_, let otherToken) = activeFormatting[index],
               otherToken.attributes.hasSameAttributes(as: token.attributes) {
                matches += 1
                earliest = index
                if matches == 3 { break }
            }
        }
        if matches == 3, let earliest {
            activeFormatting.remove(at: earliest)
            afterMarker -= 1
        }
        if afterMarker >= Self.maxFormattingEntries {
            let earliest = activeFormatting.count - afterMarker
            activeFormatting.remove(at: earliest)
            droppedFormattingCount += 1
            if droppedFormattingOffset == nil { droppedFormattingOffset = token.offset }
        }
        activeFormatting.append(.element(element, token))
    }

    static let maxFormattingEntries = 12

    /// Reconstruction is the one step that makes more elements than the input has tags: each
    /// block reopens every formatting element left open, so `<b><i><u>…` followed by `<p>x`
    /// many times turns 4 input bytes into a dozen elements, and the output grows 50-fold.
    /// In all, reconstruction reopens at most one element per `inputBytesPerReopening` bytes of
    /// input (and at least `minimumReopenBudget`): no real document comes near it, and past it
    /// the formatting is no longer carried into later blocks, reported as `formatting-limit`.
    static let inputBytesPerReopening = 4
    static let minimumReopenBudget = 4096

    static func reopenBudget(forInputBytes count: Int) -> Int {
        max(minimumReopenBudget, count / inputBytesPerReopening)
    }

    mutating func reconstructActiveFormattingElements() {
        // Called before every run of text: the usual answer, nothing to reopen, reads one entry.
        guard let lastIndex = activeFormatting.indices.last else { return }
        if let element = activeFormatting[lastIndex].element, !isOnStack(element) {
            var index = lastIndex
            while index > 0, let other = activeFormatting[index - 1].element, !isOnStack(other) {
                index -= 1
            }
            if reopenBudget < activeFormatting.count - index {
                stopCarryingFormatting(from: index)
                return
            }
            reopenBudget -= activeFormatting.count - index
            while index < activeFormatting.count {
                guard case .element(_, let token) = activeFormatting[index] else { break }
                if let element = insertFlattenableElement(for: token) {
                    activeFormatting[index] = .element(element, token)
                    index += 1
                } else {
                    // Past the depth cap the formatting is flattened, not retried forever.
                    activeFormatting.remove(at: index)
                }
            }
        }
    }

    /// The reopening budget is spent: the entries from `index` on (none of them open) are let
    /// go, so the text that follows is no longer inside them.
    private mutating func stopCarryingFormatting(from index: Int) {
        let skipped = activeFormatting.count - index
        if reopenLimitOffset == nil, case .element(_, let token) = activeFormatting[index] { reopenLimitOffset = token.offset }
        skippedReopenCount += skipped
        activeFormatting.removeSubrange(index...)
    }

    mutating func clearActiveFormattingToLastMarker() {
        while let entry = activeFormatting.popLast() {
            if case .marker = entry { return }
        }
    }

    /// The last formatting element of `tag` (a formatting tag: never unknown) after the last marker.
    func lastFormattingElement(of tag: HTMLTag) -> Int32? {
        for index in activeFormatting.indices.reversed() {
            guard let element = activeFormatting[index].element else { return nil }
            if isHTML(element, tag) { return element }
        }
        return nil
    }

    mutating func activeFormattingIndex(of element: Int32) -> Int? {
        for index in activeFormatting.indices.reversed() where activeFormatting[index].element == element {
            return index
        }
        return nil
    }

    mutating func removeFromActiveFormatting(_ element: Int32) {
        if let index = activeFormattingIndex(of: element) { activeFormatting.remove(at: index) }
    }

    /// The adoption agency algorithm, for an end tag (or an implied one) of a formatting element.
    mutating func adoptionAgency(subject tag: HTMLTag, token: TreeToken) {
        guard let current = currentNode, isHTML(current, tag) else {
            return adoptionAgencyLoop(subject: tag, token: token)
        }
        // The usual `</b>`: the element is the current node. When it is also the last entry of
        // the formatting list, it is the formatting element, in scope, with no furthest block,
        // so the algorithm comes down to popping it and removing its entry.
        if activeFormatting.last?.element == current {
            pop()
            activeFormatting.removeLast()
            return
        }
        if activeFormattingIndex(of: current) == nil {
            pop()
            return
        }
        adoptionAgencyLoop(subject: tag, token: token)
    }

    /// The algorithm's outer loop (steps 3 and on).
    private mutating func adoptionAgencyLoop(subject tag: HTMLTag, token: TreeToken) {
        for _ in 0..<8 {
            guard let formattingElement = lastFormattingElement(of: tag),
                  let formattingIndex = activeFormattingIndex(of: formattingElement),
                  case .element(_, let formattingToken) = activeFormatting[formattingIndex] else {
                switch token {
                case .endTag(let endTag), .startTag(let endTag): anyOtherEndTag(endTag)
                default: break
                }
                return
            }
            guard isOnStack(formattingElement), let stackIndex = openElements.lastIndex(of: formattingElement) else {
                activeFormatting.remove(at: formattingIndex)
                return
            }
            guard hasElementInScope(formattingElement) else { return }
            var furthest: Int?
            for index in (stackIndex + 1)..<openElements.count where isSpecial(openElements[index]) {
                furthest = index
                break
            }
            guard let furthestIndex = furthest else {
                while let popped = pop(), popped != formattingElement {}
                removeFromActiveFormatting(formattingElement)
                return
            }
            let furthestBlock = openElements[furthestIndex]
            let commonAncestor = openElements[stackIndex - 1]
            var bookmark = formattingIndex
            var node = furthestBlock
            var lastNode = furthestBlock
            var nodeIndex = furthestIndex
            var innerCounter = 0
            while true {
                innerCounter += 1
                nodeIndex -= 1
                node = openElements[nodeIndex]
                if node == formattingElement { break }
                var entryIndex = activeFormattingIndex(of: node)
                if innerCounter > 3, let index = entryIndex {
                    activeFormatting.remove(at: index)
                    if index < bookmark { bookmark -= 1 }
                    entryIndex = nil
                }
                guard let index = entryIndex, case .element(_, let nodeToken) = activeFormatting[index] else {
                    removeFromStack(node)
                    continue
                }
                let replacement = createElement(for: nodeToken)
                activeFormatting[index] = .element(replacement, nodeToken)
                replaceInStack(node, with: replacement)
                node = replacement
                if lastNode == furthestBlock { bookmark = index + 1 }
                tree.append(lastNode, to: node)
                lastNode = node
            }
            insert(lastNode, at: appropriatePlace(overrideTarget: commonAncestor))
            let replacement = createElement(for: formattingToken)
            tree.moveChildren(of: furthestBlock, to: replacement)
            tree.append(replacement, to: furthestBlock)
            if let index = activeFormattingIndex(of: formattingElement) {
                activeFormatting.remove(at: index)
                if index < bookmark { bookmark -= 1 }
            }
            activeFormatting.insert(.element(replacement, formattingToken), at: min(bookmark, activeFormatting.count))
            removeFromStack(formattingElement)
            if let furthest = openElements.lastIndex(of: furthestBlock) {
                openElements.insert(replacement, at: furthest + 1)
                adjustCountsForInsertedStackEntry(replacement)
            }
        }
    }

    /// Bookkeeping for an element put into the middle of the stack.
    mutating func adjustCountsForInsertedStackEntry(_ element: Int32) {
        let stored = tree.nodes[Int(element)]
        if stored.namespace == .html { openCounts[Int(stored.tag.rawValue)] += 1 }
        markOnStack(element)
    }
}
