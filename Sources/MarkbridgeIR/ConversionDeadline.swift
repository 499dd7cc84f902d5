/// When a conversion must stop: an instant on the continuous clock, bound for the work on the
/// current task or thread (``current``) the way task cancellation is.
///
/// Readers and writers do not take a deadline as an argument: their long loops carry a
/// ``DeadlineCountdown`` that looks at ``current`` and at the task's cancellation once every so
/// many steps, and stop; the reader or writer then throws what ``check()`` finds (`timeout` or
/// `cancelled`). Both conditions, once true, stay true, so a loop that stopped early always ends
/// in that error, never in a document cut short. The only work that cannot be stopped part way
/// is cmark parsing one piece of Markdown, which the complexity guard bounds.
public struct ConversionDeadline: Sendable, Hashable {
    /// The instant past which work stops.
    package var instant: ContinuousClock.Instant
    /// The time limit the deadline was set from, to name it in the error.
    public var limit: Duration?

    public init(_ instant: ContinuousClock.Instant, limit: Duration? = nil) {
        self.instant = instant
        self.limit = limit
    }

    /// A deadline `limit` from now.
    public static func after(_ limit: Duration) -> ConversionDeadline {
        ConversionDeadline(.now + limit, limit: limit)
    }

    /// The deadline of the work on this task or thread: nil when there is none. Bind it with
    /// `ConversionDeadline.$current.withValue(deadline) { ... }`; the earlier of two bound
    /// deadlines is what ``Markbridge/Converter`` binds when a caller bound one already.
    @TaskLocal public static var current: ConversionDeadline?

    /// The earlier of this deadline and `other`.
    package func earlier(than other: ConversionDeadline?) -> ConversionDeadline {
        guard let other, other.instant < instant else { return self }
        return other
    }

    /// Why work must stop now, if it must: the current deadline passed (`timeout`), or the
    /// current task was cancelled (`cancelled`).
    public static func stopReason() -> ConversionError? {
        if Task.isCancelled {
            return ConversionError(code: "cancelled", message: "conversion stopped: its task was cancelled")
        }
        guard let deadline = current, ContinuousClock.now >= deadline.instant else { return nil }
        let limit = deadline.limit.map { " of \(Self.seconds($0)) s" } ?? ""
        return ConversionError(code: "timeout", message: "conversion stopped: over its time limit\(limit)")
    }

    /// Throws ``stopReason()``, if there is one.
    public static func check() throws(ConversionError) {
        if let reason = stopReason() { throw reason }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// The check a long loop makes on every step: true once the deadline has passed or the task was
/// cancelled, looked at once every `interval` steps so that a step costs a decrement. The
/// interval is in steps of the loop that carries it: a token or a node (about a microsecond at
/// most) every 1,024, a block every 64. Once it has stopped, it stays stopped, and ``reason``
/// is the error the reader or writer throws.
package struct DeadlineCountdown {
    @usableFromInline let interval: Int
    @usableFromInline var left: Int
    package private(set) var reason: ConversionError?

    package init(every interval: Int) {
        self.interval = interval
        self.left = interval
    }

    /// Inlined into the loops of other modules: a step is a decrement and a branch.
    @inlinable @inline(__always)
    package mutating func shouldStop() -> Bool {
        left -= 1
        return left <= 0 && looked()
    }

    /// Every `interval` steps, and on every step once stopped (`left` stays at zero).
    @usableFromInline
    mutating func looked() -> Bool {
        if reason == nil {
            reason = ConversionDeadline.stopReason()
            left = reason == nil ? interval : 0
        }
        return reason != nil
    }

    /// Throws ``reason``, if the loop stopped.
    package func rethrow() throws(ConversionError) {
        if let reason { throw reason }
    }
}
