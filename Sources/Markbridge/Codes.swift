/// Every stable code Markbridge reports, as enums a service can switch over exhaustively: the
/// errors that stop a conversion (``ErrorCode``, carried by ``ConversionError``) and the
/// diagnostics that say what a conversion dropped or changed (``DiagnosticCodeName``, carried by
/// ``Diagnostic``). ``DiagnosticCode/all`` is built from them; a test scans the sources so that
/// the enums and the codes the sources raise cannot drift apart.

/// The code of a ``ConversionError``: why a conversion produced nothing.
public enum ErrorCode: String, CaseIterable, Hashable, Sendable {
    case cancelled
    case endBeforeStart = "end-before-start"
    case gfmUnavailable = "gfm-unavailable"
    case inputTooLarge = "input-too-large"
    case invalidDocument = "invalid-document"
    case invalidArgument = "invalid-argument"
    case invalidImageRange = "invalid-image-range"
    case invalidJSON = "invalid-json"
    case invalidPlaceholder = "invalid-placeholder"
    case invalidTableRow = "invalid-table-row"
    case invalidUTF8 = "invalid-utf8"
    case invalidValue = "invalid-value"
    case loneSurrogate = "lone-surrogate"
    case markdownTooComplex = "markdown-too-complex"
    case missingArgument = "missing-argument"
    case missingField = "missing-field"
    case negativeNumber = "negative-number"
    case notAnInteger = "not-an-integer"
    case notAnObject = "not-an-object"
    case notUTF8 = "not-utf8"
    case numberTooLarge = "number-too-large"
    case offsetOutOfRange = "offset-out-of-range"
    case offsetSplitsCharacter = "offset-splits-character"
    case outputCollision = "output-collision"
    case outputIsLink = "output-is-link"
    case overlappingLinks = "overlapping-links"
    case recordTooLarge = "record-too-large"
    case timeout
    case tooDeep = "too-deep"
    case unknownFormat = "unknown-format"
    case unknownOffsetUnit = "unknown-offset-unit"
    case unknownType = "unknown-type"
    case unsupportedVersion = "unsupported-version"
    case unreadable
    case unusedArgument = "unused-argument"
    case unwritable
    case wouldOverwriteInput = "would-overwrite-input"
    case wrongType = "wrong-type"

    /// What it means, in a line.
    public var summary: String {
        switch self {
        case .cancelled: "a conversion whose task was cancelled, stopped part way"
        case .endBeforeStart: "a markup JSON range ends before it starts"
        case .gfmUnavailable: "reading GFM needs cmark-gfm's libraries (apt-get install libcmark-gfm-extensions-dev), which are not installed"
        case .inputTooLarge: "the input is larger than the limit (ConversionLimits.maxInputBytes)"
        case .invalidDocument: "a document built by hand that no writer can write as our readers read it"
        case .invalidArgument: "a template value that is not the whole number its %d, %i or %u placeholder asks for"
        case .invalidImageRange: "a markup JSON IMAGE markup that does not cover exactly one U+FFFC"
        case .invalidJSON: "the input is not JSON"
        case .invalidPlaceholder: "a template's % that begins no supported placeholder, a position 0, or positional and sequential placeholders in one template"
        case .invalidTableRow: "a markup JSON TR whose cells do not cover its text, joined by ' | '"
        case .invalidUTF8: "the input is not valid UTF-8 (and repair was not asked for)"
        case .invalidValue: "a markup JSON field has a value outside what it allows"
        case .loneSurrogate: "a JSON string escapes half of a surrogate pair"
        case .markdownTooComplex: "Markdown whose shape would take cmark quadratic time"
        case .missingArgument: "a template placeholder with no value given for it"
        case .missingField: "a markup JSON object lacks a required field"
        case .negativeNumber: "a markup JSON count or offset is negative"
        case .notAnInteger: "a markup JSON number that must be whole is not"
        case .notAnObject: "a batch line that is JSON but not an object"
        case .notUTF8: "the input declares or is in an encoding other than UTF-8"
        case .numberTooLarge: "a markup JSON number does not fit"
        case .offsetOutOfRange: "a markup JSON offset is past the end of its text"
        case .offsetSplitsCharacter: "a markup JSON offset falls inside a character's encoding"
        case .outputCollision: "a batch directory run would write two inputs to one output path"
        case .outputIsLink: "a batch directory run would write through a symbolic link inside the output tree"
        case .overlappingLinks: "two markup JSON links cover the same text"
        case .recordTooLarge: "a batch record over --max-record-bytes"
        case .timeout: "a conversion ran past ConversionOptions.timeLimit or a bound deadline (a batch record past --timeout-per-record), and stopped"
        case .tooDeep: "JSON nested deeper than the limit"
        case .unknownFormat: "a format name no registry entry has"
        case .unknownOffsetUnit: "markup JSON offsetUnit is not utf16, scalar or utf8"
        case .unknownType: "an unknown markup JSON block or markup type"
        case .unsupportedVersion: "a markup JSON version other than 1"
        case .unreadable: "a batch directory run cannot read one input file"
        case .unusedArgument: "a template value that no placeholder takes"
        case .unwritable: "a batch directory run cannot write one output file (for that file's own reason, not a full disk)"
        case .wouldOverwriteInput: "a batch directory run's output would replace a file of the input tree"
        case .wrongType: "a markup JSON field of the wrong JSON type"
        }
    }

