@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The namespaces the parser puts elements in.
public enum HTMLNamespace: UInt8, Sendable, Hashable {
    case html, svg, mathml
}

/// An attribute as the tree keeps it. Foreign attributes adjusted by the parser (`xlink:href`)
/// keep their prefix in `prefix` and their local name in `name`.
public struct HTMLAttribute: Hashable, Sendable {
    public var prefix: String?
    public var name: String
    public var value: String

    public init(prefix: String? = nil, name: String, value: String) {
        self.prefix = prefix
        self.name = name
        self.value = value
    }

    /// `prefix:name`, or the name alone.
    public var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
}

/// A node of the parsed tree, by index. Valid only for the tree that gave it out.
public struct HTMLNodeID: Hashable, Sendable, Comparable {
    public let index: Int32

    init(_ index: Int32) {
        self.index = index
    }

    public static func < (lhs: HTMLNodeID, rhs: HTMLNodeID) -> Bool { lhs.index < rhs.index }
}

/// The parsed tree: nodes in one flat array linked by indices, text in one shared byte buffer,
/// every node with the source offset it came from. No class references, so the tree is a value,
/// `Sendable`, and walking it never recurses. Its text is valid UTF-8, which readers rely on
/// without checking again: it is the checked input, or characters the tokenizer encoded itself
/// (decoded references, U+FFFD).
public struct HTMLTree: Sendable {
    public enum NodeKind: UInt8, Sendable {
        case document, fragment, doctype, element, text, comment
        /// The content of a `template` element: its children live here, as the DOM has it.
        case templateContents
    }

    /// 32 bytes, so that the node array, which is most of a parse's memory, stays under three
    /// times the input. Two links a node could have are derived instead: a parent's last child
    /// is its first child's `previousSibling` (the backward links are circular), and the rare
    /// name that is not the tag's own lives in `customNames`.
    struct Node: Sendable {
        var kind: NodeKind
        var namespace: HTMLNamespace = .html
        var tag: HTMLTag = .unknown
        /// Text: whether the first run is a range of `inputBytes` rather than of `textBytes`.
        /// Elements and doctypes: whether their name is in `customNames`.
        var flag = false
        var parent: Int32 = -1
        var firstChild: Int32 = -1
        /// The previous sibling; for a first child, the last child of its parent.
        var previousSibling: Int32 = -1
        var nextSibling: Int32 = -1
        /// Elements: their attributes in `attributes`; doctypes: their identifiers there.
        /// Text and comments: the first run of their bytes (start, end), in `textBytes` or, for
        /// text with `textInInput`, in `inputBytes`.
        var attributeStart: Int32 = 0
        var attributeCount: Int32 = 0

        var textStart: Int32 {
            get { attributeStart }
            set { attributeStart = newValue }
        }

        var textEnd: Int32 {
            get { attributeCount }
            set { attributeCount = newValue }
        }

        var textInInput: Bool {
            get { flag }
            set { flag = newValue }
        }

        var hasCustomName: Bool {
            get { flag }
            set { flag = newValue }
        }
        /// Byte offset in the normalised input where the node's token began.
        var sourceOffset: Int32 = 0
    }

    /// An attribute in `attributes`: its name is `attributeBytes[nameStart..<valueStart]` and
    /// its value follows it, up to `valueEnd`.
    struct StoredAttribute: Sendable {
        var nameStart: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var prefix: HTMLAttributePrefix

        init(nameStart: Int32, valueStart: Int32, valueEnd: Int32, prefix: HTMLAttributePrefix) {
            self.nameStart = nameStart
            self.valueStart = valueStart
            self.valueEnd = valueEnd
            self.prefix = prefix
        }

        /// A tag's attribute, its buffer copied to `base` in `attributeBytes`.
        init(_ entry: HTMLTokenAttributes.Entry, movedBy base: Int32) {
            self.init(nameStart: base + entry.nameStart, valueStart: base + entry.valueStart,
                      valueEnd: base + entry.valueEnd, prefix: entry.prefix)
        }
    }

    /// A further run of a text node's bytes in `textBytes`; text nodes grow by extending their
    /// last run when it ends the buffer, or by chaining another, so appending is never a copy.
    struct Segment: Sendable {
        var start: Int32
        var end: Int32
        var next: Int32 = -1
    }

