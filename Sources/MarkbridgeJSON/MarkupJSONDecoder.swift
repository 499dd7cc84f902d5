@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// A markup as read, before the document's offset unit is known (`offsetUnit` may come after
/// `paragraphs`), with the byte offsets needed to point at it later.
struct PendingMarkup {
    var kind: MarkupKind
    var start: Int
    var end: Int
    var offset: Int
    var startOffset: Int
    var endOffset: Int
}

/// A table cell as read, its offsets still in the document's unit.
struct PendingCell {
    var cell: TableCell
    var start: Int
    var end: Int
    var offset: Int
}

struct PendingBlock {
    var block: Block
    var markups: [PendingMarkup]
    var cells: [PendingCell] = []
    /// Where the `cells` array begins, to point at.
    var cellsOffset = 0
    var hasCells: Bool { block.kind.tag == .tableRow }
    /// Where a term's or definition's `continues` was given, to point at.
    var continuesOffset = 0
    /// Where the block's object begins, to point at.
    var objectOffset = 0
}

/// A table row's own fields, as read.
private struct PendingRowFields {
    var cells: [PendingCell]?
    var cellsOffset = 0
    var startsTable = false
}

/// The decoding pass of ``MarkupJSONReader``: walks the fixed schema with the scanner, then
/// translates and validates the markups once the offset unit is known.
struct MarkupJSONDecoder: ~Escapable {
    var scanner: JSONScanner
    let options: MarkupJSONReader.Options
    var diagnostics: [Diagnostic] = []
    private var lineIndex: LineIndex?
    /// Stops the read, at a paragraph, once the conversion's deadline passes or its task is cancelled.
    private var countdown = DeadlineCountdown(every: 64)

    @_lifetime(copy scanner)
    init(scanner: JSONScanner, options: MarkupJSONReader.Options) {
        self.scanner = scanner
        self.options = options
    }

    typealias Failure = JSONScanner.Failure

    mutating func decode() throws(Failure) -> Diagnosed<Document> {
        var unit = OffsetUnit.utf16
        var pending: [PendingBlock]?
        var walk = MemberWalk()
        try enterMembers(&walk, of: .root)
        while let key = try nextMember(&walk, of: .root) {
            let pointer = JSONPointer.root.appending(key: key)
            switch key {
            case "version":
                let version = try scanner.integer(pointer)
                guard version == 1 else {
                    throw failure("unsupported-version", "version \(version) is not supported (only 1)", pointer)
                }
            case "offsetUnit":
                let name = try scanner.string(pointer)
                guard let parsed = OffsetUnit(rawValue: name) else {
                    throw failure("unknown-offset-unit", "unknown offset unit '\(name)' (expected utf16, scalar or utf8)", pointer)
                }
                unit = parsed
            case "paragraphs":
                var blocks: [PendingBlock] = []
                var elements = try scanner.enterArray(pointer)
                while let index = try scanner.nextElement(&elements, pointer) {
                    try stopIfDue()
                    blocks.append(try block(pointer: pointer.paragraph(index)))
                }
                pending = blocks
            default:
                try skipUnknown(key, pointer, walk)
            }
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw scanner.failure("invalid-json", "unexpected content after the document", .root)
        }
        guard let pending else {
            throw Failure(code: "missing-field", message: "missing required field 'paragraphs'", offset: 0, pointer: .root)
        }
        var blocks: [Block] = []
        blocks.reserveCapacity(pending.count)
        var items = ItemDepthWalk()
        for (index, entry) in pending.enumerated() {
            try stopIfDue()
            var block = try resolve(entry, unit: unit, pointer: JSONPointer.root.paragraph(index))
            let allowed = items.allowedDepth(for: block)
            if allowed < block.depth {
                diagnostics.append(.warning("depth-lowered", "depth \(block.depth) follows no list item at depth \(block.depth - 1) to be in: kept at depth \(allowed), \(allowed == 0 ? "outside any list" : "in the item at depth \(allowed - 1) before it")",
                                            at: location(entry.objectOffset, JSONPointer.root.paragraph(index).appending(key: "depth"))))
                block = block.moved(toDepth: allowed)
            }
            blocks.append(block)
            if entry.hasCells { Self.startTableIfFirstRow(&blocks) }
            if entry.block.kind.continuesDefinition { beginDefinitionIfNothingToContinue(&blocks, at: entry.continuesOffset) }
            if index > 0 { flattenCaptionWithoutTable(&blocks, at: index - 1, offset: pending[index - 1].objectOffset) }
        }
        if let last = blocks.indices.last { flattenCaptionWithoutTable(&blocks, at: last, offset: pending[last].objectOffset) }
        var document = Document(blocks: blocks)
        // A start where the containers begin anyway says nothing, and is dropped.
        document.canonicalizeContainerStarts()
        return Diagnosed(document, diagnostics: diagnostics)
    }

