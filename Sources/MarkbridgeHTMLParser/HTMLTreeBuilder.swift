@_spi(InlineTraversal) import MarkbridgeIR

/// Tree construction (HTML standard 13.2.6): takes the tokenizer's tokens and builds the tree,
/// with the stack of open elements, the list of active formatting elements, foster parenting,
/// and the adoption agency algorithm. Iterative throughout; the stack is capped at `maxDepth`.
struct HTMLTreeBuilder {
    var tree: HTMLTree
    var tokenizer: HTMLTokenizer
    var mode: HTMLInsertionMode = .initial
    var originalMode: HTMLInsertionMode = .initial
    var templateModes: [HTMLInsertionMode] = []
    var openElements: [Int32] = []
    /// How many elements of each HTML tag are on the stack: scope checks for a tag that is not
    /// open answer at once instead of scanning (100,000 nested `<div>`s stay linear).
    var openCounts = [Int32](repeating: 0, count: 256)
    var activeFormatting: [FormattingEntry] = []
    var headElement: Int32 = -1
    var formElement: Int32 = -1
    var framesetOK = true
    var fosterParenting = false
    var scripting: Bool
    var isQuirks = false
    var pendingTableCharacters: [UInt8] = []
    var pendingTableCharactersOffset = 0
    /// For fragment parsing: the context element, created outside the tree's child lists.
    var contextElement: Int32 = -1
    let maxDepth: Int
    var depthLimitOffset: Int?
    var flattenedElementCount = 0
    var stackFlags: [Bool] = []
    var droppedFormattingCount = 0
    var droppedFormattingOffset: Int?
    /// How many more elements reconstruction may reopen (see `reconstructActiveFormattingElements`).
    var reopenBudget = Int.max
    /// Where the budget ran out, and how many reopenings were let go after that.
    var reopenLimitOffset: Int?
    var skippedReopenCount = 0

    /// After `<pre>`, `<listing>` and `<textarea>`: a newline right after the start tag is dropped.
    var ignoresNextLineFeed = false
    /// Whether the input has a U+0000 at all; without one, character runs need no NUL pass.
    var inputHasNull = true
    /// Stops the parse, at a token, once the conversion's deadline passes or its task is cancelled.
    var countdown = DeadlineCountdown(every: 1024)

    enum FormattingEntry {
        case marker
        case element(Int32, HTMLTagToken)

        /// The element, read without copying the token (scans of the list look at no more).
        var element: Int32? {
            if case .element(let element, _) = self { return element }
            return nil
        }
    }

    init(tree: HTMLTree, tokenizer: HTMLTokenizer, scripting: Bool, maxDepth: Int) {
        self.tree = tree
        self.tokenizer = tokenizer
        self.scripting = scripting
        self.maxDepth = maxDepth
        // Room for the elements a short document opens at once: growing from empty by
        // doubling cost a short record four allocations and copies of each stack.
        openElements.reserveCapacity(16)
        activeFormatting.reserveCapacity(8)
    }

    // MARK: Running

    mutating func run() {
        while !countdown.shouldStop() {
            let token: TreeToken
            switch tokenizer.next() {
            case .characters:
                if let range = tokenizer.charactersInputRange, !range.isEmpty, takesInputTextDirectly {
                    // The commonest token by far, text in body, goes straight into the tree as a
                    // range of the input: what `inBodyMode` does with it, without a token.
                    reconstructActiveFormattingElements()
                    insertInputCharacters(range, offset: tokenizer.charactersOffset)
                    continue
                }
                token = .characters(tokenizer.characters, offset: tokenizer.charactersOffset)
            case .startTag(let tag): token = .startTag(tag)
            case .endTag(let tag): token = .endTag(tag)
            case .comment(let data, let offset): token = .comment(data, offset: offset)
            case .doctype(let doctype): token = .doctype(doctype)
            case .endOfFile: token = .endOfFile
            }
            if ignoresNextLineFeed {
                ignoresNextLineFeed = false
                if case .characters(let run, let offset) = token, run.first == 0x0A {
                    if run.count > 1 { dispatch(.characters(run.dropFirst(), offset: offset + 1)) }
                    continue
                }
            }
            dispatch(token)
            if case .endOfFile = token { return }
            tokenizer.allowsCDATA = adjustedCurrentNode.map { tree.nodes[Int($0)].namespace != .html } ?? false
        }
    }

