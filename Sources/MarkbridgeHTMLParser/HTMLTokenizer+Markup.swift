/// Comments, bogus comments, `<!` declarations and DOCTYPEs.
extension HTMLTokenizer {
    mutating func markupStates() {
        let c = current
        switch state {
        case .bogusComment:
            let start = position
            while position < input.count, input[position] != UInt8(ascii: ">"), input[position] != 0 { position += 1 }
            appendToComment(Array(input[start..<position]))
            switch current {
            case -1:
                emitComment()
                emitEndOfFile()
            case 0:
                position += 1
                appendToComment(Self.replacementCharacter)
            default:
                position += 1
                state = .data
                emitComment()
            }
        case .markupDeclarationOpen:
            if lookingAt("--", caseInsensitive: false) {
                position += 2
                startComment()
                state = .commentStart
            } else if lookingAt("doctype", caseInsensitive: true) {
                position += 7
                state = .doctype
            } else if lookingAt("[CDATA[", caseInsensitive: false) {
                position += 7
                if allowsCDATA {
                    state = .cdataSection
                } else {
                    startComment(Array("[CDATA[".utf8))
                    state = .bogusComment
                }
            } else {
                startComment()
                state = .bogusComment
            }
        case .commentStart, .commentStartDash, .comment, .commentLessThanSign, .commentLessThanSignBang,
             .commentLessThanSignBangDash, .commentLessThanSignBangDashDash, .commentEndDash, .commentEnd, .commentEndBang:
            commentStates(c)
        default:
            doctypeStates(c)
        }
    }

