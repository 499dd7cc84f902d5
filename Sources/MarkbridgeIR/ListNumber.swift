/// The numbers an ordered list item may show, one rule for every reader and writer.
///
/// CommonMark writes a list number as at most nine digits with no sign, so 0...999,999,999 is
/// what every format can carry. A reader that meets a number outside (HTML's `start="-5"` or
/// `value="9223372036854775807"`, a JSON `number` of 10^12, the item after 999,999,999) uses the
/// nearest number inside and reports `list-number-clamped`; the IR's invariants reject any
/// other, and writers clamp again so that a document built by hand cannot make them overflow.
package enum ListNumber {
    public static let range: ClosedRange<Int> = 0...999_999_999

    /// `value` moved into ``range``.
    public static func clamped(_ value: Int) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// The number after `value`, kept in ``range`` (writers number items from the previous one).
    public static func successor(of value: Int) -> Int {
        clamped(clamped(value) + 1)
    }

    /// The `list-number-clamped` message every reader gives, naming the first number clamped.
    public static func clampingMessage(first number: String, count: Int = 1) -> String {
        let others = count > 1 ? " (and \(count - 1) more)" : ""
        return "list number \(number) moved into \(range.lowerBound)...\(range.upperBound), the numbers every format can carry\(others)"
    }
}
