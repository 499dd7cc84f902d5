/// The mutations tree construction needs: create, append, insert before, remove, and text that
/// grows in place.
extension HTMLTree {
    /// `customName` is the element's name when it is not its tag's lower-case HTML name: for
    /// unknown and foreign elements.
    mutating func createElement(
        tag: HTMLTag, customName: String?, namespace: HTMLNamespace,
        attributes newAttributes: HTMLTokenAttributes = HTMLTokenAttributes(), offset: Int
    ) -> Int32 {
        var node = Node(kind: .element, namespace: namespace, tag: tag)
        let index = Int32(nodes.count)
        if let customName, namespace != .html || tag == .unknown || customName != tag.lowercaseName {
            node.hasCustomName = true
            customNames[index] = customName
        }
        node.attributeStart = Int32(attributes.count)
        node.attributeCount = Int32(newAttributes.count)
        node.sourceOffset = Int32(truncatingIfNeeded: offset)
        storeAttributes(newAttributes)
        nodes.append(node)
        if tag == .template && namespace == .html {
            let contents = Node(kind: .templateContents, sourceOffset: Int32(truncatingIfNeeded: offset))
            nodes.append(contents)
            append(Int32(nodes.count - 1), to: index)
        }
        return index
    }

    /// For a `template` element, the contents node its children go in.
    func templateContents(of element: Int32) -> Int32 {
        let first = nodes[Int(element)].firstChild
        return first >= 0 && nodes[Int(first)].kind == .templateContents ? first : element
    }

    mutating func createComment(_ bytes: [UInt8], offset: Int) -> Int32 {
        var node = Node(kind: .comment)
        node.sourceOffset = Int32(truncatingIfNeeded: offset)
        nodes.append(node)
        let index = Int32(nodes.count - 1)
        appendText(bytes[...], to: index)
        return index
    }

