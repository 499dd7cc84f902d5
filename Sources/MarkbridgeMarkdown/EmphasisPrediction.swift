@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Predicts how cmark reads the emphasis delimiters the writer placed, so that the writer reads
/// its output back only where the prediction cannot be made.
///
/// The prediction runs CommonMark's own procedure (spec 6.2 and its appendix, "process
/// emphasis", as cmark 0.30 implements it in `inlines.c`) over the writer's delimiter runs:
/// left- and right-flanking from the characters on either side, the `_` restrictions, the
/// "multiple of 3" rule, the openers-bottom bounds, and link text processed on its own when its
/// `]` is reached. It is exact for the subject the writer produces, because every other `*` and
/// `_` in it is escaped, inside a code span, or inside a link destination, none of which cmark
/// scans for delimiters. Where it is not sure, it says so and the writer reads back:
/// - a neighbour character outside ASCII that is not a letter, mark or digit (cmark's tables of
///   Unicode punctuation and white space are of its own Unicode version, not ours);
/// - a run that touches a backslash, or a run of the same character that the writer wrote with
///   the other role (an opener right after a closer); closers that touch are one run for cmark
///   (`*` and `**` closing together are `***`), and so are openers, and are simulated as such;
/// - more than `maxDelimiters` runs (the simulation scans back, cmark bounds it differently).
/// Implementations differ in how they key the openers-bottom bound: the spec keys it by
/// delimiter character, closer length modulo 3 and whether the closer can also open; older
/// specs by character and length; and cmark 0.30.2, the one Debian ships, keeps a single bound
/// for `_` (after a `_` closer fails, no later `_` closer looks below it: `__z >_> _x_ z__`
/// stays text there, while `**z >*> *x* z**` is strong). All three are simulated and the
/// prediction holds only where they agree, so it does not rest on which one is linked.
enum EmphasisPrediction {
    /// What the inline renderer wrote, in output order.
    struct Mark {
        enum Role { case opens, closes, linkStart, linkEnd }
        /// UTF-8 offset of the run (or of `[` / `]`) in the inline output.
        let offset: Int
        /// Length of the delimiter run (0 for link marks).
        let length: Int
        let role: Role
    }

    static let maxDelimiters = 256

    enum Verdict {
        /// cmark pairs every run with the run the writer meant, whole.
        case asWritten
        /// cmark pairs some run otherwise, or leaves it text: reading back would fail too.
        case otherwise
        /// The prediction cannot be made here; only reading back can tell.
        case unsure
    }

    /// Working space for ``verdict(_:_:scratch:)``, kept by the writer from block to block: a
    /// prediction needs a dozen small arrays, and allocating and freeing them for every block
    /// with emphasis was most of its cost.
    struct Scratch {
        fileprivate var delimiters: [Mark] = []
        fileprivate var partner: [Int] = []
        fileprivate var openDelimiters: [Int] = []
        fileprivate var runs: [Run] = []
        fileprivate var members: [Range<Int>] = []
        fileprivate var events: [Event] = []
        fileprivate var linkBottoms: [Int] = []
        fileprivate var remaining: [Int] = []
        fileprivate var stack: [Int] = []
        fileprivate var matches: [Match] = []
        fileprivate var front: [Int] = []
        fileprivate var back: [Int] = []

        init() {}
    }