    private mutating func stopIfDue() throws(Failure) {
        guard countdown.shouldStop(), let reason = countdown.reason else { return }
        throw Failure(code: reason.code, message: reason.message, offset: 0, pointer: .root, stop: reason)
    }

    /// A term or definition that says it `continues` the one before, where no term or
    /// definition of its kind is before it at its place (or a definition list begins at it),
    /// begins one of its own: said, since no writer can write it otherwise.
    private mutating func beginDefinitionIfNothingToContinue(_ blocks: inout [Block], at offset: Int) {
        let last = blocks.count - 1
        guard !blocks[last].continuesDefinition(after: last > 0 ? blocks[last - 1] : nil) else { return }
        blocks[last].kind = blocks[last].kind.definition(continuing: false)
        let name = blocks[last].kind.tag?.rawValue ?? ""
        diagnostics.append(.warning("ignored-field", "continues on a \(name) that follows no \(name) at its place (or begins a definition list) was ignored: it begins one of its own",
                                    at: location(offset, JSONPointer.root.paragraph(last).appending(key: "continues"))))
    }

    /// A `CAPTION` not followed by the first row of its table (see ``Block/captions(_:)``)
    /// has no table to be the caption of: a paragraph of its text, said.
    private mutating func flattenCaptionWithoutTable(_ blocks: inout [Block], at index: Int, offset: Int) {
        guard blocks[index].kind == .tableCaption, !blocks[index].captions(index + 1 < blocks.count ? blocks[index + 1] : nil) else { return }
        blocks[index].kind = blocks[index].quoteDepth > 0 ? .blockquote : .paragraph
        diagnostics.append(.warning("table-caption-flattened", "CAPTION not followed by a TR that starts a table at its place read as a paragraph",
                                    at: location(offset, JSONPointer.root.paragraph(index))))
    }

    /// A row that follows no row at its place can only begin a table, whatever it says.
    private static func startTableIfFirstRow(_ blocks: inout [Block]) {
        let last = blocks.count - 1
        guard case .tableRow(var row) = blocks[last].kind, !row.startsTable,
              !blocks[last].continuesTable(after: last > 0 ? blocks[last - 1] : nil) else { return }
        row.startsTable = true
        blocks[last].kind = .tableRow(row)
    }

    // MARK: Objects

    /// An object's members, walked by the reading function itself (`enterMembers`, then
    /// `nextMember` until nil, each value read or passed to `skipUnknown`): a closure per
    /// object, as before, copied the scanner and the decoder in and out of it for every
    /// member, and a non-escapable decoder's copies are not optimised away (json-read 180.4 M
    /// instructions over a closure, against 166.2 M with the pointer scanner before it).
    private struct MemberWalk {
        var cursor = JSONScanner.ContainerCursor()
        // Each object's own keys, inline: one list shared by the objects being read was
        // copied on every append (6% of reading JSON), and scanned whole for every key, which
        // made an object of many keys quadratic.
        var keys = DistinctNames()
    }

    /// Enters the object at `pointer`; `walk` is a new one, made in place by the caller (made
    /// here and returned, its 256 bytes of keys were copied for every object).
    @inline(__always)
    private mutating func enterMembers(_ walk: inout MemberWalk, of pointer: JSONPointer) throws(Failure) {
        walk.cursor = try scanner.enterObject(pointer)
    }