    /// What kind of outcome it is, for a service to map to a status.
    public var category: DiagnosticCode.Category {
        switch self {
        case .cancelled, .timeout:
            .stopped
        case .endBeforeStart, .invalidArgument, .invalidDocument, .invalidImageRange, .invalidJSON, .invalidPlaceholder, .invalidTableRow, .invalidUTF8, .invalidValue, .loneSurrogate, .missingArgument, .missingField, .negativeNumber, .notAnInteger, .notAnObject, .notUTF8, .offsetOutOfRange, .offsetSplitsCharacter, .overlappingLinks, .unknownFormat, .unknownOffsetUnit, .unknownType, .unsupportedVersion, .unusedArgument, .wrongType:
            .badInput
        case .inputTooLarge, .markdownTooComplex, .numberTooLarge, .recordTooLarge, .tooDeep:
            .overLimit
        case .outputCollision, .outputIsLink, .wouldOverwriteInput:
            .refusedByPolicy
        case .gfmUnavailable, .unreadable, .unwritable:
            .unavailable
        }
    }
}

/// The code of a ``Diagnostic``: what a conversion dropped, changed or had to limit.
public enum DiagnosticCodeName: String, CaseIterable, Hashable, Sendable {
    case abbreviationExpanded = "abbreviation-expanded"
    case alignmentDropped = "alignment-dropped"
    case anchorChanged = "anchor-changed"
    case anchorDropped = "anchor-dropped"
    case autolinkAdded = "autolink-added"
    case bidiInURL = "bidi-in-url"
    case blockDropped = "block-dropped"
    case codeSpanSplit = "code-span-split"
    case colorsResolved = "colors-resolved"
    case controlCharacterReplaced = "control-character-replaced"
    case defaultColor = "default-color"
    case definitionListSplit = "definition-list-split"
    case depthClamped = "depth-clamped"
    case depthLimit = "depth-limit"
    case depthLowered = "depth-lowered"
    case detailsFlattened = "details-flattened"
    case droppedComment = "dropped-comment"
    case droppedElement = "dropped-element"
    case droppedStyle = "dropped-style"
    case duplicateKey = "duplicate-key"
    case embedDropped = "embed-dropped"
    case embedHostRefused = "embed-host-refused"
    case embedFlattened = "embed-flattened"
    case emphasisDropped = "emphasis-dropped"
    case emptyAlt = "empty-alt"
    case emptyItemMerged = "empty-item-merged"
    case emptyLinkDropped = "empty-link-dropped"
    case emptyMarkup = "empty-markup"
    case flattenedDefinitionList = "flattened-definition-list"
    case formControl = "form-control"
    case formattingLimit = "formatting-limit"
    case headingSplit = "heading-split"
    case ignoredField = "ignored-field"
    case imageSizeDropped = "image-size-dropped"
    case infoStringTruncated = "info-string-truncated"
    case inlineHTML = "inline-html"
    case invalidHTML = "invalid-html"
    case invalidUTF8Replaced = "invalid-utf8-replaced"
    case languageChanged = "language-changed"
    case lineBreakDropped = "line-break-dropped"
    case listNumberClamped = "list-number-clamped"
    case listSpacingDropped = "list-spacing-dropped"
    case listSplit = "list-split"
    case markupDropped = "markup-dropped"
    case markupRangeAdjusted = "markup-range-adjusted"
    case markupSplitAtCells = "markup-split-at-cells"
    case markupsMerged = "markups-merged"
    case nulCharacter = "nul-character"
    case placeholderInURL = "placeholder-in-url"
    case placeholderSplit = "placeholder-split"
    case tableCaptionFlattened = "table-caption-flattened"
    case tableCellFlattened = "table-cell-flattened"
    case tableFlattened = "table-flattened"
    case tableTooWide = "table-too-wide"
    case taskFlattened = "task-flattened"
    case unknownElement = "unknown-element"
    case unknownField = "unknown-field"
    case unsafeURL = "unsafe-url"
    case wordList = "word-list"