    /// How cmark reads the delimiter runs in `marks`, in working space the caller keeps.
    static func verdict(_ out: [UInt8], _ marks: [Mark], scratch: inout Scratch) -> Verdict {
        // The writer's delimiters in order, each with the one it pairs with.
        scratch.delimiters.removeAll(keepingCapacity: true)
        scratch.partner.removeAll(keepingCapacity: true)
        scratch.openDelimiters.removeAll(keepingCapacity: true)
        for mark in marks where mark.role == .opens || mark.role == .closes {
            guard scratch.delimiters.count < maxDelimiters, mark.length > 0 else { return .unsure }
            let index = scratch.delimiters.count
            scratch.delimiters.append(mark)
            scratch.partner.append(-1)
            if mark.role == .opens {
                scratch.openDelimiters.append(index)
            } else {
                guard let opener = scratch.openDelimiters.popLast(), scratch.delimiters[opener].length == mark.length,
                      out[scratch.delimiters[opener].offset] == out[mark.offset] else { return .unsure }
                scratch.partner[opener] = index
                scratch.partner[index] = opener
            }
        }
        guard scratch.openDelimiters.isEmpty else { return .unsure }
        if scratch.delimiters.isEmpty { return .asWritten }
        // cmark's runs: delimiters of one character and one role that touch are one run (two
        // closers `*` and `**` are the run `***`). The events put them among the link brackets.
        scratch.runs.removeAll(keepingCapacity: true)
        scratch.members.removeAll(keepingCapacity: true)
        scratch.events.removeAll(keepingCapacity: true)
        var next = 0
        for mark in marks {
            switch mark.role {
            case .linkStart: scratch.events.append(.linkStart)
            case .linkEnd: scratch.events.append(.linkEnd)
            case .opens, .closes:
                defer { next += 1 }
                guard scratch.members.last.map({ !$0.contains(next) }) ?? true else { continue }
                var last = next
                while last + 1 < scratch.delimiters.count, scratch.delimiters[last + 1].role == mark.role,
                      scratch.delimiters[last + 1].offset == scratch.delimiters[last].offset + scratch.delimiters[last].length,
                      out[scratch.delimiters[last + 1].offset] == out[mark.offset] {
                    last += 1
                }
                let length = scratch.delimiters[last].offset + scratch.delimiters[last].length - mark.offset
                guard let run = Run(out, start: mark.offset, length: length) else { return .unsure }
                scratch.events.append(.run(scratch.runs.count))
                scratch.runs.append(run)
                scratch.members.append(next..<(last + 1))
            }
        }
        var first: Verdict?
        var agree = true
        for keying in BottomKeying.allCases {
            let (completed, sawRejection) = simulate(keying: keying, scratch: &scratch)
            let verdict: Verdict = completed && matchesWriter(&scratch) ? .asWritten : .otherwise
            if let first { agree = agree && verdict == first } else { first = verdict }
            // The keyings differ only in where a closer stops looking, and a closer stops short
            // of an opener it could use only below a closer that the rule of 3 turned away. With
            // no such refusal (no run that can both open and close met the rule), every keying
            // makes the same matches, and the finest one stands for all.
            if !sawRejection { return first! }
        }
        // The readings of the openers-bottom rule must agree for the answer to stand.
        return agree ? first! : .unsure
    }

    /// Whether cmark's matches (`scratch.matches`) pair each writer delimiter with its partner,
    /// whole. A match uses the last unused delimiters of the opening run (the emphasis goes
    /// after the opener's remaining text) and the first of the closing run.
    private static func matchesWriter(_ scratch: inout Scratch) -> Bool {
        guard scratch.matches.count * 2 == scratch.delimiters.count else { return false }
        scratch.front.removeAll(keepingCapacity: true)
        scratch.back.removeAll(keepingCapacity: true)
        for member in scratch.members {
            scratch.front.append(member.lowerBound)
            scratch.back.append(member.upperBound)
        }
        for match in scratch.matches {
            guard scratch.back[match.opener] > scratch.front[match.opener], scratch.back[match.closer] > scratch.front[match.closer] else { return false }
            let opener = scratch.back[match.opener] - 1
            let closer = scratch.front[match.closer]
            guard scratch.delimiters[opener].role == .opens, scratch.delimiters[closer].role == .closes, scratch.partner[opener] == closer,
                  match.used == scratch.delimiters[opener].length else { return false }
            scratch.back[match.opener] -= 1
            scratch.front[match.closer] += 1
        }
        return true
    }

    fileprivate enum Event {
        case run(Int)
        case linkStart
        case linkEnd
    }

    /// How the openers-bottom bounds are keyed (see the type's comment).
    enum BottomKeying: CaseIterable {
        case characterLengthAndOpener, characterAndLength, singleUnderscoreBound

        func key(_ run: Run) -> Int {
            let base = run.character == UInt8(ascii: "_") ? 0 : 6
            switch self {
            case .characterLengthAndOpener: return base + (run.canOpen ? 3 : 0) + run.length % 3
            case .characterAndLength: return base + run.length % 3
            case .singleUnderscoreBound: return run.character == UInt8(ascii: "_") ? 0 : base + (run.canOpen ? 3 : 0) + run.length % 3
            }
        }
    }

    fileprivate struct Match {
        let opener: Int
        let closer: Int
        let used: Int
    }