    /// The key of the next member of the object at `pointer`, the scanner at its value, or nil
    /// after the last. Repeated keys are reported; the last one wins.
    @inline(__always)
    private mutating func nextMember(_ walk: inout MemberWalk, of pointer: JSONPointer) throws(Failure) -> String? {
        guard let key = try scanner.nextMember(&walk.cursor, pointer) else { return nil }
        let isNew = if let raw = walk.cursor.rawKey { walk.keys.insert(scanner.bytes.extracting(raw)) } else { walk.keys.insert(key, bytes: nil) }
        if !isNew { reportDuplicate(key, of: pointer, walk) }
        return key
    }

    private mutating func reportDuplicate(_ key: String, of pointer: JSONPointer, _ walk: borrowing MemberWalk) {
        let owner = pointer.description.isEmpty ? "the document" : pointer.description
        diagnostics.append(.warning("duplicate-key", "duplicate key '\(key)' in \(owner); the last one wins",
            at: location(walk.cursor.keyOffset, pointer.appending(key: key))))
    }

    /// A member whose key the reading function does not know: reported, and its value skipped.
    private mutating func skipUnknown(_ key: String, _ member: JSONPointer, _ walk: borrowing MemberWalk) throws(Failure) {
        diagnostics.append(.warning("unknown-field", "unknown field '\(key)' ignored",
            at: location(walk.cursor.keyOffset, member)))
        try scanner.skipValue(member, maxDepth: options.maxNestingDepth)
    }

