/// A set of tags as a 256-bit mask: membership is one bit test, where `HTMLTagSet` would
/// hash. Tree construction asks "is this one of ..." for nearly every token.
struct HTMLTagSet: Sendable, ExpressibleByArrayLiteral {
    private var low: UInt64 = 0
    private var midLow: UInt64 = 0
    private var midHigh: UInt64 = 0
    private var high: UInt64 = 0

    init(arrayLiteral tags: HTMLTag...) {
        for tag in tags { insert(tag) }
    }

    mutating func insert(_ tag: HTMLTag) {
        let bit = UInt64(1) << UInt64(tag.rawValue & 63)
        switch tag.rawValue >> 6 {
        case 0: low |= bit
        case 1: midLow |= bit
        case 2: midHigh |= bit
        default: high |= bit
        }
    }

    @inline(__always)
    func contains(_ tag: HTMLTag) -> Bool {
        let bit = UInt64(1) << UInt64(tag.rawValue & 63)
        switch tag.rawValue >> 6 {
        case 0: return low & bit != 0
        case 1: return midLow & bit != 0
        case 2: return midHigh & bit != 0
        default: return high & bit != 0
        }
    }

    func union(_ other: HTMLTagSet) -> HTMLTagSet {
        var out = self
        out.low |= other.low
        out.midLow |= other.midLow
        out.midHigh |= other.midHigh
        out.high |= other.high
        return out
    }

    func subtracting(_ other: HTMLTagSet) -> HTMLTagSet {
        var out = self
        out.low &= ~other.low
        out.midLow &= ~other.midLow
        out.midHigh &= ~other.midHigh
        out.high &= ~other.high
        return out
    }

    /// Whether any tag in the set satisfies `predicate`.
    func contains(where predicate: (HTMLTag) -> Bool) -> Bool {
        for raw in 0...UInt8.max {
            guard let tag = HTMLTag(rawValue: raw) else { break }
            if contains(tag) && predicate(tag) { return true }
        }
        return false
    }
}
