import Foundation
import MarkbridgeIR
import MarkbridgeJSON

/// Writes a document as Foundation's `AttributedString`, with the attributes of
/// ``Foundation/AttributeScopes/MarkbridgeAttributes``: what a native client shows without an
/// HTML engine, made on any thread (a value, no global state), in place of
/// `NSAttributedString(data:options:[.documentType: .html])`, which must run on the main thread.
///
/// The string is the blocks' text in order, each block's followed by `"\n"` but the last's:
/// the separator carries the block attributes of the block before it (as a paragraph's
/// newline does in `NSAttributedString`), no inline ones. A last block without text (a rule,
/// an empty paragraph) keeps its `"\n"`, so that its attributes are somewhere. An image block
/// is a U+FFFC carrying its ``ImageSource`` (and Foundation's `imageURL`), then its caption;
/// a table row is its cells' text joined by `" | "`, as ``TableRow`` has it, each cell's text
/// carrying its index; an empty quote (an empty ``BlockKind/blockquote`` standing for one) has
/// no text. On Apple platforms Foundation's `inlinePresentationIntent` and
/// `presentationIntent` are set too (they are not in swift-corelibs-foundation).
///
/// Built on the public walks a service's own renderer would use: ``Document/blockEvents`` for
/// blocks and ``Block/inlineRuns(in:)`` for their inline content.
@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
public struct AttributedStringWriter: Sendable {
    public init() {}

    /// The document as an `AttributedString`. Throws only `timeout` or `cancelled`, past the
    /// deadline of ``ConversionDeadline/current`` or when the task is cancelled (looked at
    /// every 64 blocks).
    public func write(_ document: Document) throws(ConversionError) -> AttributedString {
        var builder = AttributedStringBuilder(document)
        var countdown = DeadlineCountdown(every: 64)
        for event in document.blockEvents {
            if case .exit(.block) = event, countdown.shouldStop() { break }
            builder.take(event)
        }
        try ConversionDeadline.check()
        return builder.finish()
    }

    /// Markup JSON read (by `reader`) and written as an `AttributedString`, with the reader's
    /// diagnostics; the reader's errors are thrown.
    public func write(markupJSON bytes: [UInt8], reader: MarkupJSONReader = MarkupJSONReader()) throws(ConversionError) -> Diagnosed<AttributedString> {
        let read = try reader.read(bytes)
        return Diagnosed(try write(read.value), diagnostics: read.diagnostics)
    }
}

/// The state of one write: the string so far and what the events say is open.
@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
struct AttributedStringBuilder {
    private let blocks: [Block]
    private var result = AttributedString()
    /// The block attributes of the block written last, for the separator before the next.
    private var separator: AttributeContainer?
    /// Whether the block written last had no text.
    private var lastWasEmpty = false
    /// In a table row: where its previous cell ended, for the `" | "` before the next.
    private var cellEnd = 0
    #if canImport(Darwin)
    private var intents = PresentationIntents()
    #endif

    init(_ document: Document) {
        blocks = document.blocks
    }