    mutating func createDoctype(name: String, publicID: String?, systemID: String?, offset: Int) -> Int32 {
        var node = Node(kind: .doctype)
        node.hasCustomName = true
        customNames[Int32(nodes.count)] = name
        node.attributeStart = Int32(attributes.count)
        node.attributeCount = 2
        node.sourceOffset = Int32(truncatingIfNeeded: offset)
        // A missing identifier is marked by a prefix, to tell it from an empty one.
        storeAttributes(HTMLTokenAttributes([
            HTMLAttribute(prefix: publicID == nil ? "missing" : nil, name: "public", value: publicID ?? ""),
            HTMLAttribute(prefix: systemID == nil ? "missing" : nil, name: "system", value: systemID ?? ""),
        ]))
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    mutating func createText(offset: Int) -> Int32 {
        var node = Node(kind: .text)
        node.sourceOffset = Int32(truncatingIfNeeded: offset)
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    /// Appends bytes to a text or comment node, extending its last run where it can.
    mutating func appendText(_ bytes: ArraySlice<UInt8>, to node: Int32) {
        guard !bytes.isEmpty else { return }
        if let inInput = inputRange(of: bytes), extendsRunInInput(of: node, with: inInput) { return }
        appendCopy(bytes, to: node)
    }

    /// Appends the input's bytes in `range` to a text node: the tokenizer's usual run of text,
    /// given as a range so that no slice of the input is made for it.
    mutating func appendInputText(_ range: Range<Int32>, to node: Int32) {
        guard !range.isEmpty, !extendsRunInInput(of: node, with: range) else { return }
        appendCopy(inputBytes[Int(range.lowerBound)..<Int(range.upperBound)], to: node)
    }

    /// Input text that begins a node's text, or continues it where its run in the input ends:
    /// only the run changes. False when the text must be copied.
    private mutating func extendsRunInInput(of node: Int32, with range: Range<Int32>) -> Bool {
        guard segmentChains.isEmpty || segmentChains[node] == nil else { return false }
        let stored = nodes[Int(node)]
        if stored.textStart == stored.textEnd {
            nodes[Int(node)].textInInput = true
            nodes[Int(node)].textStart = range.lowerBound
            nodes[Int(node)].textEnd = range.upperBound
            return true
        }
        if stored.textInInput && stored.textEnd == range.lowerBound {
            nodes[Int(node)].textEnd = range.upperBound
            return true
        }
        return false
    }

    private mutating func appendCopy(_ bytes: ArraySlice<UInt8>, to node: Int32) {
        // Text that is no slice of the input is copied: text with references, text joined to
        // other text, comments. In HTML rich in references that is about half the input
        // (article-ru: 2.4 MB of 5 MB). Grown by doubling, each step copied it all into pages
        // touched for the first time; room for half the input at once touches only the pages
        // used (the rest is address space, not memory).
        if textBytes.capacity == 0 { textBytes.reserveCapacity(max(inputBytes.count / 2, 64)) }
        if segmentChains.isEmpty || segmentChains[node] == nil {
            let stored = nodes[Int(node)]
            if stored.textInInput {
                // Other text joins input text: from here on the node's text is a copy.
                let start = Int32(textBytes.count)
                textBytes.append(contentsOf: inputBytes[Int(stored.textStart)..<Int(stored.textEnd)])
                nodes[Int(node)].textInInput = false
                nodes[Int(node)].textStart = start
                nodes[Int(node)].textEnd = Int32(textBytes.count)
            }
        }
        let end = Int32(textBytes.count)
        textBytes.append(contentsOf: bytes)
        let newEnd = Int32(textBytes.count)
        let stored = nodes[Int(node)]
        let chain = segmentChains.isEmpty ? nil : segmentChains[node]
        if let chain {
            if segments[Int(chain.last)].end == end {
                segments[Int(chain.last)].end = newEnd
                return
            }
        } else {
            if stored.textStart == stored.textEnd {
                nodes[Int(node)].textStart = end
                nodes[Int(node)].textEnd = newEnd
                return
            }
            if stored.textEnd == end {
                nodes[Int(node)].textEnd = newEnd
                return
            }
        }
        segments.append(Segment(start: end, end: newEnd))
        let segment = Int32(segments.count - 1)
        if let chain {
            segments[Int(chain.last)].next = segment
            segmentChains[node] = (chain.first, segment)
        } else {
            segmentChains[node] = (segment, segment)
        }
    }

    /// Where `bytes` lie in the input, when they are a slice of it (the tokenizer hands out
    /// text that needed no decoding as such a slice): when the input holds the same bytes at
    /// the same indices. Comparing a slice with the input's at its own indices costs nothing
    /// when it is one (slices of one buffer at one place are equal at once); a slice of
    /// something else that happens to hold the same bytes may be stored as that range too,
    /// which is the same text.
    private func inputRange(of bytes: ArraySlice<UInt8>) -> Range<Int32>? {
        guard bytes.startIndex >= 0, bytes.endIndex <= inputBytes.count,
              inputBytes[bytes.startIndex..<bytes.endIndex] == bytes else { return nil }
        return Int32(bytes.startIndex)..<Int32(bytes.endIndex)
    }

    mutating func append(_ child: Int32, to parent: Int32) {
        detach(child)
        // Through one mutable span: each write through the array checked it was not shared,
        // five times per node appended (every element and text node of a parse); the span
        // checks once, and each write only its index.
        var nodes = self.nodes.mutableSpan
        let first = nodes[Int(parent)].firstChild
        nodes[Int(child)].parent = parent
        if first < 0 {
            nodes[Int(parent)].firstChild = child
            nodes[Int(child)].previousSibling = child
            return
        }
        let last = nodes[Int(first)].previousSibling
        nodes[Int(last)].nextSibling = child
        nodes[Int(child)].previousSibling = last
        nodes[Int(first)].previousSibling = child
    }

    mutating func insert(_ child: Int32, before sibling: Int32, in parent: Int32) {
        detach(child)
        let previous = nodes[Int(sibling)].previousSibling
        nodes[Int(child)].parent = parent
        nodes[Int(child)].previousSibling = previous
        nodes[Int(child)].nextSibling = sibling
        nodes[Int(sibling)].previousSibling = child
        if nodes[Int(parent)].firstChild == sibling {
            // `previous` is the last child, which the new first child now points back to.
            nodes[Int(parent)].firstChild = child
        } else {
            nodes[Int(previous)].nextSibling = child
        }
    }

    /// Removes a node from its parent, keeping its own children.
    mutating func detach(_ node: Int32) {
        let stored = nodes[Int(node)]
        guard stored.parent >= 0 else { return }
        let parent = Int(stored.parent)
        let first = nodes[parent].firstChild
        let next = stored.nextSibling
        if first == node {
            nodes[parent].firstChild = next
            // The new first child points back to the last, which this node pointed to.
            if next >= 0 { nodes[Int(next)].previousSibling = stored.previousSibling }
        } else {
            nodes[Int(stored.previousSibling)].nextSibling = next
            if next >= 0 {
                nodes[Int(next)].previousSibling = stored.previousSibling
            } else {
                nodes[Int(first)].previousSibling = stored.previousSibling
            }
        }
        nodes[Int(node)].parent = -1
        nodes[Int(node)].previousSibling = -1
        nodes[Int(node)].nextSibling = -1
    }

    /// Moves all children of `from` to the end of `to`, in order.
    mutating func moveChildren(of from: Int32, to: Int32) {
        var child = nodes[Int(from)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].nextSibling
            append(child, to: to)
            child = next
        }
    }

    /// Adds attributes an element lacks (for a second `<html>` or `<body>` tag), keeping its own.
    /// Linear in the tags however many there are: the element's names are kept in a set, and its
    /// attributes move to the end of `attributes` only when their spare slots run out, taking
    /// as many again (storing them all again for every tag made 20,000 `<html a…>` tags take a
    /// minute and 5 GB).
    mutating func addMissingAttributes(_ extra: HTMLTokenAttributes, to element: Int32) {
        guard !extra.isEmpty else { return }
        // Taken out while it changes: a copy left in the dictionary would make each insert copy it.
        var names = mergedAttributeNames.removeValue(forKey: element) ?? Set(storedAttributes(of: element).map(\.qualifiedName))
        let missing = extra.list.filter { names.insert($0.qualifiedName).inserted }
        mergedAttributeNames[element] = names
        guard !missing.isEmpty else { return }
        var start = Int(nodes[Int(element)].attributeStart)
        let count = Int(nodes[Int(element)].attributeCount)
        var spare = spareAttributeSlots[element] ?? 0
        if spare < missing.count {
            let moved = Array(attributes[start..<(start + count)])
            start = attributes.count
            attributes.append(contentsOf: moved)
            spare = count + missing.count
            attributes.append(contentsOf: repeatElement(StoredAttribute(nameStart: 0, valueStart: 0, valueEnd: 0, prefix: .none),
                                                        count: spare))
        }
        let added = HTMLTokenAttributes(missing)
        let base = appendBytes(of: added)
        for (offset, entry) in added.entries.enumerated() {
            attributes[start + count + offset] = StoredAttribute(entry, movedBy: base)
        }
        nodes[Int(element)].attributeStart = Int32(start)
        nodes[Int(element)].attributeCount = Int32(count + missing.count)
        spareAttributeSlots[element] = spare - missing.count
    }

    /// Stores a tag's attributes after every other element's.
    private mutating func storeAttributes(_ new: HTMLTokenAttributes) {
        guard !new.isEmpty else { return }
        let base = appendBytes(of: new)
        for entry in new.entries { attributes.append(StoredAttribute(entry, movedBy: base)) }
    }

    /// Copies the tag's buffer as it stands to `attributeBytes`; returns where it landed.
    private mutating func appendBytes(of new: HTMLTokenAttributes) -> Int32 {
        let base = Int32(attributeBytes.count)
        attributeBytes.append(contentsOf: new.bytes)
        return base
    }

    func attributeNameBytes(_ attribute: StoredAttribute) -> ArraySlice<UInt8> {
        attributeBytes[Int(attribute.nameStart)..<Int(attribute.valueStart)]
    }

    func attributeValueBytes(_ attribute: StoredAttribute) -> ArraySlice<UInt8> {
        attributeBytes[Int(attribute.valueStart)..<Int(attribute.valueEnd)]
    }

    /// An element's attributes (or a doctype's identifiers) as the public type.
    func storedAttributes(of element: Int32) -> [HTMLAttribute] {
        let node = nodes[Int(element)]
        return attributes[Int(node.attributeStart)..<Int(node.attributeStart + node.attributeCount)].map { stored in
            HTMLAttribute(prefix: stored.prefix.name,
                          name: String(decoding: attributeNameBytes(stored), as: UTF8.self),
                          value: String(decoding: attributeValueBytes(stored), as: UTF8.self))
        }
    }
}
