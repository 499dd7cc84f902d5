@_spi(InlineTraversal) import MarkbridgeIR

/// A paragraph object's members as read, before its type says which of them apply.
struct BlockFields {
    var typeName: String?
    var text = ""
    var depth = 0
    var quoteDepth: Int?
    var alignment: TextAlignment?
    var markups: [PendingMarkup] = []
    var quoteListDepths: [Int] = []
    var quoteListDepthsOffset = 0
    var containerStart: (value: Int, offset: Int)?
    var anchor: String?
    // Only some types have these; each given is in `typeSpecific`.
    var number: Int?
    var language: String?
    var src: String?
    var alt: String?
    var title: String?
    var embed: (name: String, offset: Int)?
    var poster: String?
    var width: Int?
    var height: Int?
    var cells: [PendingCell]?
    var cellsOffset = 0
    var startsTable = false
    var continues = false
    var continuesOffset = 0
    var taskState: TaskState?
    /// The type-specific members given, with where each was: reported where the type has none.
    var typeSpecific: [(key: String, offset: Int)] = []
}

extension MarkupJSONDecoder {
    /// One paragraph object: its members read, its kind made from its type and the members
    /// that apply to it (the others reported), then the block, its markups' offsets still in
    /// the document's unit.
    mutating func block(pointer: JSONPointer) throws(Failure) -> PendingBlock {
        let objectOffset = scanner.position
        var fields = BlockFields()
        try readBlockFields(pointer: pointer, into: &fields)
        guard let typeName = fields.typeName else {
            throw Failure(code: "missing-field", message: "missing required field 'type'", offset: objectOffset, pointer: pointer)
        }
        guard let tag = BlockKind.Tag(rawValue: typeName) else {
            throw Failure(code: "unknown-type", message: "unknown block type '\(typeName)' (expected one of \(BlockKind.Tag.allCases.map(\.rawValue).joined(separator: ", ")))",
                          offset: objectOffset, pointer: pointer.appending(key: "type"))
        }
        let (kind, applicable) = try blockKind(tag, fields, pointer: pointer, objectOffset: objectOffset)
        for field in fields.typeSpecific where !applicable.contains(field.key) {
            diagnostics.append(.warning("ignored-field", "field '\(field.key)' does not apply to type \(typeName) and was ignored",
                at: location(field.offset, pointer.appending(key: field.key))))
        }
        if kind == .horizontalRule, !fields.text.isEmpty {
            throw Failure(code: "invalid-value", message: "a horizontal rule cannot have text", offset: objectOffset, pointer: pointer.appending(key: "text"))
        }
        var block = Block(kind, text: fields.text, depth: fields.depth, quoteDepth: fields.quoteDepth ?? (kind == .blockquote ? 1 : 0), alignment: fields.alignment)
        if !fields.quoteListDepths.isEmpty {
            block.quoteListDepths = fields.quoteListDepths
            if let violation = block.quoteListDepthsViolation {
                throw Failure(code: "invalid-value", message: violation, offset: fields.quoteListDepthsOffset, pointer: pointer.appending(key: "quoteListDepths"))
            }
            // All zeros is the default order.
            if !block.quoteListDepths.contains(where: { $0 != 0 }) { block.quoteListDepths = [] }
        }
        if let containerStart = fields.containerStart {
            guard containerStart.value < block.containerChainCount else {
                throw Failure(code: "invalid-value", message: "containerStart \(containerStart.value) is outside the block's \(block.containerChainCount) containers (its quotes and list items, and its own list or definition list)",
                              offset: containerStart.offset, pointer: pointer.appending(key: "containerStart"))
            }
            block.containerStart = containerStart.value
        }
        block.anchor = fields.anchor
        // A list item's only: elsewhere reported as ignored, above.
        if kind.isListItem { block.taskState = fields.taskState }
        guard kind.tag == .tableRow else {
            return PendingBlock(block: block, markups: fields.markups, continuesOffset: fields.continuesOffset, objectOffset: objectOffset)
        }
        return PendingBlock(block: block, markups: fields.markups, cells: fields.cells ?? [], cellsOffset: fields.cellsOffset, objectOffset: objectOffset)
    }