    private mutating func block(pointer: JSONPointer) throws(Failure) -> PendingBlock {
        let objectOffset = scanner.position
        var typeName: String?
        var text = ""
        var depth = 0
        var quoteDepth: Int?
        var number: Int?
        var language: String?
        var src: String?
        var alt: String?
        var title: String?
        var embedKind: (name: String, offset: Int)?, poster: String?, width: Int?, height: Int?
        var alignment: TextAlignment?
        var markups: [PendingMarkup] = []
        var row = PendingRowFields()
        var quoteListDepths: [Int] = [], quoteListDepthsOffset = 0
        var containerStart: (value: Int, offset: Int)?
        var anchor: String?
        var continues = false, continuesOffset = 0
        var taskState: TaskState?
        var typeSpecific: [(key: String, offset: Int)] = []
        var walk = MemberWalk()
        try enterMembers(&walk, of: pointer)
        while let key = try nextMember(&walk, of: pointer) {
            let member = pointer.appending(key: key)
            let offset = scanner.position
            switch key {
            case "type": typeName = try scanner.string(member)
            case "text": text = try scanner.string(member)
            case "depth": depth = try boundedDepth(member)
            case "quoteDepth": quoteDepth = try boundedDepth(member)
            case "align":
                let name = try scanner.string(member)
                guard let parsed = TextAlignment(rawValue: name) else {
                    throw failure("invalid-value", "unknown alignment '\(name)' (expected left, center, right or justify)", member)
                }
                alignment = parsed
            case "number":
                scanner.skipWhitespace()
                let literalStart = scanner.position
                let read = try scanner.saturatingInteger(member)
                number = ListNumber.clamped(read.value)
                if read.saturated || number != read.value {
                    let literal = scanner.text(literalStart..<scanner.position)
                    diagnostics.append(.warning("list-number-clamped", ListNumber.clampingMessage(first: literal),
                                                        at: location(literalStart, member)))
                }
                typeSpecific.append((key, offset))
            case "language":
                let given = try scanner.string(member)
                language = CodeLanguage.normalized(given)
                if language != given {
                    diagnostics.append(.warning("language-changed",
                        "code block language \(given.debugDescription) kept as \(language.map { $0.debugDescription } ?? "none"): a language is one word, as CommonMark and HTML carry it",
                        at: location(offset, member)))
                }
                typeSpecific.append((key, offset))
            case "src": src = try scanner.string(member); typeSpecific.append((key, offset))
            case "alt": alt = try scanner.string(member); typeSpecific.append((key, offset))
            case "title": title = try scanner.string(member); typeSpecific.append((key, offset))
            case "embed": embedKind = (try scanner.string(member), offset); typeSpecific.append((key, offset))
            case "poster": poster = try scanner.string(member); typeSpecific.append((key, offset))
            case "width", "height":
                let value = try imageDimension(key, member)
                if key == "width" { width = value } else { height = value }
                typeSpecific.append((key, offset))
            case "markups":
                var read: [PendingMarkup] = []
                var elements = try scanner.enterArray(member)
                while let index = try scanner.nextElement(&elements, member) {
                    read.append(try markup(pointer: pointer.markup(index)))
                }
                markups = read
            default:
                // A table row's fields, outside the switch: more cases make Swift look every key
                // up through a search of the case names, which cost every block 8% of reading.
                if key == "quoteListDepths" {
                    quoteListDepths = []
                    quoteListDepthsOffset = offset
                    var elements = try scanner.enterArray(member)
                    while try scanner.nextElement(&elements, member) != nil {
                        quoteListDepths.append(try scanner.integer(member))
                    }
                    continue
                }
                if key == "containerStart" {
                    containerStart = (try scanner.integer(member), offset)
                    continue
                }
                if key == "name" {
                    let given = try scanner.string(member)
                    anchor = Block.sanitizedAnchor(given)
                    if anchor != given {
                        diagnostics.append(.warning("anchor-changed",
                            "paragraph name \(given.debugDescription) \(anchor.map { "kept as \($0.debugDescription)" } ?? "dropped"): an anchor holds no whitespace, control, quote, <, >, ` or \\, and at most \(Block.maxAnchorLength) bytes",
                            at: location(offset, member)))
                    }
                    continue
                }
                if key == "continues" {
                    scanner.skipWhitespace()
                    guard let value = try scanner.literal(member) else {
                        throw failure("invalid-value", "continues must be true or false", member)
                    }
                    continues = value
                    continuesOffset = offset
                    typeSpecific.append((key, offset))
                    continue
                }
                if key == "task" {
                    let name = try scanner.string(member)
                    guard let state = TaskState(rawValue: name) else {
                        throw failure("invalid-value", "unknown task state '\(name)' (expected unchecked or checked)", member)
                    }
                    taskState = state
                    typeSpecific.append((key, offset))
                    continue
                }
                guard key == "cells" || key == "startsTable" else {
                    try skipUnknown(key, member, walk)
                    continue
                }
                if key == "cells" {
                    scanner.skipWhitespace()
                    row.cellsOffset = scanner.position
                    var cells: [PendingCell] = []
                    var elements = try scanner.enterArray(member)
                    while let index = try scanner.nextElement(&elements, member) {
                        cells.append(try cell(pointer: pointer.cell(index)))
                    }
                    row.cells = cells
                } else {
                    scanner.skipWhitespace()
                    guard let value = try scanner.literal(member) else {
                        throw failure("invalid-value", "startsTable must be true or false", member)
                    }
                    row.startsTable = value
                }
                typeSpecific.append((key, offset))
            }
        }
        guard let typeName else {
            throw Failure(code: "missing-field", message: "missing required field 'type'", offset: objectOffset, pointer: pointer)
        }
        guard let tag = BlockKind.Tag(rawValue: typeName) else {
            throw Failure(code: "unknown-type", message: "unknown block type '\(typeName)' (expected one of \(BlockKind.Tag.allCases.map(\.rawValue).joined(separator: ", ")))",
                          offset: objectOffset, pointer: pointer.appending(key: "type"))
        }
        let kind: BlockKind
        var applicable: Set<String> = []
        switch tag {
        case .paragraph: kind = .paragraph
        case .definitionTerm: kind = .definitionTerm(continues: continues); applicable = ["continues"]
        case .definitionDescription: kind = .definitionDescription(continues: continues); applicable = ["continues"]
        case .heading1, .heading2, .heading3, .heading4, .heading5, .heading6: kind = .heading(level: tag.headingLevel ?? 1)
        case .blockquote: kind = .blockquote
        case .codeBlock: kind = .codeBlock(language: language); applicable = ["language"]
        case .unorderedListItem: kind = .unorderedListItem; applicable = ["task"]
        case .orderedListItem: kind = .orderedListItem(number: number ?? 1); applicable = ["number", "task"]
        case .image:
            guard let src else {
                throw Failure(code: "missing-field", message: "missing required field 'src' for type IMG", offset: objectOffset, pointer: pointer)
            }
            kind = .image(ImageSource(src: checkedImageSource(src, pointer: pointer.appending(key: "src"), offset: objectOffset), alt: alt, title: title,
                                      width: width, height: height))
            applicable = ["src", "alt", "title", "width", "height"]
        case .embed:
            guard let embedKind else {
                throw Failure(code: "missing-field", message: "missing required field 'embed' for type EMBED", offset: objectOffset, pointer: pointer)
            }
            guard let mediaKind = Embed.Kind(rawValue: embedKind.name) else {
                throw Failure(code: "invalid-value", message: "unknown embed '\(embedKind.name)' (expected one of \(Embed.Kind.allCases.map(\.rawValue).joined(separator: ", ")))",
                              offset: embedKind.offset, pointer: pointer.appending(key: "embed"))
            }
            guard let src else {
                throw Failure(code: "missing-field", message: "missing required field 'src' for type EMBED", offset: objectOffset, pointer: pointer)
            }
            applicable = ["embed", "src", "poster", "width", "height", "title"]
            switch options.urlPolicy.check(src, for: .embed(mediaKind)) {
            // One it may only link to stays an embed: the writers write it as a link.
            case .allowed(let cleaned), .linkOnly(let cleaned, _):
                let checkedPoster = poster.map { checkedImageSource($0, pointer: pointer.appending(key: "poster"), offset: objectOffset) }
                kind = .embed(Embed(mediaKind, src: cleaned, poster: checkedPoster.flatMap { $0.isEmpty ? nil : $0 },
                                    width: width, height: height, title: title))
            case .rejected(let reason):
                // Its text (caption or fallback) is what a reader would have seen without it.
                diagnostics.append(.warning("unsafe-url", "embed source dropped: \(reason); its text kept as a paragraph",
                                            at: location(objectOffset, pointer.appending(key: "src"))))
                kind = .paragraph
            }
        case .tableRow:
            guard let cells = row.cells else {
                throw Failure(code: "missing-field", message: "missing required field 'cells' for type TR", offset: objectOffset, pointer: pointer)
            }
            // The cells' offsets are resolved with the markups', once the unit is known.
            kind = .tableRow(TableRow(cells: cells.map(\.cell), startsTable: row.startsTable))
            applicable = ["cells", "startsTable"]
        case .tableCaption: kind = .tableCaption
        case .horizontalRule: kind = .horizontalRule
        }
        for field in typeSpecific where !applicable.contains(field.key) {
            diagnostics.append(.warning("ignored-field", "field '\(field.key)' does not apply to type \(typeName) and was ignored",
                at: location(field.offset, pointer.appending(key: field.key))))
        }
        if kind == .horizontalRule, !text.isEmpty {
            throw Failure(code: "invalid-value", message: "a horizontal rule cannot have text", offset: objectOffset, pointer: pointer.appending(key: "text"))
        }
        var block = Block(kind, text: text, depth: depth, quoteDepth: quoteDepth ?? (kind == .blockquote ? 1 : 0), alignment: alignment)
        if !quoteListDepths.isEmpty {
            block.quoteListDepths = quoteListDepths
            if let violation = block.quoteListDepthsViolation {
                throw Failure(code: "invalid-value", message: violation, offset: quoteListDepthsOffset, pointer: pointer.appending(key: "quoteListDepths"))
            }
            // All zeros is the default order.
            if !quoteListDepths.contains(where: { $0 != 0 }) { block.quoteListDepths = [] }
        }
        if let containerStart {
            guard containerStart.value < block.containerChainCount else {
                throw Failure(code: "invalid-value", message: "containerStart \(containerStart.value) is outside the block's \(block.containerChainCount) containers (its quotes and list items, and its own list or definition list)",
                              offset: containerStart.offset, pointer: pointer.appending(key: "containerStart"))
            }
            block.containerStart = containerStart.value
        }
        block.anchor = anchor
        // A list item's only: elsewhere reported as ignored, above.
        if kind.isListItem { block.taskState = taskState }
        guard kind.tag == .tableRow else { return PendingBlock(block: block, markups: markups, continuesOffset: continuesOffset, objectOffset: objectOffset) }
        return PendingBlock(block: block, markups: markups, cells: row.cells ?? [], cellsOffset: row.cellsOffset, objectOffset: objectOffset)
    }