    /// Whether a character run that is a range of the input can be inserted as it stands, as
    /// `inBodyMode` would: in body, under an HTML element, with no newline to drop, no U+0000
    /// to remove and no frameset flag to clear.
    private var takesInputTextDirectly: Bool {
        // `allowsCDATA` is set after every token to whether the adjusted current node is
        // foreign, which saves reading the node here.
        mode == .inBody && !ignoresNextLineFeed && !inputHasNull && !framesetOK && !tokenizer.allowsCDATA
    }

    /// The tree construction dispatcher: HTML rules, or the rules for foreign content.
    mutating func dispatch(_ token: TreeToken) {
        guard let adjusted = adjustedCurrentNode else {
            process(token, in: mode)
            return
        }
        let node = tree.nodes[Int(adjusted)]
        if node.namespace == .html {
            process(token, in: mode)
            return
        }
        switch token {
        case .startTag(let tag):
            if isMathMLTextIntegrationPoint(adjusted) && tag.tag != .mglyph && tag.tag != .malignmark
                || node.namespace == .mathml && node.tag == .annotationXML && tag.tag == .svg
                || isHTMLIntegrationPoint(adjusted) {
                process(token, in: mode)
            } else {
                processForeignContent(token)
            }
        case .characters:
            if isMathMLTextIntegrationPoint(adjusted) || isHTMLIntegrationPoint(adjusted) {
                process(token, in: mode)
            } else {
                processForeignContent(token)
            }
        case .endOfFile:
            process(token, in: mode)
        default:
            processForeignContent(token)
        }
    }

    /// Processes `token` by the rules of `mode` (which may differ from the current mode: "using
    /// the rules for" another mode).
    mutating func process(_ token: TreeToken, in mode: HTMLInsertionMode) {
        switch mode {
        case .initial: initialMode(token)
        case .beforeHTML: beforeHTMLMode(token)
        case .beforeHead: beforeHeadMode(token)
        case .inHead: inHeadMode(token)
        case .inHeadNoscript: inHeadNoscriptMode(token)
        case .afterHead: afterHeadMode(token)
        case .inBody: inBodyMode(token)
        case .text: textMode(token)
        case .inTable: inTableMode(token)
        case .inTableText: inTableTextMode(token)
        case .inCaption: inCaptionMode(token)
        case .inColumnGroup: inColumnGroupMode(token)
        case .inTableBody: inTableBodyMode(token)
        case .inRow: inRowMode(token)
        case .inCell: inCellMode(token)
        case .inTemplate: inTemplateMode(token)
        case .afterBody: afterBodyMode(token)
        case .inFrameset: inFramesetMode(token)
        case .afterFrameset: afterFramesetMode(token)
        case .afterAfterBody: afterAfterBodyMode(token)
        case .afterAfterFrameset: afterAfterFramesetMode(token)
        }
    }

    /// Reprocesses the current token in the (new) current mode.
    mutating func reprocess(_ token: TreeToken) {
        dispatch(token)
    }

    // MARK: The stack of open elements

    var currentNode: Int32? { openElements.last }

    /// The context element when parsing a fragment and only the root `html` is open.
    var adjustedCurrentNode: Int32? {
        if contextElement >= 0 && openElements.count == 1 { return contextElement }
        return openElements.last
    }

    @inline(__always)
    func node(_ index: Int32) -> HTMLTree.Node { tree.nodes[Int(index)] }