    private mutating func commentStates(_ c: Int) {
        switch state {
        case .commentStart:
            if c == UInt8(ascii: "-") {
                position += 1
                state = .commentStartDash
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitComment()
            } else {
                state = .comment
            }
        case .commentStartDash:
            if c == UInt8(ascii: "-") {
                position += 1
                state = .commentEnd
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitComment()
            } else if c == -1 {
                emitComment()
                emitEndOfFile()
            } else {
                appendToComment(0x2D)
                state = .comment
            }
        case .comment:
            let start = position
            while position < input.count {
                let byte = input[position]
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "-") || byte == 0 { break }
                position += 1
            }
            if position > start { appendToComment(Array(input[start..<position])) }
            switch current {
            case -1:
                emitComment()
                emitEndOfFile()
            case 0x3C:
                position += 1
                appendToComment(0x3C)
                state = .commentLessThanSign
            case 0x2D:
                position += 1
                state = .commentEndDash
            default:
                position += 1
                appendToComment(Self.replacementCharacter)
            }
        case .commentLessThanSign:
            if c == UInt8(ascii: "!") {
                position += 1
                appendToComment(0x21)
                state = .commentLessThanSignBang
            } else if c == UInt8(ascii: "<") {
                position += 1
                appendToComment(0x3C)
            } else {
                state = .comment
            }
        case .commentLessThanSignBang:
            if c == UInt8(ascii: "-") {
                position += 1
                state = .commentLessThanSignBangDash
            } else {
                state = .comment
            }
        case .commentLessThanSignBangDash:
            if c == UInt8(ascii: "-") {
                position += 1
                state = .commentLessThanSignBangDashDash
            } else {
                state = .commentEndDash
            }
        case .commentLessThanSignBangDashDash:
            state = .commentEnd
        case .commentEndDash:
            if c == UInt8(ascii: "-") {
                position += 1
                state = .commentEnd
            } else if c == -1 {
                emitComment()
                emitEndOfFile()
            } else {
                appendToComment(0x2D)
                state = .comment
            }
        case .commentEnd:
            if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitComment()
            } else if c == UInt8(ascii: "!") {
                position += 1
                state = .commentEndBang
            } else if c == UInt8(ascii: "-") {
                position += 1
                appendToComment(0x2D)
            } else if c == -1 {
                emitComment()
                emitEndOfFile()
            } else {
                appendToComment([0x2D, 0x2D])
                state = .comment
            }
        default:
            if c == UInt8(ascii: "-") {
                position += 1
                appendToComment([0x2D, 0x2D, 0x21])
                state = .commentEndDash
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitComment()
            } else if c == -1 {
                emitComment()
                emitEndOfFile()
            } else {
                appendToComment([0x2D, 0x2D, 0x21])
                state = .comment
            }
        }
    }

    private mutating func doctypeStates(_ c: Int) {
        // EOF anywhere in a DOCTYPE: it is emitted with force-quirks (bogus DOCTYPE keeps its flag).
        if c == -1 {
            if state == .doctype || state == .beforeDoctypeName { startDoctype() }
            if state != .bogusDoctype { forceQuirks() }
            emitDoctype()
            emitEndOfFile()
            return
        }
        let byte = UInt8(c)
        switch state {
        case .doctype:
            if Self.isWhitespace(c) { position += 1 }
            state = .beforeDoctypeName
        case .beforeDoctypeName:
            if Self.isWhitespace(c) {
                position += 1
                return
            }
            startDoctype()
            position += 1
            if c == 0 {
                extendDoctypeName(Self.replacementCharacter)
            } else if c == UInt8(ascii: ">") {
                forceQuirks()
                state = .data
                emitDoctype()
                return
            } else {
                extendDoctypeName(byte)
            }
            state = .doctypeName
        case .doctypeName:
            position += 1
            if Self.isWhitespace(c) {
                state = .afterDoctypeName
            } else if c == UInt8(ascii: ">") {
                state = .data
                emitDoctype()
            } else if c == 0 {
                extendDoctypeName(Self.replacementCharacter)
            } else {
                extendDoctypeName(byte)
            }
        case .afterDoctypeName:
            if Self.isWhitespace(c) {
                position += 1
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitDoctype()
            } else if lookingAt("public", caseInsensitive: true) {
                position += 6
                state = .afterDoctypePublicKeyword
            } else if lookingAt("system", caseInsensitive: true) {
                position += 6
                state = .afterDoctypeSystemKeyword
            } else {
                forceQuirks()
                state = .bogusDoctype
            }
        case .afterDoctypePublicKeyword, .beforeDoctypePublicIdentifier:
            identifierStart(c, isPublic: true)
        case .afterDoctypeSystemKeyword, .beforeDoctypeSystemIdentifier:
            identifierStart(c, isPublic: false)
        case .doctypePublicIdentifierDoubleQuoted, .doctypePublicIdentifierSingleQuoted,
             .doctypeSystemIdentifierDoubleQuoted, .doctypeSystemIdentifierSingleQuoted:
            let isPublic = state == .doctypePublicIdentifierDoubleQuoted || state == .doctypePublicIdentifierSingleQuoted
            let quote: Int = state == .doctypePublicIdentifierDoubleQuoted || state == .doctypeSystemIdentifierDoubleQuoted ? 0x22 : 0x27
            position += 1
            if c == quote {
                state = isPublic ? .afterDoctypePublicIdentifier : .afterDoctypeSystemIdentifier
            } else if c == UInt8(ascii: ">") {
                forceQuirks()
                state = .data
                emitDoctype()
            } else {
                let bytes = c == 0 ? Self.replacementCharacter : [byte]
                if isPublic { extendDoctypePublicID(bytes) } else { extendDoctypeSystemID(bytes) }
            }
        case .afterDoctypePublicIdentifier, .betweenDoctypePublicAndSystemIdentifiers:
            if Self.isWhitespace(c) {
                position += 1
                state = .betweenDoctypePublicAndSystemIdentifiers
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitDoctype()
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                position += 1
                setDoctypeSystemID([])
                state = c == UInt8(ascii: "\"") ? .doctypeSystemIdentifierDoubleQuoted : .doctypeSystemIdentifierSingleQuoted
            } else {
                forceQuirks()
                state = .bogusDoctype
            }
        case .afterDoctypeSystemIdentifier:
            if Self.isWhitespace(c) {
                position += 1
            } else if c == UInt8(ascii: ">") {
                position += 1
                state = .data
                emitDoctype()
            } else {
                state = .bogusDoctype
            }
        default:
            position += 1
            if c == UInt8(ascii: ">") {
                state = .data
                emitDoctype()
            }
        }
    }

    /// After the PUBLIC or SYSTEM keyword, and before the identifier.
    private mutating func identifierStart(_ c: Int, isPublic: Bool) {
        if Self.isWhitespace(c) {
            position += 1
            state = isPublic ? .beforeDoctypePublicIdentifier : .beforeDoctypeSystemIdentifier
        } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            position += 1
            if isPublic { setDoctypePublicID([]) } else { setDoctypeSystemID([]) }
            switch (isPublic, c == UInt8(ascii: "\"")) {
            case (true, true): state = .doctypePublicIdentifierDoubleQuoted
            case (true, false): state = .doctypePublicIdentifierSingleQuoted
            case (false, true): state = .doctypeSystemIdentifierDoubleQuoted
            case (false, false): state = .doctypeSystemIdentifierSingleQuoted
            }
        } else if c == UInt8(ascii: ">") {
            position += 1
            forceQuirks()
            state = .data
            emitDoctype()
        } else {
            forceQuirks()
            state = .bogusDoctype
        }
    }
}
