@_spi(InlineTraversal) import MarkbridgeIR

/// Diagnostics gathered during one read. Repeated losses of one kind (`<script>` dropped ten
/// times, `font-size` dropped on every span) become one diagnostic with a count, placed at the
/// first occurrence, so the report says exactly what was lost without drowning the reader.
struct LossReport {
    private struct Entry {
        var code: String
        var key: String
        var count: Int
        var location: SourceLocation?
        var message: (Int) -> String
    }

    private var entries: [Entry] = []
    private var indexByKey: [String: Int] = [:]
    private var singles: [(order: Int, diagnostic: Diagnostic)] = []
    /// Grows with every loss noted or added, so a caller can tell whether a step lost anything.
    private(set) var lossCount = 0

    /// Counts one occurrence of a repeated loss; `message` gets the final count.
    mutating func note(_ code: String, _ key: String, at location: SourceLocation?, message: @escaping (Int) -> String) {
        lossCount += 1
        let fullKey = code + "\u{0}" + key
        if let index = indexByKey[fullKey] {
            entries[index].count += 1
            return
        }
        indexByKey[fullKey] = entries.count
        entries.append(Entry(code: code, key: key, count: 1, location: location, message: message))
    }

    /// A loss reported on its own (an unsafe URL: each one matters).
    mutating func add(_ diagnostic: Diagnostic) {
        lossCount += 1
        singles.append((entries.count + singles.count, diagnostic))
    }

    var diagnostics: [Diagnostic] {
        var ordered: [(Int, Diagnostic)] = entries.enumerated().map { index, entry in
            (index, Diagnostic.warning(entry.code, entry.message(entry.count), at: entry.location))
        }
        ordered += singles.map { ($0.order, $0.diagnostic) }
        return ordered.sorted { lhs, rhs in
            let l = lhs.1.location?.byteOffset ?? Int.max
            let r = rhs.1.location?.byteOffset ?? Int.max
            return l != r ? l < r : lhs.0 < rhs.0
        }.map(\.1)
    }
}