    /// What it means, in a line.
    public var summary: String {
        switch self {
        case .abbreviationExpanded: "an <abbr> title written after its text in parentheses (or dropped where the abbreviation shows no text)"
        case .alignmentDropped: "alignment Markdown without HTML cannot say"
        case .anchorChanged: "a markup JSON paragraph name with what an anchor may not hold, kept without it"
        case .anchorDropped: "an id (an in-page link's target) with no block to begin, or that Markdown without HTML cannot say"
        case .autolinkAdded: "an e-mail address in text that GitHub Flavored Markdown without HTML cannot keep from reading back as a link"
        case .bidiInURL: "a link, image or embed URL holding a bidirectional control (U+202E and its kin), kept and flagged: it can display as another address"
        case .blockDropped: "a block Markdown without HTML cannot say (an empty paragraph, a caption)"
        case .codeSpanSplit: "a code span with a line break, written without HTML as one span a line"
        case .colorsResolved: "overlapping markup JSON COLOR markups: over the text they share only the innermost kept, the colour a page shows"
        case .controlCharacterReplaced: "a control character no output may carry, replaced"
        case .defaultColor: "opaque black text read as the default colour, not a COLOR"
        case .definitionListSplit: "a list, quote, table or code block inside <dt> or <dd>, read after it, ending the definition list there"
        case .depthClamped: "lists and quotes nested past the IR's 100 levels kept at level 100"
        case .depthLimit: "HTML nested past the parser's limit, flattened into the element at it"
        case .depthLowered: "a markup JSON block deeper than the list items before it, kept at the deepest depth they allow"
        case .detailsFlattened: "<details> shown open"
        case .droppedComment: "HTML comments dropped"
        case .droppedElement: "an HTML element dropped with its content (script, style, a source-less embed)"
        case .droppedStyle: "CSS or presentational HTML the IR has no place for"
        case .duplicateKey: "a JSON key given twice; the last one wins (a batch record with its --field, --into or --id-field twice is a dead letter)"
        case .embedDropped: "an embed written without HTML as a link to its source"
        case .embedHostRefused: "an embed from a relative source or a host not on the allowlist, written as a link"
        case .embedFlattened: "an embed where only text can be, written as a link to its source"
        case .emphasisDropped: "emphasis Markdown without HTML cannot write where it is"
        case .emptyAlt: "an empty alt text, which Markdown writes as none"
        case .emptyItemMerged: "an empty list item's first paragraph or image, which HTML and Markdown read back as the item's own text"
        case .emptyLinkDropped: "a link with no text (<a href></a>, [](url)), which an empty range cannot hold, dropped"
        case .emptyMarkup: "an empty markup JSON range, dropped"
        case .flattenedDefinitionList: "a definition list written without HTML as paragraphs"
        case .formControl: "form controls kept as their visible text"
        case .formattingLimit: "formatting elements past the HTML parser's limit"
        case .headingSplit: "a heading holding a list, quote, table or code block, read as headings around those blocks"
        case .ignoredField: "a markup JSON field that does not apply to its type"
        case .imageSizeDropped: "an image's width and height, which Markdown without HTML cannot say"
        case .infoStringTruncated: "a code fence's info string kept as its first word"
        case .inlineHTML: "inline HTML in Markdown that the reader could not use"
        case .invalidHTML: "an HTML block in Markdown that could not be read"
        case .invalidUTF8Replaced: "invalid UTF-8 replaced with U+FFFD, as asked"
        case .languageChanged: "a code block language kept as its first word"
        case .lineBreakDropped: "a line break Markdown without HTML cannot write"
        case .listNumberClamped: "a list number outside 0...999,999,999 moved to the nearest end"
        case .listSpacingDropped: "a Markdown list loose only by blank lines between its items, read (and written) as tight"
        case .listSplit: "an ordered item numbered out of turn, which Markdown writes as a list of its own"
        case .markupDropped: "a markup Markdown without HTML cannot write"
        case .markupRangeAdjusted: "a markup edge on whitespace, which Markdown cannot mark, moved"
        case .markupSplitAtCells: "a markup JSON markup across a table cell's edge, cut there"
        case .markupsMerged: "touching or overlapping equal markup JSON markups merged"
        case .nulCharacter: "a NUL character (in HTML, plain text, or a markup JSON \\u0000 escape) read as U+FFFD"
        case .placeholderInURL: "a template's {name} in a link or image URL, kept as written: values never enter URLs"
        case .placeholderSplit: "a markup over part of a template's placeholder, which leaves the value out"
        case .tableCaptionFlattened: "a table caption with no table right after it, or Markdown without HTML, read or written as a paragraph"
        case .tableCellFlattened: "blocks inside a table cell written as lines of its text"
        case .tableFlattened: "a table written without HTML as a paragraph a row"
        case .tableTooWide: "a GFM table of over 1,000 columns read as text (cmark-gfm takes quadratic time on it)"
        case .taskFlattened: "a task list item's state that Markdown without HTML cannot say, written as the text [ ] or [x] (or dropped from an HTML block)"
        case .unknownElement: "an HTML element with no rule, unwrapped or dropped"
        case .unknownField: "an unknown markup JSON field, ignored"
        case .unsafeURL: "a URL the policy refuses, dropped (the text kept)"
        case .wordList: "Microsoft Word list paragraphs read as list items"
        }
    }

