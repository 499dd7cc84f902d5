/// A formatting feature over a range of a block's text, in UTF-16 code units (see
/// ``TextRange``): `Markup(.strong, start: 0, end: 4)` is bold over the first four. Markups may
/// overlap without nesting; canonical form (``Document/canonicalize()``) orders and merges them.
public struct Markup: Hashable, Sendable {
    public var kind: MarkupKind
    public var range: TextRange

    public init(_ kind: MarkupKind, _ range: TextRange) {
        self.kind = kind
        self.range = range
    }

    public init(_ kind: MarkupKind, start: Int, end: Int) {
        self.init(kind, TextRange(start: start, end: end))
    }
}

/// A half-open range of UTF-16 code units, the unit `NSRange`, Android `Spannable` and
/// JavaScript index by. Other units are a matter of the JSON format (see `OffsetUnit`).
public struct TextRange: Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var length: Int { end - start }
    public var isEmpty: Bool { end <= start }
}

extension TextRange: CustomStringConvertible {
    public var description: String { "\(start)..<\(end)" }
}