    @inline(__always)
    func isHTML(_ index: Int32, _ tag: HTMLTag) -> Bool {
        let stored = tree.nodes[Int(index)]
        return stored.namespace == .html && stored.tag == tag
    }

    @inline(__always)
    func isHTML(_ index: Int32, in tags: HTMLTagSet) -> Bool {
        let stored = tree.nodes[Int(index)]
        return stored.namespace == .html && tags.contains(stored.tag)
    }

    /// Whether `element` is an HTML element with the name of `tag` (by tag, or by name when the
    /// tag is unknown: `customName`, which a token has only then, so no name is made for a
    /// known tag).
    func isHTML(_ element: Int32, named tag: HTMLTag, customName: String?) -> Bool {
        let stored = tree.nodes[Int(element)]
        guard stored.namespace == .html else { return false }
        if tag != .unknown { return stored.tag == tag }
        return stored.tag == .unknown && tree.nodeName(element) == customName
    }

    @inline(__always)
    func currentIs(_ tag: HTMLTag) -> Bool {
        currentNode.map { isHTML($0, tag) } ?? false
    }

    /// Whether a node is on the stack of open elements, by node index, so the question costs
    /// nothing however deep the stack is.
    @inline(__always)
    func isOnStack(_ element: Int32) -> Bool {
        Int(element) < stackFlags.count && stackFlags[Int(element)]
    }

    mutating func markOnStack(_ element: Int32) {
        setOnStack(element, true)
    }

    private mutating func setOnStack(_ element: Int32, _ value: Bool) {
        if Int(element) >= stackFlags.count {
            // Doubled, from 64: a short record's few elements cost one allocation, not five.
            let added = max(Int(element) + 1 - stackFlags.count, stackFlags.count, 64)
            stackFlags.append(contentsOf: repeatElement(false, count: added))
        }
        stackFlags[Int(element)] = value
    }

    mutating func push(_ element: Int32) {
        setOnStack(element, true)
        openElements.append(element)
        let stored = tree.nodes[Int(element)]
        if stored.namespace == .html { openCounts[Int(stored.tag.rawValue)] += 1 }
    }

    @discardableResult
    mutating func pop() -> Int32? {
        guard let element = openElements.popLast() else { return nil }
        setOnStack(element, false)
        let stored = tree.nodes[Int(element)]
        if stored.namespace == .html { openCounts[Int(stored.tag.rawValue)] -= 1 }
        return element
    }

    mutating func removeFromStack(_ element: Int32) {
        guard isOnStack(element), let index = openElements.lastIndex(of: element) else { return }
        setOnStack(element, false)
        openElements.remove(at: index)
        let stored = tree.nodes[Int(element)]
        if stored.namespace == .html { openCounts[Int(stored.tag.rawValue)] -= 1 }
    }

    mutating func replaceInStack(_ old: Int32, with new: Int32) {
        guard isOnStack(old), let index = openElements.lastIndex(of: old) else { return }
        setOnStack(old, false)
        setOnStack(new, true)
        let oldNode = tree.nodes[Int(old)]
        let newNode = tree.nodes[Int(new)]
        if oldNode.namespace == .html { openCounts[Int(oldNode.tag.rawValue)] -= 1 }
        if newNode.namespace == .html { openCounts[Int(newNode.tag.rawValue)] += 1 }
        openElements[index] = new
    }

    @inline(__always)
    func isOpen(_ tag: HTMLTag) -> Bool { openCounts[Int(tag.rawValue)] > 0 }

    /// Pops until an HTML element with `tag` has been popped.
    mutating func popUntil(_ tag: HTMLTag) {
        guard isOpen(tag) else { return }
        while let element = pop() {
            if isHTML(element, tag) { return }
        }
    }

    mutating func popUntil(anyOf tags: HTMLTagSet) {
        while let element = pop() {
            if isHTML(element, in: tags) { return }
        }
    }

