@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Delimiter runs and the characters around them, classified as cmark's `scan_delims` does
/// (CommonMark, left- and right-flanking delimiter runs).
extension EmphasisPrediction {
    /// One delimiter run as cmark's `scan_delims` sees it.
    struct Run {
        let character: UInt8
        let length: Int
        let canOpen: Bool
        let canClose: Bool

        init?(_ out: [UInt8], start: Int, length: Int) {
            let end = start + length
            guard length > 0, end <= out.count else { return nil }
            let character = out[start]
            guard character == UInt8(ascii: "*") || character == UInt8(ascii: "_") else { return nil }
            for index in start..<end where out[index] != character { return nil }
            if start > 0, out[start - 1] == character || out[start - 1] == UInt8(ascii: "\\") { return nil }
            if end < out.count, out[end] == character { return nil }
            let before = Neighbor.before(start, in: out)
            let after = Neighbor.after(end, in: out)
            guard before != .unknown, after != .unknown else { return nil }
            let leftFlanking = after != .whitespace
                && (after != .punctuation || before == .whitespace || before == .punctuation)
            let rightFlanking = before != .whitespace
                && (before != .punctuation || after == .whitespace || after == .punctuation)
            self.character = character
            self.length = length
            if character == UInt8(ascii: "_") {
                canOpen = leftFlanking && (!rightFlanking || before == .punctuation)
                canClose = rightFlanking && (!leftFlanking || after == .punctuation)
            } else {
                canOpen = leftFlanking
                canClose = rightFlanking
            }
        }
    }

    enum Neighbor {
        case whitespace, punctuation, other, unknown

        /// The character before `offset`; the start of the subject counts as a line end.
        static func before(_ offset: Int, in bytes: [UInt8]) -> Neighbor {
            guard offset > 0 else { return .whitespace }
            var start = offset - 1
            while start > 0, bytes[start] & 0xC0 == 0x80, offset - start < 4 { start -= 1 }
            return classify(bytes, from: start, to: offset)
        }

        /// The character at `offset`; the end of the subject counts as a line end.
        static func after(_ offset: Int, in bytes: [UInt8]) -> Neighbor {
            guard offset < bytes.count else { return .whitespace }
            let length = UTF8Validation.sequenceLength(bytes, at: offset)
            guard length > 0, offset + length <= bytes.count else { return .unknown }
            return classify(bytes, from: offset, to: offset + length)
        }

        private static func classify(_ bytes: [UInt8], from start: Int, to end: Int) -> Neighbor {
            let lead = bytes[start]
            if lead < 0x80 {
                guard end == start + 1 else { return .unknown }
                switch lead {
                case 0x20, 0x09, 0x0A, 0x0C, 0x0D: return .whitespace
                case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return .punctuation
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .other
                default: return .unknown
                }
            }
            guard let scalar = decode(bytes, from: start, to: end) else { return .unknown }
            return classify(scalar)
        }

        /// A character outside ASCII as cmark 0.30.2 classes it. Letters, marks and digits are
        /// "other" in every version. White space is cmark's own list. Punctuation (categories P)
        /// and symbols (S, which cmark 0.30 counts as "other" and CommonMark 0.31 as
        /// punctuation) are trusted only in blocks whose categories have not changed since
        /// Unicode 1.1: Latin-1, General Punctuation, CJK Symbols and Punctuation, and the
        /// fullwidth forms. `EmphasisPredictionTests` probes cmark for every one of them.
        static func classify(_ scalar: Unicode.Scalar) -> Neighbor {
            let value = scalar.value
            switch value {
            case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return .whitespace
            default: break
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                return .other
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return isStableBlock(value) ? .punctuation : .unknown
            case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return isStableBlock(value) ? .other : .unknown
            default:
                return .unknown
            }
        }

        static func isStableBlock(_ value: UInt32) -> Bool {
            switch value {
            case 0xA1...0xBF, 0xD7, 0xF7, 0x2010...0x2027, 0x2030...0x205E, 0x3001...0x303F, 0xFF01...0xFF65: return true
            default: return false
            }
        }

        private static func decode(_ bytes: [UInt8], from start: Int, to end: Int) -> Unicode.Scalar? {
            let lead = bytes[start]
            let length = end - start
            var value: UInt32
            switch length {
            case 2 where lead & 0xE0 == 0xC0: value = UInt32(lead & 0x1F)
            case 3 where lead & 0xF0 == 0xE0: value = UInt32(lead & 0x0F)
            case 4 where lead & 0xF8 == 0xF0: value = UInt32(lead & 0x07)
            default: return nil
            }
            for index in (start + 1)..<end {
                guard bytes[index] & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(bytes[index] & 0x3F)
            }
            return Unicode.Scalar(value)
        }
    }
}
