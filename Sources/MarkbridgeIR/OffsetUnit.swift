@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The unit markup offsets count in. Raw values are the spellings of markup JSON's `offsetUnit`
/// and of the command's `--offsets`.
public enum OffsetUnit: String, Hashable, Sendable, CaseIterable {
    /// UTF-16 code units: `NSRange`, Android `Spannable`, JavaScript. The IR's own unit.
    case utf16
    /// Unicode scalar values: Python `str`, Draft.js.
    case scalar
    /// UTF-8 bytes: Rust, Go.
    case utf8
}

/// Translates offsets within one text between the IR's UTF-16 units and another unit.
///
/// Built from the sorted set of offsets a block needs, then filled in by one walk over the text,
/// so translating all of a block's markups is linear in its text plus O(m log m) in its markups.
package struct OffsetTranslator {
    /// Source offsets mapped to target offsets. A source offset that falls inside a character's
    /// encoding (a split surrogate pair or UTF-8 sequence) or past the end of the text is absent.
    private var mapping: [Int: Int] = [:]

    /// Maps each of `offsets`, counted in `source` units over `text`, to `target` units.
    public init(text: String, offsets: some Sequence<Int>, from source: OffsetUnit, to target: OffsetUnit) {
        let wanted = Array(Set(offsets)).sorted()
        var next = 0
        var sourcePosition = 0
        var targetPosition = 0
        for scalar in text.unicodeScalars {
            let stepEnd = sourcePosition + Self.width(of: scalar, in: source)
            while next < wanted.count, wanted[next] < stepEnd {
                if wanted[next] == sourcePosition { mapping[wanted[next]] = targetPosition }
                next += 1
            }
            if next >= wanted.count { break }
            sourcePosition = stepEnd
            targetPosition += Self.width(of: scalar, in: target)
        }
        while next < wanted.count {
            if wanted[next] == sourcePosition { mapping[wanted[next]] = targetPosition }
            next += 1
        }
    }

    /// The offset in the target unit, or nil where `offset` splits a character or is past the end.
    public subscript(offset: Int) -> Int? {
        mapping[offset]
    }

    /// How many units of `unit` encode `scalar`.
    @inline(__always)
    public static func width(of scalar: Unicode.Scalar, in unit: OffsetUnit) -> Int {
        switch unit {
        case .utf16: scalar.value > 0xFFFF ? 2 : 1
        case .scalar: 1
        case .utf8: UTF8.width(scalar)
        }
    }

    /// The length of `text` in `unit`.
    public static func length(of text: String, in unit: OffsetUnit) -> Int {
        switch unit {
        case .utf16: utf16Count(of: text)
        case .scalar: text.unicodeScalars.count
        case .utf8: text.utf8.count
        }
    }

    /// `text.utf16.count` from the UTF-8 bytes in one pass: for a large non-ASCII string the
    /// standard library builds an index of breadcrumbs first, several times slower.
    public static func utf16Count(of text: String) -> Int {
        ByteScan.utf16Count(ofUTF8: text.utf8.span)
    }

    /// The UTF-8 offset where the UTF-16 offset `offset` falls in `text`, or nil when it is
    /// past the end or inside a surrogate pair. One walk over the bytes, no index built.
    public static func utf8Offset(ofUTF16 offset: Int, in text: String) -> Int? {
        var walk = UTF16Walk()
        return walk.advance(to: offset, in: text.utf8.span)
    }

    /// Whether the text has a scalar outside the Basic Multilingual Plane (a surrogate pair in
    /// UTF-16): only those make UTF-16 offsets that can split a character.
    public static func hasAstralScalars(_ text: String) -> Bool {
        // A four-byte lead is the only byte from F0 up.
        let leads = SIMD16<UInt8>(repeating: 0xF0)
        return ByteScan.firstIndex(in: text.utf8.span, whereBlock: { $0 .>= leads }, whereByte: { $0 >= 0xF0 }) != nil
    }
}