    /// cmark's delimiter stack over `scratch.runs`, with link text processed when its `]` is
    /// reached. Leaves the matches made in `scratch.matches`; returns whether every run was
    /// matched whole, and whether the rule of 3 turned a closer away from an opener.
    private static func simulate(keying: BottomKeying, scratch: inout Scratch) -> (completed: Bool, sawRejection: Bool) {
        var stack = DelimiterStack(keying: keying, scratch: &scratch)
        defer { stack.giveBack(to: &scratch) }
        scratch.linkBottoms.removeAll(keepingCapacity: true)
        var runIndex = 0
        for event in scratch.events {
            switch event {
            case .run(let index):
                // Runs that can neither open nor close are not pushed: they stay text.
                if stack.runs[index].canOpen || stack.runs[index].canClose { stack.push(index) }
                runIndex = index + 1
            case .linkStart:
                scratch.linkBottoms.append(runIndex)
            case .linkEnd:
                guard let bottom = scratch.linkBottoms.popLast() else { return (false, true) }
                stack.processEmphasis(bottom: bottom)
            }
        }
        stack.processEmphasis(bottom: 0)
        return (!stack.unmatched, stack.sawRejection)
    }

    private struct DelimiterStack {
        let runs: [Run]
        let keying: BottomKeying
        var remaining: [Int]
        /// The runs on the stack, in order; removed runs are taken out.
        var stack: [Int]
        var matches: [Match]
        var unmatched = false
        var sawRejection = false

        /// A stack over `scratch.runs`, in the scratch's arrays (taken, and given back after).
        init(keying: BottomKeying, scratch: inout Scratch) {
            self.runs = scratch.runs
            self.keying = keying
            remaining = []
            stack = []
            matches = []
            swap(&remaining, &scratch.remaining)
            swap(&stack, &scratch.stack)
            swap(&matches, &scratch.matches)
            remaining.removeAll(keepingCapacity: true)
            for run in runs { remaining.append(run.length) }
            stack.removeAll(keepingCapacity: true)
            matches.removeAll(keepingCapacity: true)
        }

        /// Returns the arrays to the scratch, the matches made with them.
        mutating func giveBack(to scratch: inout Scratch) {
            swap(&remaining, &scratch.remaining)
            swap(&stack, &scratch.stack)
            swap(&matches, &scratch.matches)
        }

        mutating func push(_ run: Int) {
            stack.append(run)
        }

        /// "Process emphasis" over the runs at or above `bottom` (a run index), then removes them.
        mutating func processEmphasis(bottom: Int) {
            var openersBottom = InlineArray<12, Int>(repeating: bottom)
            var position = stack.firstIndex { $0 >= bottom } ?? stack.count
            while position < stack.count {
                let closer = stack[position]
                guard runs[closer].canClose else {
                    position += 1
                    continue
                }
                let key = keying.key(runs[closer])
                var openerPosition = position - 1
                var found = false
                while openerPosition >= 0, stack[openerPosition] >= openersBottom[key] {
                    let opener = stack[openerPosition]
                    if runs[opener].canOpen && runs[opener].character == runs[closer].character {
                        if !(runs[closer].canOpen || runs[opener].canClose) || runs[closer].length % 3 == 0
                            || (runs[opener].length + runs[closer].length) % 3 != 0 {
                            found = true
                            break
                        }
                        sawRejection = true
                    }
                    openerPosition -= 1
                }
                if found {
                    let opener = stack[openerPosition]
                    let used = remaining[closer] >= 2 && remaining[opener] >= 2 ? 2 : 1
                    matches.append(Match(opener: opener, closer: closer, used: used))
                    remaining[opener] -= used
                    remaining[closer] -= used
                    // The runs between opener and closer are removed (they stay text).
                    for between in stack[(openerPosition + 1)..<position] where remaining[between] > 0 { unmatched = true }
                    stack.removeSubrange((openerPosition + 1)..<position)
                    position = openerPosition + 1
                    if remaining[opener] == 0 {
                        stack.remove(at: openerPosition)
                        position -= 1
                    }
                    if remaining[closer] == 0 { stack.remove(at: position) }
                } else {
                    openersBottom[key] = closer
                    if runs[closer].canOpen {
                        position += 1
                    } else {
                        stack.remove(at: position)
                        unmatched = true
                    }
                }
            }
            // Whatever is left above the bottom stays text.
            while let last = stack.last, last >= bottom {
                if remaining[last] > 0 { unmatched = true }
                stack.removeLast()
            }
        }
    }
}
