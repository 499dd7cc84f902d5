/// Tag open, tag name, and the attribute states.
extension HTMLTokenizer {
    mutating func tagStates() {
        let c = current
        switch state {
        case .tagOpen:
            if c == UInt8(ascii: "!") {
                position += 1
                state = .markupDeclarationOpen
            } else if c == UInt8(ascii: "/") {
                position += 1
                state = .endTagOpen
            } else if Self.isAlpha(c) {
                startTag(isEnd: false)
                state = .tagName
            } else if c == UInt8(ascii: "?") {
                startComment()
                state = .bogusComment
            } else if c == -1 {
                emitCharacter(0x3C)
                emitEndOfFile()
            } else {
                emitCharacter(0x3C)
                state = .data
            }
        case .endTagOpen:
            if Self.isAlpha(c) {
                startTag(isEnd: true)
                state = .tagName
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
            } else if c == -1 {
                emitCharacters([0x3C, 0x2F])
                emitEndOfFile()
            } else {
                startComment()
                state = .bogusComment
            }
        case .tagName:
            tagNameState()
        case .beforeAttributeName:
            if Self.isWhitespace(c) {
                position += 1
            } else if c == UInt8(ascii: "/") || c == UInt8(ascii: ">") || c == -1 {
                state = .afterAttributeName
            } else if c == UInt8(ascii: "=") {
                position += 1
                startAttribute()
                appendToAttributeName(0x3D)
                state = .attributeName
            } else {
                startAttribute()
                state = .attributeName
            }
        case .attributeName:
            attributeNameState()
        case .afterAttributeName:
            if Self.isWhitespace(c) {
                position += 1
            } else if c == UInt8(ascii: "/") {
                position += 1
                state = .selfClosingStartTag
            } else if c == UInt8(ascii: "=") {
                position += 1
                state = .beforeAttributeValue
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitTag()
            } else if c == -1 {
                emitEndOfFile()
            } else {
                startAttribute()
                state = .attributeName
            }
        case .beforeAttributeValue:
            if Self.isWhitespace(c) {
                position += 1
            } else if c == UInt8(ascii: "\"") {
                position += 1
                state = .attributeValueDoubleQuoted
            } else if c == UInt8(ascii: "'") {
                position += 1
                state = .attributeValueSingleQuoted
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitTag()
            } else {
                state = .attributeValueUnquoted
            }
        case .attributeValueDoubleQuoted, .attributeValueSingleQuoted:
            quotedAttributeValueState(quote: state == .attributeValueDoubleQuoted ? 0x22 : 0x27)
        case .attributeValueUnquoted:
            if Self.isWhitespace(c) {
                position += 1
                state = .beforeAttributeName
            } else if c == UInt8(ascii: "&") {
                position += 1
                consumeCharacterReference(inAttribute: true)
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitTag()
            } else if c == 0 {
                position += 1
                appendToAttributeValue(Self.replacementCharacter)
            } else if c == -1 {
                emitEndOfFile()
            } else {
                position += 1
                appendToAttributeValue(UInt8(c))
            }
        case .afterAttributeValueQuoted:
            if Self.isWhitespace(c) {
                position += 1
                state = .beforeAttributeName
            } else if c == UInt8(ascii: "/") {
                position += 1
                state = .selfClosingStartTag
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitTag()
            } else if c == -1 {
                emitEndOfFile()
            } else {
                state = .beforeAttributeName
            }
        case .selfClosingStartTag:
            if c == UInt8(ascii: ">") {
                position += 1
                setSelfClosing()
                state = .data
                emitTag()
            } else if c == -1 {
                emitEndOfFile()
            } else {
                state = .beforeAttributeName
            }
        default:
            break
        }
    }

    private mutating func tagNameState() {
        // The common case, a run of lower-case letters and digits, appended in one piece.
        let start = position
        while position < input.count {
            let byte = input[position]
            guard (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else { break }
            position += 1
        }
        if position > start { appendToTagName(start..<position) }
        while position < input.count {
            let byte = input[position]
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x20:
                position += 1
                state = .beforeAttributeName
                return
            case 0x2F:
                position += 1
                state = .selfClosingStartTag
                return
            case 0x3E:
                position += 1
                state = .data
                emitTag()
                return
            case 0:
                position += 1
                appendReplacementToTagName()
            default:
                position += 1
                appendToTagName(byte)
            }
        }
        emitEndOfFile()
    }

    private mutating func attributeNameState() {
        while position < input.count {
            let byte = input[position]
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x20, 0x2F, 0x3E:
                checkDuplicateAttribute()
                state = .afterAttributeName
                return
            case 0x3D:
                position += 1
                checkDuplicateAttribute()
                state = .beforeAttributeValue
                return
            case 0:
                position += 1
                appendToAttributeName(Self.replacementCharacter)
            default:
                position += 1
                appendToAttributeName(byte)
            }
        }
        checkDuplicateAttribute()
        state = .afterAttributeName
    }

    private mutating func quotedAttributeValueState(quote: UInt8) {
        let start = position
        while position < input.count {
            let byte = input[position]
            if byte == quote || byte == UInt8(ascii: "&") || byte == 0 { break }
            position += 1
        }
        if position > start { appendToAttributeValue(input[start..<position]) }
        switch current {
        case -1:
            emitEndOfFile()
        case 0x26:
            position += 1
            consumeCharacterReference(inAttribute: true)
        case 0:
            position += 1
            appendToAttributeValue(Self.replacementCharacter)
        default:
            position += 1
            state = .afterAttributeValueQuoted
        }
    }
}