    var nodes: [Node] = []
    /// Names that are not the tag's lower-case HTML name (unknown and foreign elements,
    /// doctypes), by node.
    var customNames: [Int32: String] = [:]
    /// For a fragment, the `html` element whose children are the fragment; else the document.
    var contentRootIndex: Int32 = 0
    /// Attributes of every element (and doctype identifiers), packed: their names and values
    /// are bytes in `attributeBytes`, so an attribute costs 16 bytes and its text, not three
    /// strings. Most attributes are never read; those that are become strings when asked for.
    var attributes: [StoredAttribute] = []
    var attributeBytes: [UInt8] = []
    var textBytes: [UInt8] = []
    /// The normalised input, which text nodes refer into.
    let inputBytes: [UInt8]
    var segments: [Segment] = []
    /// Text and comment nodes with further runs, when their text did not grow contiguously
    /// (rare: foster-parented text appended between other text): their first and last segment.
    /// Kept out of `Node` so that every node is smaller.
    var segmentChains: [Int32: (first: Int32, last: Int32)] = [:]
    /// Elements given attributes after they were made (a later `<html>` or `<body>` tag adds
    /// those the element lacks): the names they have, and the spare slots that follow their
    /// attributes in `attributes`, so that each added attribute costs constant time.
    var mergedAttributeNames: [Int32: Set<String>] = [:]
    var spareAttributeSlots: [Int32: Int] = [:]
    let input: HTMLInputPositions

    init(input: HTMLInputPositions, bytes: [UInt8] = [], rootKind: NodeKind, expectedNodes: Int = 0) {
        self.input = input
        self.inputBytes = bytes
        // Growing by doubling would hold the old and the new array at once near the end: the
        // peak of a parse. The caller's estimate avoids that in the usual case.
        nodes.reserveCapacity(expectedNodes)
        nodes.append(Node(kind: rootKind))
    }

    /// Nodes to expect for `input`: about one and a half per `<` (an element per start tag, a
    /// text node between most tags, an occasional clone from the adoption agency).
    static func expectedNodeCount(_ input: [UInt8]) -> Int {
        let count = ByteScan.count(of: 0x3C, in: input.span)
        return count + count / 2 + 16
    }

    // MARK: Reading

    /// The document node.
    public var root: HTMLNodeID { HTMLNodeID(0) }

    /// What the input made: the document, or for a fragment the element holding its nodes.
    public var contentRoot: HTMLNodeID { HTMLNodeID(contentRootIndex) }

    public func kind(of node: HTMLNodeID) -> NodeKind { nodes[Int(node.index)].kind }
    public func tag(of node: HTMLNodeID) -> HTMLTag { nodes[Int(node.index)].tag }
    public func namespace(of node: HTMLNodeID) -> HTMLNamespace { nodes[Int(node.index)].namespace }
    /// The element's tag name (lower case for HTML, adjusted case for SVG), or a doctype's name.
    public func name(of node: HTMLNodeID) -> String { nodeName(node.index) }

    func nodeName(_ index: Int32) -> String {
        let node = nodes[Int(index)]
        return node.hasCustomName ? customNames[index] ?? "" : node.tag.lowercaseName
    }

    public func parent(of node: HTMLNodeID) -> HTMLNodeID? { link(nodes[Int(node.index)].parent) }
    public func firstChild(of node: HTMLNodeID) -> HTMLNodeID? { link(nodes[Int(node.index)].firstChild) }
    public func nextSibling(of node: HTMLNodeID) -> HTMLNodeID? { link(nodes[Int(node.index)].nextSibling) }
    public func lastChild(of node: HTMLNodeID) -> HTMLNodeID? { link(lastChildIndex(node.index)) }
    public func previousSibling(of node: HTMLNodeID) -> HTMLNodeID? { link(previousSiblingIndex(node.index)) }

    func lastChildIndex(_ parent: Int32) -> Int32 {
        let first = nodes[Int(parent)].firstChild
        return first >= 0 ? nodes[Int(first)].previousSibling : -1
    }

    func previousSiblingIndex(_ node: Int32) -> Int32 {
        let stored = nodes[Int(node)]
        guard stored.parent >= 0, nodes[Int(stored.parent)].firstChild != node else { return -1 }
        return stored.previousSibling
    }

    public func children(of node: HTMLNodeID) -> [HTMLNodeID] {
        var out: [HTMLNodeID] = []
        var child = nodes[Int(node.index)].firstChild
        while child >= 0 {
            out.append(HTMLNodeID(child))
            child = nodes[Int(child)].nextSibling
        }
        return out
    }

    public func attributes(of node: HTMLNodeID) -> [HTMLAttribute] {
        guard nodes[Int(node.index)].kind == .element else { return [] }
        return storedAttributes(of: node.index)
    }

    /// The value of the attribute `name` (no prefix), found without making any other string.
    public func attribute(_ name: String, of node: HTMLNodeID) -> String? {
        guard let index = attributeIndex(name, of: node) else { return nil }
        return String(checkingUTF8: attributeValueBytes(attributes[index]))
    }

