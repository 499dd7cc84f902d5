@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Parses HTML the way a browser does (the WHATWG algorithm), from UTF-8 bytes to an
/// ``HTMLTree``. A value with no shared state: parse from any thread.
public struct HTMLParser: Sendable {
    public struct Options: Hashable, Sendable {
        /// Replace each maximal invalid UTF-8 subpart with U+FFFD (and report how many) instead
        /// of refusing the input with the offset of the first bad byte.
        public var repairsInvalidUTF8: Bool
        /// Most open elements at once. Deeper start tags of containers, formatting and unknown
        /// elements are not created: their content goes into the element at the limit, so no
        /// text is lost, only nesting (a `depth-limit` diagnostic says where it began). 512, as
        /// Chromium's parser.
        public var maxDepth: Int
        /// Larger inputs are refused with `input-too-large`. Whatever this says, the limit is at
        /// most ``largestSupportedInput``.
        public var maxInputBytes: Int
        /// Whether `<noscript>` content is raw text, as in a browser running scripts.
        public var scripting: Bool
        /// The caller checked the input is valid UTF-8 (a JSON string's bytes, which the JSON
        /// scanner checked as it unescaped them): only CR is looked for before the parse, not
        /// every sequence again. Set only where that check ran; the strings made from the
        /// input are checked by the standard library whatever this says.
        package var inputIsCheckedUTF8 = false

        /// The tree keeps byte offsets in 32 bits, and decoding can triple a run of bytes (each
        /// U+0000 in an attribute or RCDATA becomes the three bytes of U+FFFD), so inputs over
        /// 512 MiB are refused rather than risk an offset that does not fit.
        public static let largestSupportedInput = 1 << 29

        /// The limit that applies: `maxInputBytes`, capped at ``largestSupportedInput``.
        public var effectiveMaxInputBytes: Int { min(maxInputBytes, Self.largestSupportedInput) }

        public init(repairsInvalidUTF8: Bool = false, maxDepth: Int = 512, maxInputBytes: Int = IRLimits.defaultMaxInputBytes, scripting: Bool = false) {
            self.repairsInvalidUTF8 = repairsInvalidUTF8
            self.maxDepth = maxDepth
            self.maxInputBytes = maxInputBytes
            self.scripting = scripting
        }

        public static let `default` = Options()
    }

    /// The element a fragment is parsed in, as `innerHTML` would be: `<body>` for stored content.
    public struct FragmentContext: Hashable, Sendable {
        public var name: String
        public var namespace: HTMLNamespace

        public init(_ name: String, namespace: HTMLNamespace = .html) {
            self.name = name
            self.namespace = namespace
        }

        public static let body = FragmentContext("body")
    }

    public var options: Options

    public init(options: Options = .default) {
        self.options = options
    }

    /// Parses a whole document.
    public func parseDocument(_ bytes: [UInt8]) throws(ConversionError) -> Diagnosed<HTMLTree> {
        try parse(bytes, context: nil)
    }

    /// Parses a fragment in `context`; the tree's ``HTMLTree/contentRoot`` holds its nodes.
    public func parseFragment(_ bytes: [UInt8], context: FragmentContext = .body) throws(ConversionError) -> Diagnosed<HTMLTree> {
        try parse(bytes, context: context)
    }