    /// The members of the paragraph object at `pointer`, each checked as it is read; unknown
    /// keys reported and skipped. Read into the caller's fields: returned, the 300-byte value
    /// was copied out and the original released, every string and array in it retained and
    /// released once more (json-read took 2.7% more instructions).
    private mutating func readBlockFields(pointer: JSONPointer, into fields: inout BlockFields) throws(Failure) {
        var walk = MemberWalk()
        try enterMembers(&walk, of: pointer)
        while let key = try nextMember(&walk, of: pointer) {
            let member = pointer.appending(key: key)
            let offset = scanner.position
            switch key {
            case "type": fields.typeName = try scanner.string(member)
            case "text":
                scanner.keepsNUL = true
                fields.text = try scanner.string(member)
                scanner.keepsNUL = false
            case "depth": fields.depth = try boundedDepth(member)
            case "quoteDepth": fields.quoteDepth = try boundedDepth(member)
            case "align":
                let name = try scanner.string(member)
                guard let parsed = TextAlignment(rawValue: name) else {
                    throw failure("invalid-value", "unknown alignment '\(name)' (expected left, center, right or justify)", member)
                }
                fields.alignment = parsed
            case "number":
                scanner.skipWhitespace()
                let literalStart = scanner.position
                let read = try scanner.saturatingInteger(member)
                fields.number = ListNumber.clamped(read.value)
                if read.saturated || fields.number != read.value {
                    let literal = scanner.text(literalStart..<scanner.position)
                    diagnostics.append(.warning("list-number-clamped", ListNumber.clampingMessage(first: literal),
                                                at: location(literalStart, member)))
                }
                fields.typeSpecific.append((key, offset))
            case "language":
                let given = try scanner.string(member)
                fields.language = CodeLanguage.normalized(given)
                if fields.language != given {
                    diagnostics.append(.warning("language-changed",
                        "code block language \(given.debugDescription) kept as \(fields.language.map { $0.debugDescription } ?? "none"): a language is one word, as CommonMark and HTML carry it",
                        at: location(offset, member)))
                }
                fields.typeSpecific.append((key, offset))
            case "src": fields.src = try scanner.string(member); fields.typeSpecific.append((key, offset))
            case "alt": fields.alt = try scanner.string(member); fields.typeSpecific.append((key, offset))
            case "title": fields.title = try scanner.string(member); fields.typeSpecific.append((key, offset))
            case "embed": fields.embed = (try scanner.string(member), offset); fields.typeSpecific.append((key, offset))
            case "poster": fields.poster = try scanner.string(member); fields.typeSpecific.append((key, offset))
            case "width", "height":
                let value = try imageDimension(key, member)
                if key == "width" { fields.width = value } else { fields.height = value }
                fields.typeSpecific.append((key, offset))
            case "markups":
                var read: [PendingMarkup] = []
                var elements = try scanner.enterArray(member)
                while let index = try scanner.nextElement(&elements, member) {
                    read.append(try markup(pointer: pointer.markup(index)))
                }
                fields.markups = read
            default:
                // Fewer paragraphs' members, outside the switch: more cases make Swift look
                // every key up through a search of the case names, which cost every block 8% of
                // reading.
                if try !readOtherBlockField(key, of: pointer, member, at: offset, into: &fields) { try skipUnknown(key, member, walk) }
            }
        }
    }

    /// The members of containers, anchors, definitions, tasks and table rows: false for a key
    /// no paragraph has.
    private mutating func readOtherBlockField(_ key: String, of pointer: JSONPointer, _ member: JSONPointer, at offset: Int, into fields: inout BlockFields) throws(Failure) -> Bool {
        if key == "quoteListDepths" {
            fields.quoteListDepths = []
            fields.quoteListDepthsOffset = offset
            var elements = try scanner.enterArray(member)
            while try scanner.nextElement(&elements, member) != nil {
                fields.quoteListDepths.append(try scanner.integer(member))
            }
        } else if key == "containerStart" {
            fields.containerStart = (try scanner.integer(member), offset)
        } else if key == "name" {
            let given = try scanner.string(member)
            fields.anchor = Block.sanitizedAnchor(given)
            if fields.anchor != given {
                diagnostics.append(.warning("anchor-changed",
                    "paragraph name \(given.debugDescription) \(fields.anchor.map { "kept as \($0.debugDescription)" } ?? "dropped"): an anchor holds no whitespace, control, quote, <, >, ` or \\, and at most \(Block.maxAnchorLength) bytes",
                    at: location(offset, member)))
            }
        } else if key == "continues" {
            fields.continues = try booleanLiteral("continues", member)
            fields.continuesOffset = offset
            fields.typeSpecific.append((key, offset))
        } else if key == "task" {
            let name = try scanner.string(member)
            guard let state = TaskState(rawValue: name) else {
                throw failure("invalid-value", "unknown task state '\(name)' (expected unchecked or checked)", member)
            }
            fields.taskState = state
            fields.typeSpecific.append((key, offset))
        } else if key == "cells" {
            scanner.skipWhitespace()
            fields.cellsOffset = scanner.position
            var cells: [PendingCell] = []
            var elements = try scanner.enterArray(member)
            while let index = try scanner.nextElement(&elements, member) {
                cells.append(try cell(pointer: pointer.cell(index)))
            }
            fields.cells = cells
            fields.typeSpecific.append((key, offset))
        } else if key == "startsTable" {
            fields.startsTable = try booleanLiteral("startsTable", member)
            fields.typeSpecific.append((key, offset))
        } else {
            return false
        }
        return true
    }