    /// Whether the element has the attribute (without a namespace), its value not made into a
    /// string: a link's URL is one allocation that a question of presence does not need.
    public func hasAttribute(_ name: String, of node: HTMLNodeID) -> Bool {
        attributeIndex(name, of: node) != nil
    }

    private func attributeIndex(_ name: String, of node: HTMLNodeID) -> Int? {
        let stored = nodes[Int(node.index)]
        guard stored.kind == .element, stored.attributeCount > 0 else { return nil }
        let wanted = name.utf8.span
        for index in Int(stored.attributeStart)..<Int(stored.attributeStart + stored.attributeCount) {
            let attribute = attributes[index]
            // Lengths first: most names that differ differ in length.
            guard attribute.prefix == .none, Int(attribute.valueStart - attribute.nameStart) == wanted.count else { continue }
            var equal = true
            for offset in 0..<wanted.count where attributeBytes[Int(attribute.nameStart) + offset] != wanted[offset] {
                equal = false
                break
            }
            if equal { return index }
        }
        return nil
    }

    /// A doctype's public and system identifiers, each nil when missing.
    public func doctypeIdentifiers(of node: HTMLNodeID) -> (publicID: String?, systemID: String?) {
        let stored = nodes[Int(node.index)]
        guard stored.kind == .doctype, stored.attributeCount == 2 else { return (nil, nil) }
        let identifiers = storedAttributes(of: node.index)
        return (identifiers[0].prefix == nil ? identifiers[0].value : nil,
                identifiers[1].prefix == nil ? identifiers[1].value : nil)
    }

    /// The text of a text or comment node, as UTF-8 bytes.
    public func textBytes(of node: HTMLNodeID) -> [UInt8] {
        let stored = nodes[Int(node.index)]
        guard stored.kind == .text || stored.kind == .comment else { return [] }
        var out = Array(firstRun(of: stored))
        var segment = segmentChains[node.index]?.first ?? -1
        while segment >= 0 {
            let stored = segments[Int(segment)]
            out.append(contentsOf: textBytes[Int(stored.start)..<Int(stored.end)])
            segment = stored.next
        }
        return out
    }

    /// Calls `body` with the text of a text or comment node, borrowed from the tree's buffers:
    /// no copy, and no slice (whose retain and release were a walker's commonest cost), unless
    /// the text is in more than one run.
    public func withTextBytes<Result>(of node: HTMLNodeID, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        let stored = nodes[Int(node.index)]
        guard stored.kind == .text || stored.kind == .comment else { return try body(Span()) }
        if !segmentChains.isEmpty && segmentChains[node.index] != nil {
            let joined = textBytes(of: node)
            return try body(joined.span)
        }
        let range = Int(stored.textStart)..<Int(stored.textEnd)
        return try body(stored.textInInput ? inputBytes.span.extracting(range) : textBytes.span.extracting(range))
    }

    private func firstRun(of stored: Node) -> ArraySlice<UInt8> {
        let range = Int(stored.textStart)..<Int(stored.textEnd)
        return stored.textInInput ? inputBytes[range] : textBytes[range]
    }

    public func text(of node: HTMLNodeID) -> String {
        String(decoding: textBytes(of: node), as: UTF8.self)
    }

    /// Where the node's token began in the caller's input.
    public func sourceLocation(of node: HTMLNodeID) -> SourceLocation {
        input.location(ofNormalizedOffset: Int(nodes[Int(node.index)].sourceOffset))
    }

    public var nodeCount: Int { nodes.count }
    /// How many bytes of input the tree was parsed from.
    public var inputByteCount: Int { inputBytes.count }

    /// A way to find the node's source location later, holding only what that needs (not the
    /// tree): for readers that report a location only if something goes wrong.
    public func sourceLocator(of node: HTMLNodeID) -> @Sendable () -> SourceLocation {
        let positions = input
        let offset = Int(nodes[Int(node.index)].sourceOffset)
        return { positions.location(ofNormalizedOffset: offset) }
    }

    private func link(_ index: Int32) -> HTMLNodeID? {
        index >= 0 ? HTMLNodeID(index) : nil
    }
}

/// Turns normalised input offsets into the caller's line, column and byte offset.
struct HTMLInputPositions: Sendable {
    let lineIndex: LazyLineIndex
    let originalOffsets: @Sendable (Int) -> Int

    func location(ofNormalizedOffset offset: Int) -> SourceLocation {
        let location = lineIndex.location(ofByte: offset)
        return SourceLocation(line: location.line, column: location.column, byteOffset: originalOffsets(offset))
    }
}
