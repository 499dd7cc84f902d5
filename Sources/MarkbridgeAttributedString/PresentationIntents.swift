#if canImport(Darwin)
import Foundation
import MarkbridgeIR

/// Foundation's presentation intents, as Apple's Markdown parser sets them, kept from the block
/// events: the blocks open around the block being written, each with an identity of its own.
/// Not in swift-corelibs-foundation, hence Apple platforms only.
@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
struct PresentationIntents {
    /// The open nodes, outermost first: nil for one that has no intent (a definition list).
    private var open: [(kind: PresentationIntent.Kind, identity: Int)?] = []
    /// For each open node, how many items or rows it has had.
    private var counts: [Int] = []
    private var lastIdentity = 0
    /// The last block entered, to find the rows of a table that begins after it.
    private var lastBlock = -1
    /// The intent of the block or cell being written.
    private(set) var current: PresentationIntent?

    mutating func take(_ event: BlockEvent, blocks: [Block]) {
        switch event {
        case .enter(let node):
            let kind: PresentationIntent.Kind?
            switch node {
            case .quote: kind = .blockQuote
            case .unorderedList: kind = .unorderedList
            case .orderedList: kind = .orderedList
            case .listItem(let block):
                var ordinal = (counts.last ?? 0) + 1
                if let block, case .orderedListItem(let number) = blocks[block].kind { ordinal = number }
                kind = .listItem(ordinal: ordinal)
            case .table:
                // Its columns: the most cells of a row among its rows, which begin at the next row or caption.
                var first = lastBlock + 1
                while first < blocks.count, blocks[first].tableCells.isEmpty, blocks[first].kind != .tableCaption { first += 1 }
                if first < blocks.count, blocks[first].kind == .tableCaption { first += 1 }
                var columns = 0
                if first < blocks.count {
                    for row in blocks[first..<blocks.endOfTable(startingAt: first)] { columns = max(columns, row.tableCells.count) }
                }
                kind = .table(columns: Array(repeating: PresentationIntent.TableColumn(alignment: .left), count: columns))
            case .tableRow(let block):
                lastBlock = block
                let cells = blocks[block].tableCells
                kind = !cells.isEmpty && cells.allSatisfy(\.isHeader) ? .tableHeaderRow : .tableRow(rowIndex: counts.last ?? 0)
            case .tableCell(_, let cell): kind = .tableCell(columnIndex: cell)
            case .definitionList: kind = nil
            case .block(let index):
                lastBlock = index
                switch blocks[index].kind {
                case .heading(let level): kind = .header(level: level)
                case .codeBlock(let language): kind = .codeBlock(languageHint: language)
                case .horizontalRule: kind = .thematicBreak
                case .paragraph, .blockquote, .unorderedListItem, .orderedListItem, .image, .embed, .tableRow, .tableCaption,
                     .definitionTerm, .definitionDescription:
                    kind = .paragraph
                }
            }
            if !counts.isEmpty { counts[counts.count - 1] += 1 }
            lastIdentity += 1
            open.append(kind.map { ($0, lastIdentity) })
            counts.append(0)
            switch node {
            case .block, .tableRow, .tableCell: current = intent()
            case .quote, .unorderedList, .orderedList, .listItem, .table, .definitionList: break
            }
        case .exit:
            open.removeLast()
            counts.removeLast()
        }
    }

    /// The intent of the innermost open node, its parents the nodes around it.
    private func intent() -> PresentationIntent? {
        var intent: PresentationIntent?
        for case let node? in open { intent = PresentationIntent(node.kind, identity: node.identity, parent: intent) }
        return intent
    }

    /// The inline intent of a markup, added to those already set.
    static func setInline(_ kind: MarkupKind, on attributes: inout AttributeContainer) {
        let intent: InlinePresentationIntent
        switch kind {
        case .strong: intent = .stronglyEmphasized
        case .emphasis: intent = .emphasized
        case .code: intent = .code
        case .strike: intent = .strikethrough
        case .link, .underline, .superscript, .subscript, .highlight, .color, .background, .image, .hashtag, .mention: return
        }
        attributes.inlinePresentationIntent = (attributes.inlinePresentationIntent ?? []).union(intent)
    }
}
#endif