    /// `true` or `false`, or an error naming the member.
    private mutating func booleanLiteral(_ name: String, _ member: JSONPointer) throws(Failure) -> Bool {
        scanner.skipWhitespace()
        guard let value = try scanner.literal(member) else {
            throw failure("invalid-value", "\(name) must be true or false", member)
        }
        return value
    }

    /// The block kind `tag` names, made of the members that apply to it, and the names of those.
    private mutating func blockKind(_ tag: BlockKind.Tag, _ fields: borrowing BlockFields, pointer: JSONPointer, objectOffset: Int) throws(Failure) -> (BlockKind, Set<String>) {
        switch tag {
        case .paragraph: return (.paragraph, [])
        case .definitionTerm: return (.definitionTerm(continues: fields.continues), ["continues"])
        case .definitionDescription: return (.definitionDescription(continues: fields.continues), ["continues"])
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: return (.heading(level: tag.headingLevel ?? 1), [])
        case .blockquote: return (.blockquote, [])
        case .codeBlock: return (.codeBlock(language: fields.language), ["language"])
        case .unorderedListItem: return (.unorderedListItem, ["task"])
        case .orderedListItem: return (.orderedListItem(number: fields.number ?? 1), ["number", "task"])
        case .image:
            guard let src = fields.src else {
                throw Failure(code: "missing-field", message: "missing required field 'src' for type IMG", offset: objectOffset, pointer: pointer)
            }
            let image = ImageSource(src: checkedImageSource(src, pointer: pointer.appending(key: "src"), offset: objectOffset), alt: fields.alt, title: fields.title,
                                    width: fields.width, height: fields.height)
            return (.image(image), ["src", "alt", "title", "width", "height"])
        case .embed:
            return (try embedKind(fields, pointer: pointer, objectOffset: objectOffset), ["embed", "src", "poster", "width", "height", "title"])
        case .tableRow:
            guard let cells = fields.cells else {
                throw Failure(code: "missing-field", message: "missing required field 'cells' for type TR", offset: objectOffset, pointer: pointer)
            }
            // The cells' offsets are resolved with the markups', once the unit is known.
            return (.tableRow(TableRow(cells: cells.map(\.cell), startsTable: fields.startsTable)), ["cells", "startsTable"])
        case .tableCaption: return (.tableCaption, [])
        case .horizontalRule: return (.horizontalRule, [])
        }
    }

    /// An EMBED's kind, or, with a source the URL policy refuses, a paragraph of its text (what
    /// a reader would have seen without it), reported.
    private mutating func embedKind(_ fields: borrowing BlockFields, pointer: JSONPointer, objectOffset: Int) throws(Failure) -> BlockKind {
        guard let embed = fields.embed else {
            throw Failure(code: "missing-field", message: "missing required field 'embed' for type EMBED", offset: objectOffset, pointer: pointer)
        }
        guard let mediaKind = Embed.Kind(rawValue: embed.name) else {
            throw Failure(code: "invalid-value", message: "unknown embed '\(embed.name)' (expected one of \(Embed.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                          offset: embed.offset, pointer: pointer.appending(key: "embed"))
        }
        guard let src = fields.src else {
            throw Failure(code: "missing-field", message: "missing required field 'src' for type EMBED", offset: objectOffset, pointer: pointer)
        }
        switch options.urlPolicy.check(src, for: .embed(mediaKind)) {
        // One it may only link to stays an embed: the writers write it as a link.
        case .allowed(let cleaned), .linkOnly(let cleaned, _):
            // Empty, or spaces and controls only: nothing to embed, and no source to link to.
            guard !cleaned.isEmpty else {
                throw Failure(code: "invalid-value", message: "an EMBED's src is empty: there is nothing to embed or link to",
                              offset: objectOffset, pointer: pointer.appending(key: "src"))
            }
            let checkedPoster = fields.poster.map { checkedImageSource($0, pointer: pointer.appending(key: "poster"), offset: objectOffset) }
            return .embed(Embed(mediaKind, src: cleaned, poster: checkedPoster.flatMap { $0.isEmpty ? nil : $0 },
                                width: fields.width, height: fields.height, title: fields.title))
        case .rejected(let reason):
            diagnostics.append(.warning("unsafe-url", "embed source dropped: \(reason); its text kept as a paragraph",
                                        at: location(objectOffset, pointer.appending(key: "src"))))
            return .paragraph
        }
    }
}
