@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The character-data states: data, RCDATA, RAWTEXT, script data (with its escaped states),
/// PLAINTEXT and CDATA sections.
extension HTMLTokenizer {
    /// Runs one step of the state machine.
    mutating func step() {
        switch state {
        case .data: dataState()
        case .rcdata: rcdataState()
        case .rawtext: rawtextState()
        case .scriptData: scriptDataState()
        case .plaintext: plaintextState()
        case .rcdataLessThanSign, .rawtextLessThanSign, .scriptDataLessThanSign,
             .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen,
             .rcdataEndTagName, .rawtextEndTagName, .scriptDataEndTagName:
            textEndTagStates()
        case .scriptDataEscapeStart, .scriptDataEscapeStartDash, .scriptDataEscaped, .scriptDataEscapedDash,
             .scriptDataEscapedDashDash, .scriptDataEscapedLessThanSign, .scriptDataEscapedEndTagOpen,
             .scriptDataEscapedEndTagName, .scriptDataDoubleEscapeStart, .scriptDataDoubleEscaped,
             .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash,
             .scriptDataDoubleEscapedLessThanSign, .scriptDataDoubleEscapeEnd:
            scriptEscapeStates()
        case .cdataSection, .cdataSectionBracket, .cdataSectionEnd:
            cdataStates()
        case .tagOpen, .endTagOpen, .tagName, .beforeAttributeName, .attributeName, .afterAttributeName,
             .beforeAttributeValue, .attributeValueDoubleQuoted, .attributeValueSingleQuoted,
             .attributeValueUnquoted, .afterAttributeValueQuoted, .selfClosingStartTag:
            tagStates()
        default:
            markupStates()
        }
    }

    /// Appends the run of ordinary bytes at `position` (none of `stops`) to the characters.
    @inline(__always)
    private mutating func emitRun(stoppingAt a: UInt8, _ b: UInt8, _ c: UInt8) {
        let start = position
        let stopA = SIMD16<UInt8>(repeating: a), stopB = SIMD16<UInt8>(repeating: b), stopC = SIMD16<UInt8>(repeating: c)
        position = ByteScan.firstIndex(in: input.span, from: start,
                                       whereBlock: { ($0 .== stopA) .| ($0 .== stopB) .| ($0 .== stopC) },
                                       whereByte: { $0 == a || $0 == b || $0 == c }) ?? input.count
        if position > start {
            if !hasPendingCharacters { markCharactersStart(start) }
            appendCharacters(start..<position)
        }
    }

    /// The data and RCDATA states differ only in where `<` leads and what U+0000 becomes.
    private mutating func dataState() {
        textWithReferences(lessThanState: .tagOpen, keepsNull: true)
    }

    private mutating func rcdataState() {
        textWithReferences(lessThanState: .rcdataLessThanSign, keepsNull: false)
    }

    private mutating func textWithReferences(lessThanState: State, keepsNull: Bool) {
        emitRun(stoppingAt: UInt8(ascii: "<"), UInt8(ascii: "&"), 0)
        switch current {
        case -1: emitEndOfFile()
        case 0x3C:
            markTokenStart(position)
            position += 1
            state = lessThanState
        case 0x26:
            position += 1
            consumeCharacterReference(inAttribute: false)
        default:
            // U+0000: in data a parse error emitted as is (tree construction deals with it);
            // in RCDATA it becomes U+FFFD.
            if keepsNull { emitCharacter(0) } else { emitReplacementCharacter() }
            position += 1
        }
    }

    private mutating func rawtextState() {
        emitRun(stoppingAt: UInt8(ascii: "<"), 0, 0)
        switch current {
        case -1: emitEndOfFile()
        case 0x3C:
            markTokenStart(position)
            position += 1
            state = state == .rawtext ? .rawtextLessThanSign : .scriptDataLessThanSign
        default:
            emitReplacementCharacter()
            position += 1
        }
    }

    private mutating func scriptDataState() {
        rawtextState()
    }

    private mutating func plaintextState() {
        emitRun(stoppingAt: 0, 0, 0)
        if current == -1 {
            emitEndOfFile()
        } else {
            emitReplacementCharacter()
            position += 1
        }
    }

    /// The `<`, `</` and end-tag-name states of RCDATA, RAWTEXT and script data: only an
    /// appropriate end tag leaves the text; anything else is text.
    private mutating func textEndTagStates() {
        let c = current
        let text: State
        switch state {
        case .rcdataLessThanSign, .rcdataEndTagOpen, .rcdataEndTagName: text = .rcdata
        case .rawtextLessThanSign, .rawtextEndTagOpen, .rawtextEndTagName: text = .rawtext
        default: text = .scriptData
        }
        switch state {
        case .rcdataLessThanSign, .rawtextLessThanSign, .scriptDataLessThanSign:
            if c == UInt8(ascii: "/") {
                clearTemporaryBuffer()
                position += 1
                state = text == .rcdata ? .rcdataEndTagOpen : text == .rawtext ? .rawtextEndTagOpen : .scriptDataEndTagOpen
            } else if text == .scriptData && c == UInt8(ascii: "!") {
                position += 1
                state = .scriptDataEscapeStart
                emitCharacters([0x3C, 0x21])
            } else {
                emitCharacter(0x3C)
                state = text
            }
        case .rcdataEndTagOpen, .rawtextEndTagOpen, .scriptDataEndTagOpen:
            if Self.isAlpha(c) {
                startTag(isEnd: true)
                state = text == .rcdata ? .rcdataEndTagName : text == .rawtext ? .rawtextEndTagName : .scriptDataEndTagName
            } else {
                emitCharacters([0x3C, 0x2F])
                state = text
            }
        default:
            endTagName(returningTo: text)
        }
    }

    /// The shared "end tag name" states: an appropriate end tag becomes a tag; else it is text.
    mutating func endTagName(returningTo text: State) {
        let c = current
        if Self.isWhitespace(c) && isAppropriateEndTag {
            position += 1
            state = .beforeAttributeName
        } else if c == UInt8(ascii: "/") && isAppropriateEndTag {
            position += 1
            state = .selfClosingStartTag
        } else if c == UInt8(ascii: ">") && isAppropriateEndTag {
            position += 1
            state = .data
            emitTag()
        } else if Self.isAlpha(c) {
            appendToTagName(UInt8(c))
            appendToTemporaryBuffer(UInt8(c))
            position += 1
        } else {
            emitCharacters([0x3C, 0x2F])
            emitTemporaryBuffer()
            state = text
        }
    }

    private mutating func cdataStates() {
        let c = current
        switch state {
        case .cdataSection:
            emitRun(stoppingAt: UInt8(ascii: "]"), UInt8(ascii: "]"), UInt8(ascii: "]"))
            if current == -1 {
                emitEndOfFile()
            } else {
                position += 1
                state = .cdataSectionBracket
            }
        case .cdataSectionBracket:
            if c == UInt8(ascii: "]") {
                position += 1
                state = .cdataSectionEnd
            } else {
                emitCharacter(0x5D)
                state = .cdataSection
            }
        default:
            if c == UInt8(ascii: "]") {
                position += 1
                emitCharacter(0x5D)
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
            } else {
                emitCharacters([0x5D, 0x5D])
                state = .cdataSection
            }
        }
    }
}
