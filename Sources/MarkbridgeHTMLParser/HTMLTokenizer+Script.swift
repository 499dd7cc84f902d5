/// The script data escape states: `<!--` inside a script, and `<script>` inside that.
extension HTMLTokenizer {
    mutating func scriptEscapeStates() {
        let c = current
        switch state {
        case .scriptDataEscapeStart, .scriptDataEscapeStartDash:
            if c == UInt8(ascii: "-") {
                position += 1
                emitCharacter(0x2D)
                state = state == .scriptDataEscapeStart ? .scriptDataEscapeStartDash : .scriptDataEscapedDashDash
            } else {
                state = .scriptData
            }
        case .scriptDataEscaped, .scriptDataEscapedDash, .scriptDataEscapedDashDash:
            escaped(c, double: false)
        case .scriptDataDoubleEscaped, .scriptDataDoubleEscapedDash, .scriptDataDoubleEscapedDashDash:
            escaped(c, double: true)
        case .scriptDataEscapedLessThanSign:
            if c == UInt8(ascii: "/") {
                position += 1
                clearTemporaryBuffer()
                state = .scriptDataEscapedEndTagOpen
            } else if Self.isAlpha(c) {
                clearTemporaryBuffer()
                emitCharacter(0x3C)
                state = .scriptDataDoubleEscapeStart
            } else {
                emitCharacter(0x3C)
                state = .scriptDataEscaped
            }
        case .scriptDataEscapedEndTagOpen:
            if Self.isAlpha(c) {
                startTag(isEnd: true)
                state = .scriptDataEscapedEndTagName
            } else {
                emitCharacters([0x3C, 0x2F])
                state = .scriptDataEscaped
            }
        case .scriptDataEscapedEndTagName:
            endTagName(returningTo: .scriptDataEscaped)
        case .scriptDataDoubleEscapeStart, .scriptDataDoubleEscapeEnd:
            let starting = state == .scriptDataDoubleEscapeStart
            if Self.isWhitespace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") {
                position += 1
                emitCharacter(UInt8(c))
                let isScript = temporaryBufferIsScript
                state = starting == isScript ? .scriptDataDoubleEscaped : .scriptDataEscaped
            } else if Self.isAlpha(c) {
                position += 1
                appendToTemporaryBuffer(Self.lowercased(UInt8(c)))
                emitCharacter(UInt8(c))
            } else {
                state = starting ? .scriptDataEscaped : .scriptDataDoubleEscaped
            }
        case .scriptDataDoubleEscapedLessThanSign:
            if c == UInt8(ascii: "/") {
                position += 1
                clearTemporaryBuffer()
                emitCharacter(0x2F)
                state = .scriptDataDoubleEscapeEnd
            } else {
                state = .scriptDataDoubleEscaped
            }
        default:
            break
        }
    }

    /// The escaped and double-escaped states, plain, after `-` and after `--`.
    private mutating func escaped(_ c: Int, double: Bool) {
        let plain: State = double ? .scriptDataDoubleEscaped : .scriptDataEscaped
        let dash: State = double ? .scriptDataDoubleEscapedDash : .scriptDataEscapedDash
        let dashDash: State = double ? .scriptDataDoubleEscapedDashDash : .scriptDataEscapedDashDash
        switch c {
        case -1:
            emitEndOfFile()
        case 0x2D:
            position += 1
            emitCharacter(0x2D)
            state = state == plain ? dash : dashDash
        case 0x3C:
            position += 1
            if double {
                emitCharacter(0x3C)
                state = .scriptDataDoubleEscapedLessThanSign
            } else {
                state = .scriptDataEscapedLessThanSign
            }
        case 0x3E where state == dashDash:
            position += 1
            emitCharacter(0x3E)
            state = .scriptData
        case 0:
            position += 1
            emitReplacementCharacter()
            state = plain
        default:
            position += 1
            emitCharacter(UInt8(c))
            state = plain
        }
    }
}