    mutating func take(_ event: BlockEvent) {
        #if canImport(Darwin)
        intents.take(event, blocks: blocks)
        #endif
        switch event {
        case .enter(.block(let index)):
            let block = blocks[index]
            var attributes = begin(block, index: index)
            switch block.kind {
            case .image(let image):
                // The image, then its caption.
                var imageAttributes = attributes
                Self.setImage(image, on: &imageAttributes)
                result.append(AttributedString("\u{FFFC}", attributes: imageAttributes))
                lastWasEmpty = false
                append(block.inlineRuns(), of: block, attributes: &attributes)
            case .tableRow:
                // A row comes as its cells (`.tableRow`, `.tableCell`), never as a block.
                break
            case .paragraph, .heading, .blockquote, .codeBlock, .unorderedListItem, .orderedListItem, .embed, .tableCaption,
                 .definitionTerm, .definitionDescription, .horizontalRule:
                append(block.inlineRuns(), of: block, attributes: &attributes)
            }
        case .enter(.tableRow(let index)):
            _ = begin(blocks[index], index: index)
            cellEnd = 0
        case .enter(.tableCell(let index, let cell)):
            let block = blocks[index]
            var attributes = Self.blockAttributes(block, index: index)
            guard cell < block.tableCells.count else { return }
            let range = block.tableCells[cell].range
            // The `" | "` before the cell, the block's alone.
            if range.start > cellEnd {
                append(block.inlineRuns(in: TextRange(start: cellEnd, end: range.start)), of: block, attributes: &attributes)
            }
            cellEnd = max(cellEnd, range.end)
            attributes.markbridge.tableCell = cell
            #if canImport(Darwin)
            attributes.presentationIntent = intents.current
            #endif
            append(block.inlineRuns(in: range), of: block, attributes: &attributes)
        case .enter(.quote), .enter(.unorderedList), .enter(.orderedList), .enter(.listItem), .enter(.table), .enter(.definitionList):
            break
        case .exit:
            break
        }
    }

    /// The string, with its last separator when the last block has no text.
    mutating func finish() -> AttributedString {
        if lastWasEmpty, let separator { result.append(AttributedString("\n", attributes: separator)) }
        return result
    }

    /// Writes the separator after the block before, and returns `block`'s attributes.
    private mutating func begin(_ block: Block, index: Int) -> AttributeContainer {
        if let separator { result.append(AttributedString("\n", attributes: separator)) }
        var attributes = Self.blockAttributes(block, index: index)
        #if canImport(Darwin)
        attributes.presentationIntent = intents.current
        #endif
        separator = attributes
        lastWasEmpty = true
        return attributes
    }

    private mutating func append(_ runs: [InlineRun], of block: Block, attributes: inout AttributeContainer) {
        for run in runs {
            var container = attributes
            for markup in run.markups { Self.set(markup.kind, on: &container) }
            result.append(AttributedString(run.text, attributes: container))
            lastWasEmpty = false
        }
    }

    static func blockAttributes(_ block: Block, index: Int) -> AttributeContainer {
        var attributes = AttributeContainer()
        attributes.markbridge.blockKind = block.kind.tag
        attributes.markbridge.blockIndex = index
        attributes.markbridge.depth = block.depth
        attributes.markbridge.quoteDepth = block.quoteDepth
        if let alignment = block.alignment { attributes.markbridge.alignment = alignment }
        return attributes
    }

    /// One markup's attribute; of two of a kind over one run (two colors), the inner one holds.
    static func set(_ kind: MarkupKind, on attributes: inout AttributeContainer) {
        switch kind {
        case .strong: attributes.markbridge.strong = true
        case .emphasis: attributes.markbridge.emphasis = true
        case .code: attributes.markbridge.code = true
        case .strike: attributes.markbridge.strikethrough = true
        case .underline: attributes.markbridge.underline = true
        case .superscript: attributes.markbridge.superscript = true
        case .subscript: attributes.markbridge.subscript = true
        case .highlight: attributes.markbridge.highlight = true
        case .link(let target):
            attributes.markbridge.linkHref = target.href
            if let url = URL(string: target.href) { attributes.link = url }
        case .color(let color): attributes.markbridge.textColor = color.hex
        case .background(let color): attributes.markbridge.backgroundColor = color.hex
        case .image(let image): setImage(image, on: &attributes)
        case .hashtag(let tag): attributes.markbridge.hashtag = tag
        case .mention(let name): attributes.markbridge.mention = name
        }
        #if canImport(Darwin)
        PresentationIntents.setInline(kind, on: &attributes)
        #endif
    }

    static func setImage(_ image: ImageSource, on attributes: inout AttributeContainer) {
        attributes.markbridge.image = image
        if let url = URL(string: image.src) { attributes.imageURL = url }
    }
}