    /// What kind of outcome it is, for a service to map to a status.
    public var category: DiagnosticCode.Category {
        switch self {
        case .abbreviationExpanded, .alignmentDropped, .anchorChanged, .anchorDropped, .autolinkAdded, .blockDropped, .codeSpanSplit, .colorsResolved, .controlCharacterReplaced, .defaultColor, .definitionListSplit, .depthLowered, .detailsFlattened, .droppedComment, .droppedElement, .droppedStyle, .duplicateKey, .embedDropped, .embedFlattened, .emphasisDropped, .emptyAlt, .emptyItemMerged, .emptyLinkDropped, .emptyMarkup, .flattenedDefinitionList, .formControl, .headingSplit, .ignoredField, .imageSizeDropped, .inlineHTML, .invalidHTML, .invalidUTF8Replaced, .languageChanged, .lineBreakDropped, .listSpacingDropped, .listSplit, .markupDropped, .markupRangeAdjusted, .markupSplitAtCells, .markupsMerged, .nulCharacter, .placeholderSplit, .tableCaptionFlattened, .tableCellFlattened, .tableFlattened, .taskFlattened, .unknownElement, .unknownField, .wordList:
            .loss
        case .tableTooWide, .depthClamped, .depthLimit, .formattingLimit, .infoStringTruncated, .listNumberClamped:
            .overLimit
        case .bidiInURL, .embedHostRefused, .placeholderInURL, .unsafeURL:
            .refusedByPolicy
        }
    }
}

extension ConversionError {
    /// The code as a value to switch over; nil only for a code Markbridge does not have (a
    /// reader of a format registered by the caller may throw its own).
    public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }

    /// What kind of failure it is: a caller's own codes count as bad input.
    public var category: DiagnosticCode.Category { errorCode?.category ?? .badInput }
}

extension Diagnostic {
    /// The code as a value to switch over; nil only for a code Markbridge does not have.
    public var codeName: DiagnosticCodeName? { DiagnosticCodeName(rawValue: code) }

    /// What kind of outcome it reports: a caller's own codes count as loss.
    public var category: DiagnosticCode.Category { codeName?.category ?? .loss }
}
