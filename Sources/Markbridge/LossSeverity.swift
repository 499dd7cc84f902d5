import MarkbridgeDiff
import MarkbridgeIR

/// How much a loss matters to a migration, worst first: text changed or deleted, or a link,
/// image or embed lost (`content`); a list, table, quote, heading or depth reshaped
/// (`structure`); presentation such as colour, alignment or CSS gone (`style`); something
/// recognised with nothing a reader sees lost (`info`). Every diagnostic code and every class of
/// difference has exactly one (``LossClass/severity``); a ``LossGate`` decides by it.
public enum LossSeverity: String, CaseIterable, Comparable, Sendable {
    case content, structure, style, info

    private var rank: Int {
        switch self {
        case .info: 0
        case .style: 1
        case .structure: 2
        case .content: 3
        }
    }

    public static func < (a: LossSeverity, b: LossSeverity) -> Bool { a.rank < b.rank }
}

extension DiagnosticCodeName {
    /// How much what it reports matters. A code reported for several kinds takes its usual
    /// case; the classes of difference beside it say exactly what a block lost (a link dropped
    /// with a `markup-dropped` is also `markup LINK removed`, which is `content`).
    public var severity: LossSeverity {
        switch self {
        // Text changed or deleted, or a link, image or embed lost.
        case .blockDropped, .controlCharacterReplaced, .duplicateKey, .embedDropped, .embedHostRefused, .embedFlattened,
             .emptyLinkDropped, .inlineHTML, .invalidHTML, .invalidUTF8Replaced, .nulCharacter, .placeholderInURL, .unsafeURL:
            .content
        // The document's shape changed: depth, lists, tables, quotes, headings, in-page targets.
        case .anchorChanged, .anchorDropped, .definitionListSplit, .depthClamped, .depthLimit, .depthLowered, .detailsFlattened,
             .emptyItemMerged, .flattenedDefinitionList, .formControl, .headingSplit, .lineBreakDropped, .listNumberClamped, .listSplit,
             .tableCaptionFlattened, .tableCellFlattened, .tableFlattened, .tableTooWide, .taskFlattened:
            .structure
        // Presentation: colour, alignment, CSS, emphasis, an image's size, a code block's language, an element unwrapped.
        case .abbreviationExpanded, .alignmentDropped, .autolinkAdded, .codeSpanSplit, .listSpacingDropped, .droppedStyle, .emphasisDropped, .formattingLimit,
             .imageSizeDropped, .infoStringTruncated, .languageChanged, .markupDropped, .placeholderSplit, .unknownElement:
            .style
        // Recognised, nothing a reader sees is lost: opaque black as the default colour, colours
        // under another that hides them, Word's
        // list paragraphs as items, invisible elements and comments, markups merged or cut at
        // cells that cover the same text, a markup moved off whitespace at its edge (the class
        // beside it says whether the whitespace shows), fields the format gives no meaning.
        case .bidiInURL, .colorsResolved, .defaultColor, .droppedComment, .droppedElement, .emptyAlt, .emptyMarkup, .ignoredField, .markupRangeAdjusted,
             .markupSplitAtCells, .markupsMerged, .unknownField, .wordList:
            .info
        }
    }
}

extension MarkupKind.Tag {
    /// Whether whitespace under this kind shows: an underline, a strike, a background, a
    /// highlight, a link (underlined, clickable), a code span (its box) or an image does; bold,
    /// italic, a colour of the text or a raised or lowered space does not.
    package var showsWhitespace: Bool {
        switch self {
        case .underline, .strike, .background, .highlight, .link, .code, .image: true
        case .strong, .emphasis, .superscript, .subscript, .color, .hashtag, .mention: false
        }
    }

    /// The severity of this kind removed or added: a link, an image, a hashtag or a mention (what
    /// a reader follows or taps) is content, the rest presentation.
    package var lossSeverity: LossSeverity {
        switch self {
        case .link, .image, .hashtag, .mention: .content
        case .strong, .emphasis, .code, .strike, .underline, .superscript, .subscript, .highlight, .color, .background: .style
        }
    }
}

extension BlockAttribute {
    /// The severity of a change to it: where an embed or image points and its text alternative
    /// are content; the block's kind and its place among lists, quotes, tables and anchors are
    /// structure; a language, a size, an alignment or a title is presentation.
    package var lossSeverity: LossSeverity {
        switch self {
        case .embed, .src, .poster, .alt: .content
        case .type, .depth, .quoteDepth, .quoteListDepths, .containerStart, .number, .startsTable, .cells, .continues, .name, .task: .structure
        case .language, .width, .height, .align, .title: .style
        }
    }
}

extension MarkupAttribute {
    /// The severity of a change to it on a markup of kind `tag`: where a link or an image points
    /// and an image's text are content, as is the text a link or an image covers; a title, a
    /// colour, an image's size, or the text a formatting markup covers is presentation.
    package func lossSeverity(on tag: MarkupKind.Tag) -> LossSeverity {
        switch self {
        case .href, .src, .alt, .tag, .name: .content
        case .range: tag.lossSeverity
        case .title, .color, .width, .height: .style
        }
    }
}