    // MARK: Scope

    // The queries below that the optimiser does not inline are `mutating` though they change
    // nothing: a non-mutating call from a mutating method passes a copy of `self`, and this
    // struct (the tree and the tokenizer inside) is 500 bytes, which it then memcpy'd on every
    // call. A mutating call passes `self` by address. For the same reason they walk the open
    // elements by index: a `for` over them would hold a copy of the array across each
    // mutating call, a retain and a release per query.

    enum Scope {
        case normal, listItem, button, table, select
    }

    /// Whether an HTML element with `tag` is in the given scope.
    mutating func hasInScope(_ tag: HTMLTag, _ scope: Scope = .normal) -> Bool {
        guard isOpen(tag) else { return false }
        var index = openElements.count
        while index > 0 {
            index -= 1
            let element = openElements[index]
            if isHTML(element, tag) { return true }
            if isScopeBoundary(element, scope) { return false }
        }
        return false
    }

    mutating func hasInScope(anyOf tags: HTMLTagSet, _ scope: Scope = .normal) -> Bool {
        var index = openElements.count
        while index > 0 {
            index -= 1
            let element = openElements[index]
            if isHTML(element, in: tags) { return true }
            if isScopeBoundary(element, scope) { return false }
        }
        return false
    }

    mutating func hasElementInScope(_ target: Int32) -> Bool {
        var index = openElements.count
        while index > 0 {
            index -= 1
            let element = openElements[index]
            if element == target { return true }
            if isScopeBoundary(element, .normal) { return false }
        }
        return false
    }

    mutating func isScopeBoundary(_ element: Int32, _ scope: Scope) -> Bool {
        let stored = tree.nodes[Int(element)]
        switch stored.namespace {
        case .html:
            switch scope {
            case .normal: return HTMLCategory.defaultScope.contains(stored.tag)
            case .listItem: return HTMLCategory.defaultScope.contains(stored.tag) || stored.tag == .ol || stored.tag == .ul
            case .button: return HTMLCategory.defaultScope.contains(stored.tag) || stored.tag == .button
            case .table: return stored.tag == .html || stored.tag == .table || stored.tag == .template
            case .select: return stored.tag != .optgroup && stored.tag != .option
            }
        case .mathml:
            if scope == .table { return false }
            if scope == .select { return true }
            return ([.mi, .mo, .mn, .ms, .mtext, .annotationXML] as HTMLTagSet).contains(stored.tag)
        case .svg:
            if scope == .table { return false }
            if scope == .select { return true }
            return ([.foreignObject, .desc, .title] as HTMLTagSet).contains(stored.tag)
        }
    }

    mutating func isSpecial(_ element: Int32) -> Bool {
        let stored = tree.nodes[Int(element)]
        switch stored.namespace {
        case .html: return HTMLCategory.special.contains(stored.tag)
        case .mathml: return ([.mi, .mo, .mn, .ms, .mtext, .annotationXML] as HTMLTagSet).contains(stored.tag)
        case .svg: return ([.foreignObject, .desc, .title] as HTMLTagSet).contains(stored.tag)
        }
    }

    // MARK: Implied end tags

    mutating func generateImpliedEndTags(except excluded: HTMLTag? = nil) {
        while let current = currentNode, isHTML(current, in: HTMLCategory.impliedEndTags), !isHTML(current, excluded ?? .unknown) {
            pop()
        }
    }

    mutating func generateAllImpliedEndTagsThoroughly() {
        while let current = currentNode, isHTML(current, in: HTMLCategory.thoroughlyImpliedEndTags) {
            pop()
        }
    }

    /// "Close a p element".
    mutating func closePElement() {
        generateImpliedEndTags(except: .p)
        popUntil(.p)
    }

    mutating func closePIfInButtonScope() {
        if hasInScope(.p, .button) { closePElement() }
    }
}
