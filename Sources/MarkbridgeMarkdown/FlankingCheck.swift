import MarkbridgeIR

/// A conservative reading of CommonMark's flanking rules (spec 6.2) for the delimiters the
/// writer places: an opener followed by a letter or digit and preceded by a line edge, white
/// space or plain ASCII punctuation is left-flanking and not right-flanking; a closer mirrored
/// likewise is right-flanking only. Such runs open and close exactly as written, whatever `*` or
/// `_`, and the "multiple of 3" rule cannot apply. Anything else is "not sure", and the writer
/// reads its output back instead of trusting it.
enum FlankingCheck {
    static func allSafe(_ bytes: [UInt8], _ delimiters: [(offset: Int, length: Int, opens: Bool)]) -> Bool {
        guard !delimiters.isEmpty else { return true }
        for delimiter in delimiters {
            let before = scalar(endingAt: delimiter.offset, in: bytes)
            let after = scalar(startingAt: delimiter.offset + delimiter.length, in: bytes)
            let (inside, outside) = delimiter.opens ? (after, before) : (before, after)
            guard let inside, isWordCharacter(inside), isQuietOutside(outside) else { return false }
        }
        return true
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber: return true
        default: return false
        }
    }

    /// A line edge, ASCII white space, or ASCII punctuation that is not itself a delimiter or
    /// an escape.
    private static func isQuietOutside(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        switch scalar {
        case " ", "\t", "\n": return true
        case "*", "_", "\\", "`": return false
        default: return scalar.value > 0x20 && scalar.value < 0x7F && !isWordCharacter(scalar)
        }
    }

    private static func scalar(startingAt offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard offset < bytes.count else { return nil }
        let length = UTF8Validation.sequenceLength(bytes, at: offset)
        guard length > 0, offset + length <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self).unicodeScalars.first
    }

    private static func scalar(endingAt offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard offset > 0 else { return nil }
        var start = offset - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars.first
    }
}