    /// One of a table row's cells: `start` and `end` required, `header`, `colspan`, `rowspan`
    /// and `align` optional.
    private mutating func cell(pointer: JSONPointer) throws(Failure) -> PendingCell {
        let objectOffset = scanner.position
        var start: Int?, end: Int?
        var cell = TableCell(TextRange(start: 0, end: 0))
        var walk = MemberWalk()
        try enterMembers(&walk, of: pointer)
        while let key = try nextMember(&walk, of: pointer) {
            let member = pointer.appending(key: key)
            switch key {
            case "start": start = try scanner.integer(member)
            case "end": end = try scanner.integer(member)
            case "header":
                scanner.skipWhitespace()
                guard let value = try scanner.literal(member) else {
                    throw failure("invalid-value", "header must be true or false", member)
                }
                cell.isHeader = value
            case "colspan", "rowspan":
                let value = try scanner.integer(member)
                let limits = key == "colspan" ? TableCell.columnSpanLimits : TableCell.rowSpanLimits
                guard limits.contains(value) else {
                    throw failure("invalid-value", "\(key) \(value) is outside \(limits.lowerBound)...\(limits.upperBound)", member)
                }
                if key == "colspan" { cell.columnSpan = value } else { cell.rowSpan = value }
            case "align":
                let name = try scanner.string(member)
                guard let parsed = TextAlignment(rawValue: name) else {
                    throw failure("invalid-value", "unknown alignment '\(name)' (expected left, center, right or justify)", member)
                }
                cell.alignment = parsed
            default: try skipUnknown(key, member, walk)
            }
        }
        guard let start else { throw Failure(code: "missing-field", message: "missing required field 'start'", offset: objectOffset, pointer: pointer) }
        guard let end else { throw Failure(code: "missing-field", message: "missing required field 'end'", offset: objectOffset, pointer: pointer) }
        return PendingCell(cell: cell, start: start, end: end, offset: objectOffset)
    }