    private func parse(_ bytes: [UInt8], context: FragmentContext?) throws(ConversionError) -> Diagnosed<HTMLTree> {
        guard bytes.count <= options.effectiveMaxInputBytes else {
            throw ConversionError(code: "input-too-large", message: "input is \(bytes.count) bytes, over the limit of \(options.effectiveMaxInputBytes)")
        }
        try EncodingSniffing.refuseWideEncodings(bytes)
        let input: HTMLInput
        do {
            input = try HTMLInput(bytes, repairingInvalidUTF8: options.repairsInvalidUTF8, inputIsCheckedUTF8: options.inputIsCheckedUTF8)
        } catch {
            guard case .invalidUTF8(let offset) = error else { throw ConversionError(code: "invalid-utf8", message: "invalid UTF-8") }
            throw ConversionError(code: "invalid-utf8", message: "invalid UTF-8 at byte \(offset)",
                                  at: SourceLocation(byteOffset: offset, in: bytes))
        }
        let positions = HTMLInputPositions(lineIndex: LazyLineIndex(input.bytes), originalOffsets: { [input] in input.originalOffset(of: $0) })
        var builder = HTMLTreeBuilder(
            tree: HTMLTree(input: positions, bytes: input.bytes, rootKind: .document,
                           expectedNodes: HTMLTree.expectedNodeCount(input.bytes)),
            tokenizer: HTMLTokenizer(input: input.bytes),
            scripting: options.scripting,
            maxDepth: max(options.maxDepth, 8))
        builder.reopenBudget = HTMLTreeBuilder.reopenBudget(forInputBytes: input.bytes.count)
        let firstNUL = ByteScan.firstIndex(of: 0, in: input.bytes.span)
        builder.inputHasNull = firstNUL != nil
        if let context { builder.prepareFragment(context) }
        builder.run()
        try builder.countdown.rethrow()
        var diagnostics: [Diagnostic] = []
        if input.replacementCount > 0 {
            diagnostics.append(.warning("invalid-utf8-replaced",
                "\(input.replacementCount) invalid UTF-8 sequence\(input.replacementCount == 1 ? "" : "s") replaced with U+FFFD",
                at: input.firstReplacementOffset.map { SourceLocation(byteOffset: $0, in: bytes) }))
        }
        if let firstNUL {
            let count = input.bytes.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
            diagnostics.append(.warning("nul-character",
                "\(count) U+0000 character\(count == 1 ? "" : "s"): dropped from text, or replaced with U+FFFD in attributes, comments and raw text, as the HTML standard says",
                at: positions.location(ofNormalizedOffset: firstNUL)))
        }
        if let offset = builder.depthLimitOffset {
            diagnostics.append(.warning("depth-limit",
                "nesting deeper than \(builder.maxDepth) elements: \(builder.flattenedElementCount) element\(builder.flattenedElementCount == 1 ? "" : "s") flattened into their parent, text kept",
                at: positions.location(ofNormalizedOffset: offset)))
        }
        if let offset = builder.droppedFormattingOffset {
            diagnostics.append(.warning("formatting-limit",
                "more than \(HTMLTreeBuilder.maxFormattingEntries) formatting elements open at once: \(builder.droppedFormattingCount) of them not carried into later blocks",
                at: positions.location(ofNormalizedOffset: offset)))
        }
        if let offset = builder.reopenLimitOffset {
            diagnostics.append(.warning("formatting-limit",
                "formatting left open reopened in more blocks than the input has room for (one element per \(HTMLTreeBuilder.inputBytesPerReopening) input bytes): \(builder.skippedReopenCount) reopening\(builder.skippedReopenCount == 1 ? "" : "s") let go, so later blocks are not inside it",
                at: positions.location(ofNormalizedOffset: offset)))
        }
        return Diagnosed(builder.tree, diagnostics: diagnostics)
    }
}

extension HTMLTreeBuilder {
    /// The HTML fragment parsing algorithm's set-up (HTML standard 13.4): a context element
    /// outside the tree, an `html` root, the tokenizer state and insertion mode the context implies.
    mutating func prepareFragment(_ context: HTMLParser.FragmentContext) {
        let name = context.namespace == .svg ? (ForeignContent.svgTagNames[context.name.asciiLowercased()] ?? context.name) : context.name.asciiLowercased()
        let tag = HTMLTag(lowercaseName: context.name.asciiLowercased())
        contextElement = tree.createElement(tag: tag, customName: name, namespace: context.namespace, offset: 0)
        if context.namespace == .html {
            switch tag {
            case .title, .textarea: tokenizer.state = .rcdata
            case .style, .xmp, .iframe, .noembed, .noframes: tokenizer.state = .rawtext
            case .script: tokenizer.state = .scriptData
            case .noscript where scripting: tokenizer.state = .rawtext
            case .plaintext: tokenizer.state = .plaintext
            default: break
            }
        }
        let root = tree.createElement(tag: .html, customName: nil, namespace: .html, offset: 0)
        tree.append(root, to: 0)
        tree.contentRootIndex = root
        push(root)
        if context.namespace == .html && tag == .template { templateModes.append(.inTemplate) }
        resetInsertionMode()
        tokenizer.allowsCDATA = context.namespace != .html
    }
}
