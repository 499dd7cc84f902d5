@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Refuses, before cmark sees it, Markdown on which the linked cmark (Debian's 0.30.2) would take
/// quadratic time. cmark's later releases fixed two such shapes (GHSA-66g8-4hjf-77xh, and
/// cmark's pathological tests "pattern ![[]() repeated"); we cannot swap the library, so a
/// linear scan bounds the work each shape would cost, and input past the budget is refused with
/// an error that names the shape and where it starts.
///
/// 1. **Open containers across blank lines.** For every line, cmark walks the open containers
///    from the outside in; a blank line continues every list item, so each one walks all of
///    them. `" -" * 40000 + " a" + "\n" * 40000` opens 40,000 nested items on one line and then walks
///    them 40,000 times. The scan bounds the containers open before each blank line by the
///    width of a line's leading run of indentation, `>` and list markers (every container a
///    line opens or continues takes at least one column of it), carried over blank lines and
///    lines that may continue a paragraph lazily, and adds that bound for every blank line.
/// 2. **Image openers under links.** When a link closes, cmark deactivates the link openers
///    before it, walking past every image opener (`![`) still open in the paragraph; images
///    are never deactivated, so `"![[]()" * 160000` walks a growing stack for every link. The
///    scan keeps the stack of openers (a `]` closes the innermost, as in cmark) and adds the
///    number of image openers under it whenever a `]` closes a link opener.
///
/// Both sums only over-estimate what cmark does, and real documents keep them far below the
/// budget: a few containers and almost no stray `![`. The guard reads the input after
/// ``MarkdownDepthClamp`` has cut every line's markers to the depth the IR keeps, so nesting
/// opened on one line costs at most about 200 containers a blank line and is read, flattened;
/// what is left to refuse is nesting built a line at a time (input quadratic in its depth) and
/// stray image openers. The budget grows with the input (8 steps a byte, beyond 16 million),
/// so a large ordinary document is never refused; at about 25 ns a step for containers, the
/// worst input accepted costs cmark under half a second more than a linear one.
enum MarkdownComplexityGuard {
    static func budget(forInputOf count: Int) -> Int { 16_000_000 + 8 * count }

    static func check(_ bytes: [UInt8]) throws(ConversionError) {
        let estimate = Estimate(bytes, stoppingPast: budget(forInputOf: bytes.count))
        guard let exceeded = estimate.exceeded else { return }
        switch exceeded {
        case .containers(let offset):
            throw ConversionError(
                code: "markdown-too-complex",
                message: "Markdown refused: list items or quotes nested \(estimate.containers.deepest) columns deep on this line stay open across \(estimate.containers.blankLines) blank lines, on which the linked cmark (\(CmarkLibrary.version)) takes quadratic time; flatten the nesting or remove the blank lines",
                at: SourceLocation(byteOffset: offset, in: bytes))
        case .brackets(let offset):
            throw ConversionError(
                code: "markdown-too-complex",
                message: "Markdown refused: \(estimate.brackets.imageOpeners) image openers ('![') from here on stay open in one paragraph while links close after them, on which the linked cmark (\(CmarkLibrary.version)) takes quadratic time; escape the '!' (as '\\!') or close the images",
                at: SourceLocation(byteOffset: offset, in: bytes))
        }
    }

    /// Both sums over an input, up to the first that passes `budget`.
    struct Estimate {
        var containers = ContainerEstimate()
        var brackets = BracketEstimate()
        var exceeded: Shape?

        init(_ bytes: [UInt8], stoppingPast budget: Int) {
            var containers = ContainerEstimate()
            var brackets = BracketEstimate()
            exceeded = { () -> Shape? in
                let buffer = bytes.span
                containers.startLine(at: 0, in: buffer)
                var index = 0
                // The last byte a backslash escaped: an escaped `!` does not make an image.
                var escaped = -1
                while let next = ByteScan.firstIndex(in: buffer, from: index, whereBlock: interesting, whereByte: isInteresting) {
                    index = next + 1
                    switch buffer[next] {
                    case UInt8(ascii: "\\"):
                        // An escaped bracket opens and closes nothing; a line break after a
                        // backslash still ends the line.
                        if next + 1 < buffer.count, buffer[next + 1] != 0x0A, buffer[next + 1] != 0x0D {
                            index = next + 2
                            escaped = next + 1
                        }
                    case UInt8(ascii: "["):
                        let isImage = next > 0 && buffer[next - 1] == UInt8(ascii: "!") && escaped != next - 1
                        brackets.open(isImage: isImage, at: isImage ? next - 1 : next)
                    case UInt8(ascii: "]"):
                        brackets.close()
                        if brackets.cost > budget { return .brackets(firstImageOpener: brackets.firstImageOffset ?? next) }
                    default:
                        // A line ending: CR LF is one.
                        if buffer[next] == 0x0D, next + 1 < buffer.count, buffer[next + 1] == 0x0A { index = next + 2 }
                        // A paragraph ends at a blank line, and cmark's bracket stack with it.
                        if containers.startLine(at: index, in: buffer) { brackets.reset() }
                        if containers.cost > budget { return .containers(deepestLineOffset: containers.deepestOffset) }
                    }
                }
                return nil
            }()
            self.containers = containers
            self.brackets = brackets
        }
    }

    enum Shape: Equatable {
        case containers(deepestLineOffset: Int)
        case brackets(firstImageOpener: Int)
    }

    /// Brackets, backslashes and line endings: the bytes the scan acts on.
    @inline(__always)
    private static func interesting(_ block: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        (block .== SIMD16(repeating: UInt8(ascii: "["))) .| (block .== SIMD16(repeating: UInt8(ascii: "]")))
            .| (block .== SIMD16(repeating: UInt8(ascii: "\\"))) .| (block .== SIMD16(repeating: 0x0A)) .| (block .== SIMD16(repeating: 0x0D))
    }

    @inline(__always)
    private static func isInteresting(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D
    }

    /// A bound on the containers open at each line, and the sum of it over blank lines.
    struct ContainerEstimate {
        private var open = 0
        private var previousHadText = false
        private(set) var cost = 0
        /// Blank lines met with containers open.
        private(set) var blankLines = 0
        private(set) var deepest = 0
        private(set) var deepestOffset = 0

        /// Takes in the line that starts at `start`; returns whether it is blank after its
        /// leading containers.
        @discardableResult
        mutating func startLine(at start: Int, in bytes: Span<UInt8>) -> Bool {
            let (width, end) = Self.containerPrefix(from: start, in: bytes)
            let blank = end >= bytes.count || bytes[end] == 0x0A || bytes[end] == 0x0D
            if blank {
                cost += open
                if open > 0 { blankLines += 1 }
                open = max(open, width)
            } else {
                // After a line with text this one may continue a paragraph lazily, which keeps
                // every container open; after a blank line it keeps only those it matches.
                open = previousHadText ? max(open, width) : width
            }
            if width > deepest {
                deepest = width
                deepestOffset = start
            }
            previousHadText = !blank
            return blank
        }

        /// The width in columns of the run of indentation, `>` and list markers (`-`, `+`, `*`,
        /// or up to nine digits and `.` or `)`, each followed by a space, a tab or the line's
        /// end) that begins a line, and where the run ends.
        static func containerPrefix(from start: Int, in bytes: Span<UInt8>) -> (width: Int, end: Int) {
            var index = start
            var width = 0
            func endsMarker(_ at: Int) -> Bool {
                at >= bytes.count || bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D
            }
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, UInt8(ascii: ">"):
                    width += 1
                    index += 1
                case 0x09:
                    width += 4
                    index += 1
                case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
                    guard endsMarker(index + 1) else { return (width, index) }
                    width += 1
                    index += 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    var end = index
                    while end < bytes.count, end - index < 9, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
                    guard end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"), endsMarker(end + 1) else {
                        return (width, index)
                    }
                    width += end + 1 - index
                    index = end + 1
                default:
                    return (width, index)
                }
            }
            return (width, index)
        }
    }

    /// cmark's bracket stack within a paragraph, as far as its cost goes.
    struct BracketEstimate {
        /// Whether each open opener is an image's, innermost last.
        private var isImage: [Bool] = []
        private var imageOffsets: [Int] = []
        private(set) var imageOpeners = 0
        private(set) var cost = 0

        var firstImageOffset: Int? { imageOffsets.first }

        mutating func open(isImage image: Bool, at offset: Int) {
            isImage.append(image)
            if image {
                imageOpeners += 1
                imageOffsets.append(offset)
            }
        }

        /// A `]` closes the innermost opener, link or not; a link opener's close walks past
        /// the image openers under it.
        mutating func close() {
            guard let last = isImage.popLast() else { return }
            if last {
                imageOpeners -= 1
                imageOffsets.removeLast()
            } else {
                cost += imageOpeners
            }
        }

        mutating func reset() {
            isImage.removeAll(keepingCapacity: true)
            imageOffsets.removeAll(keepingCapacity: true)
            imageOpeners = 0
        }
    }
}