    private mutating func markup(pointer: JSONPointer) throws(Failure) -> PendingMarkup {
        let objectOffset = scanner.position
        var typeName: String?
        var start: (value: Int, offset: Int)?
        var end: (value: Int, offset: Int)?
        // The fields some types take, as variables: a dictionary of them, a set of the ones that
        // apply and the sorted keys cost four allocations for every link.
        var href: String?, title: String?, src: String?, alt: String?, color: String?, entityTag: String?, entityName: String?
        var width: Int?, height: Int?
        var walk = MemberWalk()
        try enterMembers(&walk, of: pointer)
        while let key = try nextMember(&walk, of: pointer) {
            let member = pointer.appending(key: key)
            let offset = scanner.position
            switch key {
            case "type": typeName = try scanner.string(member)
            case "start": start = (try scanner.integer(member), offset)
            case "end": end = (try scanner.integer(member), offset)
            case "href": href = try scanner.string(member)
            case "title": title = try scanner.string(member)
            case "src": src = try scanner.string(member)
            case "alt": alt = try scanner.string(member)
            case "color": color = try scanner.string(member)
            case "tag": entityTag = try scanner.string(member)
            case "name": entityName = try scanner.string(member)
            case "width", "height":
                let value = try imageDimension(key, member)
                if key == "width" { width = value } else { height = value }
            default: try skipUnknown(key, member, walk)
            }
        }
        func missing(_ field: String) -> Failure {
            Failure(code: "missing-field", message: "missing required field '\(field)'", offset: objectOffset, pointer: pointer)
        }
        guard let typeName else { throw missing("type") }
        guard let start else { throw missing("start") }
        guard let end else { throw missing("end") }
        guard let tag = MarkupKind.Tag(name: typeName) else {
            throw Failure(code: "unknown-type", message: "unknown markup type '\(typeName)' (expected one of \(MarkupKind.Tag.allCases.map(\.name).joined(separator: ", ")))",
                          offset: objectOffset, pointer: pointer.appending(key: "type"))
        }
        let kind: MarkupKind
        switch tag {
        case .strong: kind = .strong
        case .emphasis: kind = .emphasis
        case .code: kind = .code
        case .strike: kind = .strike
        case .underline: kind = .underline
        case .superscript: kind = .superscript
        case .subscript: kind = .subscript
        case .highlight: kind = .highlight
        case .link:
            guard let href else { throw missing("href") }
            kind = .link(LinkTarget(href: href, title: title))
        case .image:
            guard let src else { throw missing("src") }
            kind = .image(ImageSource(src: src, alt: alt, title: title, width: width, height: height))
        case .color, .background:
            guard let spelling = color else { throw missing("color") }
            guard let color = CSSColor(hex: spelling) else {
                throw Failure(code: "invalid-value", message: "'\(spelling)' is not a color (expected #RRGGBB or #RRGGBBAA)",
                              offset: objectOffset, pointer: pointer.appending(key: "color"))
            }
            kind = tag == .color ? .color(color) : .background(color)
        case .hashtag:
            guard let entityTag else { throw missing("tag") }
            kind = .hashtag(entityTag)
        case .mention:
            guard let entityName else { throw missing("name") }
            kind = .mention(entityName)
        }
        // Fields given that the type does not take, in the order of their names.
        if alt != nil || color != nil || href != nil || src != nil || title != nil || entityTag != nil || entityName != nil || width != nil || height != nil {
            let isLink = tag == .link, isImage = tag == .image, isColor = tag == .color || tag == .background
            for (key, given, applies) in [("alt", alt != nil, isImage), ("color", color != nil, isColor), ("height", height != nil, isImage),
                                          ("href", href != nil, isLink), ("name", entityName != nil, tag == .mention), ("src", src != nil, isImage),
                                          ("tag", entityTag != nil, tag == .hashtag), ("title", title != nil, isLink || isImage),
                                          ("width", width != nil, isImage)]
                where given && !applies {
                diagnostics.append(.warning("ignored-field", "field '\(key)' does not apply to type \(typeName) and was ignored",
                    at: location(objectOffset, pointer.appending(key: key))))
            }
        }
        return PendingMarkup(kind: kind, start: start.value, end: end.value, offset: objectOffset,
                             startOffset: start.offset, endOffset: end.offset)
    }

