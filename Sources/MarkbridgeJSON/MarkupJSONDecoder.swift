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
        // Blocks that may hold only an image (one markup over one U+FFFC), promoted after the walk.
        var loneImageCandidates: [Int] = []
        for (index, entry) in pending.enumerated() {
            try stopIfDue()
            var block = try resolve(entry, unit: unit, pointer: JSONPointer.root.paragraph(index))
            // Its offsets are UTF-16 now, where U+FFFD takes the NUL's one unit.
            if scanner.keptNULs > 0, block.text.utf8.contains(0) {
                block.text = String(String.UnicodeScalarView(block.text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
            }
            let allowed = items.allowedDepth(for: block)
            if allowed < block.depth {
                diagnostics.append(.warning("depth-lowered", "depth \(block.depth) follows no list item at depth \(block.depth - 1) to be in: kept at depth \(allowed), \(allowed == 0 ? "outside any list" : "in the item at depth \(allowed - 1) before it")",
                                            at: location(entry.objectOffset, JSONPointer.root.paragraph(index).appending(key: "depth"))))
                block = block.moved(toDepth: allowed)
            }
            if block.markups.count == 1 && block.text.utf8.count == 3 { loneImageCandidates.append(index) }
            blocks.append(block)
            if entry.hasCells { Self.startTableIfFirstRow(&blocks) }
            if entry.block.kind.continuesDefinition { beginDefinitionIfNothingToContinue(&blocks, at: entry.continuesOffset) }
            if index > 0 { flattenCaptionWithoutTable(&blocks, at: index - 1, offset: pending[index - 1].objectOffset) }
        }
        if let last = blocks.indices.last { flattenCaptionWithoutTable(&blocks, at: last, offset: pending[last].objectOffset) }
        // An image alone in a paragraph is an IMG block, as every reader makes it: HTML and
        // Markdown cannot write the two apart, and each reads the paragraph back as the block.
        // After the walk, which may make a caption a paragraph; only the candidates are looked
        // at again (checked whole in the loop, each block was retained once more: 0.2% of reading).
        for index in loneImageCandidates {
            if let image = blocks[index].asLoneImage { blocks[index] = image }
        }
        var document = Document(blocks: blocks)
        // A start where the containers begin anyway says nothing, and is dropped.
        document.canonicalizeContainerStarts()
        if let first = scanner.firstReplacedNUL {
            let count = scanner.replacedNULs
            diagnostics.append(.warning("nul-character", "\(count) U+0000 character\(count == 1 ? "" : "s") (\\u0000) replaced with U+FFFD, as HTML and CommonMark readers replace them",
                                        at: location(first.offset, first.pointer)))
        }
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
    struct MemberWalk {
        var cursor = JSONScanner.ContainerCursor()
        // Each object's own keys, inline: one list shared by the objects being read was
        // copied on every append (6% of reading JSON), and scanned whole for every key, which
        // made an object of many keys quadratic.
        var keys = DistinctNames()
    }

    /// Enters the object at `pointer`; `walk` is a new one, made in place by the caller (made
    /// here and returned, its 256 bytes of keys were copied for every object).
    @inline(__always)
    mutating func enterMembers(_ walk: inout MemberWalk, of pointer: JSONPointer) throws(Failure) {
        walk.cursor = try scanner.enterObject(pointer)
    }

    /// The key of the next member of the object at `pointer`, the scanner at its value, or nil
    /// after the last. Repeated keys are reported; the last one wins.
    @inline(__always)
    mutating func nextMember(_ walk: inout MemberWalk, of pointer: JSONPointer) throws(Failure) -> String? {
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
    mutating func skipUnknown(_ key: String, _ member: JSONPointer, _ walk: borrowing MemberWalk) throws(Failure) {
        diagnostics.append(.warning("unknown-field", "unknown field '\(key)' ignored",
            at: location(walk.cursor.keyOffset, member)))
        try scanner.skipValue(member, maxDepth: options.maxNestingDepth)
    }

    /// One of a table row's cells: `start` and `end` required, `header`, `colspan`, `rowspan`
    /// and `align` optional.
    mutating func cell(pointer: JSONPointer) throws(Failure) -> PendingCell {
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

    mutating func markup(pointer: JSONPointer) throws(Failure) -> PendingMarkup {
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
    mutating func imageDimension(_ key: String, _ pointer: JSONPointer) throws(Failure) -> Int {
        let value = try scanner.integer(pointer)
        guard (0...Embed.maxDimension).contains(value) else {
            throw failure("invalid-value", "\(key) \(value) is outside 0...\(Embed.maxDimension)", pointer)
        }
        return value
    }

    mutating func boundedDepth(_ pointer: JSONPointer) throws(Failure) -> Int {
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