    // MARK: Helpers

    /// An embed's or an image's `width` or `height`: whole CSS pixels, 0 to ``Embed/maxDimension``.
    private mutating func imageDimension(_ key: String, _ pointer: JSONPointer) throws(Failure) -> Int {
        let value = try scanner.integer(pointer)
        guard (0...Embed.maxDimension).contains(value) else {
            throw failure("invalid-value", "\(key) \(value) is outside 0...\(Embed.maxDimension)", pointer)
        }
        return value
    }

    private mutating func boundedDepth(_ pointer: JSONPointer) throws(Failure) -> Int {
        let offset = scanner.position
        let value = try scanner.integer(pointer)
        guard value <= IRLimits.maxDepth else {
            throw Failure(code: "too-deep", message: "depth \(value) exceeds the limit of \(IRLimits.maxDepth)", offset: offset, pointer: pointer)
        }
        return value
    }

    func failure(_ code: String, _ message: String, _ pointer: JSONPointer) -> Failure {
        scanner.failure(code, message, pointer)
    }

    mutating func location(_ offset: Int, _ pointer: JSONPointer) -> SourceLocation {
        let index = lineIndex ?? LineIndex(scanner.bytes)
        lineIndex = index
        return index.location(ofByte: offset, jsonPointer: pointer.description)
    }
}
