@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// Escaping for CommonMark text, after cmark's context-sensitive rules (commonmark.c): escape
/// only what could start syntax where it stands, never every punctuation character.
enum MarkdownEscaping {
    /// Escapes one line of paragraph text (no line breaks in it), given and written as UTF-8.
    /// `atLineStart` says the line begins a line of output, where block syntax (`#`, `>`, `-`,
    /// `1.`, fences, indentation) could start. Every character that needs escaping is ASCII (or
    /// U+FEFF), so the bytes between them are copied in runs.
    ///
    /// With `gfm`, every `~` and `|` is escaped too: in GitHub Flavored Markdown a `~` run may
    /// be strikethrough and a line with `|` may begin a table. And text its autolink extension
    /// would make a link (outside a link: `insideLink`) is kept from it: `www\.` and `http\://`
    /// (escapes it reads through), and an e-mail address split by an empty comment before its
    /// `@` (the extension looks within one text node, and escapes or references do not split
    /// one) where HTML is allowed. Returns whether an address was left that GFM will link,
    /// for the caller to report.
    @discardableResult
    static func line(_ bytes: ArraySlice<UInt8>, atLineStart: Bool, gfm: Bool = false, insideLink: Bool = false,
                     allowsHTML: Bool = true, into out: inout [UInt8]) -> Bool {
        var leftAutolink = false
        let base = bytes.startIndex
        let end = bytes.endIndex
        // A line start that could be read as a list marker: digits then `.` or `)`.
        var digitRun = 0
        if atLineStart {
            while base + digitRun < end, isDigit(bytes[base + digitRun]) { digitRun += 1 }
        }
        var runStart = base
        var index = base
        // Past the line start, only the bytes in `mayNeedEscape` can need anything: the others
        // are skipped in a tight loop (most text has none of them for many bytes).
        let lineStartRules = atLineStart ? base + digitRun : base - 1
        let mayNeedEscape = gfm ? Self.mayNeedEscapeInGFM : Self.mayNeedEscape
        while index < end {
            if index > lineStartRules {
                let buffer = bytes.span
                let found = gfm
                    ? ByteScan.firstIndex(in: buffer, from: index - base, whereBlock: Self.mayNeedEscapeInGFM, whereByte: { mayNeedEscape[Int($0)] })
                    : ByteScan.firstIndex(in: buffer, from: index - base, whereBlock: Self.mayNeedEscape, whereByte: { mayNeedEscape[Int($0)] })
                index = base + (found ?? buffer.count)
                if index == end { break }
            }
            let byte = bytes[index]
            var replacement: StaticString?
            var keepsByte = false
            var length = 1
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"):
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: "#"):
                // An ATX heading's opening and closing runs are `#`s followed by a space, a
                // tab or the line's end, so a `#` before anything else (`#東京`, `a #tag`)
                // stays as written; the end of this piece counts as a line's end.
                if index + 1 < end {
                    let next = bytes[index + 1]
                    guard next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
                        || next == UInt8(ascii: "#") else {
                        index += 1
                        continue
                    }
                }
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: "!") where index + 1 < end && bytes[index + 1] == UInt8(ascii: "["):
                replacement = "\\!"
            case UInt8(ascii: "&") where startsReference(bytes, at: index + 1): // before what could name an entity
                replacement = "\\&"
            case UInt8(ascii: "~") where gfm, UInt8(ascii: "|") where gfm:
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "~"):
                guard atLineStart && index == base else { index += 1; continue }
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: "."), UInt8(ascii: ")"): // after a leading digit run, or ending GFM's `www`
                let listMarker = atLineStart && digitRun > 0 && index == base + digitRun
                guard listMarker || (gfm && !insideLink && byte == UInt8(ascii: ".") && GFMAutolinks.startsWWW(bytes, dotAt: index)) else {
                    index += 1
                    continue
                }
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: ":") where gfm && !insideLink && GFMAutolinks.endsScheme(bytes, colonAt: index):
                replacement = "\\"
                keepsByte = true
            case UInt8(ascii: "@") where gfm && !insideLink && GFMAutolinks.isEmailAt(bytes, index):
                guard allowsHTML else {
                    leftAutolink = true
                    index += 1
                    continue
                }
                replacement = "<!-- -->"
                keepsByte = true
            case UInt8(ascii: "\r"):
                replacement = "&#13;"
            case 0x00:
                replacement = "&#xFFFD;"
            case UInt8(ascii: "\t"):
                replacement = "&#9;"
            case 0x01...0x08, 0x0B...0x0C, 0x0E...0x1F, 0x7F:
                replacement = nil
            case 0xC2 where index + 1 < end && bytes[index + 1] <= 0x9F:
                // A C1 control, as a reference: raw, it would reach a terminal that prints the
                // Markdown (HOSTILE-INPUTS E8); cmark reads `&#x80;` back as U+0080.
                out.append(contentsOf: bytes[runStart..<index])
                appendC1Reference(bytes[index + 1], into: &out)
                index += 2
                runStart = index
                continue
            case 0xEF where index + 2 < end && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF:
                // A byte-order mark would be dropped if it began the document.
                replacement = "&#xFEFF;"
                length = 3
            default:
                index += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<index])
            if let replacement {
                out.append(replacement)
                if keepsByte { out.append(byte) }
            } else {
                out.append(contentsOf: "&#\(byte);".utf8)
            }
            index += length
            runStart = index
        }
        out.append(contentsOf: bytes[runStart..<end])
        return leftAutolink
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// An ASCII letter of either case: the case bit set, a lower-case one.
    static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | asciiCaseBit) }

    /// The bit that tells an ASCII letter's cases apart (`A` | it is `a`).
    static let asciiCaseBit: UInt8 = 0x20

    /// The bytes the switch in `line` acts on anywhere in a line (the line-start rules for
    /// `-`, `+`, `=`, `~`, `.` and `)` are applied before the skipping starts).
    static let mayNeedEscape: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        // C0 controls, DEL, and the lead bytes of C1 controls (C2 80 to C2 9F) and U+FEFF (EF BB BF).
        return Array("\\`*_[]<>#!&".utf8).contains(byte) || byte < UInt8(ascii: " ") || byte == 0x7F || byte == 0xC2 || byte == 0xEF
    }

    /// The same for GitHub Flavored Markdown: `~` and `|` as well, and the `.`, `:` and `@`
    /// an autolink turns on.
    static let mayNeedEscapeInGFM: [Bool] = (0..<256).map { value in
        mayNeedEscape[value] || Array("~|.:@".utf8).contains(UInt8(value))
    }

    @inline(__always)
    static func mayNeedEscapeInGFM(_ block: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        func byte(_ character: Unicode.Scalar) -> SIMD16<UInt8> { SIMD16(repeating: UInt8(ascii: character)) }
        return mayNeedEscape(block) .| (block .== byte("~")) .| (block .== byte("|")) .| (block .== byte("."))
            .| (block .== byte(":")) .| (block .== byte("@"))
    }

    /// `mayNeedEscape` for sixteen bytes at once: controls, DEL, `[` `\\` `]` as one range, and
    /// `!` `#` and `<` `>` as pairs that differ in one bit.
    @inline(__always)
    static func mayNeedEscape(_ block: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        typealias Block = SIMD16<UInt8>
        func byte(_ character: Unicode.Scalar) -> Block { Block(repeating: UInt8(ascii: character)) }
        // Two bytes that differ only in bit 1 are matched by one comparison with the bit set.
        let bit1 = block | Block(repeating: 0x02)
        let brackets = (block &- byte("[")) .< Block(repeating: 3) // [ \ ]
        let controls = (block .< byte(" ")) .| (block .== Block(repeating: 0x7F))
        let pairs = (bit1 .== byte("#")) .| (bit1 .== byte(">")) // ! # and < >
        let singles = (block .== byte("&")) .| (block .== byte("*")) .| (block .== byte("_"))
            .| (block .== byte("`")) .| (block .== Block(repeating: 0xC2)) .| (block .== Block(repeating: 0xEF))
        return brackets .| controls .| pairs .| singles
    }

    /// Whether the character at `index` could continue `&` into a character reference: a
    /// letter (any script), a digit or `#`.
    private static func startsReference(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        guard index < bytes.endIndex else { return false }
        let byte = bytes[index]
        if byte < 0x80 {
            return isDigit(byte) || byte == UInt8(ascii: "#") || isLetter(byte)
        }
        var end = index + 1
        while end < bytes.endIndex && bytes[end] & 0xC0 == 0x80 { end += 1 }
        let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first
        return scalar?.properties.isAlphabetic ?? false
    }

    /// Spaces at the start or end of a line of paragraph text would be stripped (or, two at the
    /// end, make a hard break): written as character references there.
    static func protectingLineEdges(_ line: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var first = line.startIndex
        var last = line.endIndex
        while first < last, line[first] == UInt8(ascii: " ") { first += 1 }
        while last > first, line[last - 1] == UInt8(ascii: " ") { last -= 1 }
        for _ in line.startIndex..<first { out.append(contentsOf: "&#32;".utf8) }
        out.append(contentsOf: line[first..<last])
        for _ in last..<line.endIndex { out.append(contentsOf: "&#32;".utf8) }
    }

    /// A code span: a backtick fence longer than any run inside, padded with a space where the
    /// content begins or ends with a backtick, or with a space at both ends (CommonMark strips
    /// one space from each end in that case).
    static func codeSpan(_ content: [UInt8], into out: inout [UInt8]) {
        let backtick = UInt8(ascii: "`"), space = UInt8(ascii: " ")
        var longest = 0
        var run = 0
        for byte in content {
            if byte == backtick { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let allSpaces = content.allSatisfy { $0 == space }
        let needsPadding = !allSpaces && (content.first == backtick || content.last == backtick || (content.first == space && content.last == space))
        out.append(contentsOf: repeatElement(backtick, count: longest + 1))
        if needsPadding { out.append(space) }
        out.append(contentsOf: content)
        if needsPadding { out.append(space) }
        out.append(contentsOf: repeatElement(backtick, count: longest + 1))
    }

    /// An explicitly empty alt text (a decorative image) reads back from `![](src)` as none.
    static func emptyAltDiagnostic(block: Int) -> Diagnostic {
        .warning("empty-alt", "an image in block \(block) has an empty alt text (decorative), which Markdown writes as none", block: block)
    }

    /// An item's text that is an image tag alone on its first line (`- <img src="a.png"
    /// width="64">`, an image with a size) would begin an HTML block (CommonMark, HTML blocks,
    /// start condition 7: a complete open tag and nothing else on the line), which reads back as
    /// an image block inside an empty item. A `<span>` around the tag, which shows nothing and
    /// which both readers read through, keeps it the item's own inline content.
    static func keepingLoneTagInline(_ inline: [UInt8]) -> [UInt8] {
        guard inline.starts(with: "<img ".utf8) else { return inline }
        let lineEnd = inline.firstIndex(of: 0x0A) ?? inline.endIndex
        // Attribute values are escaped, so the tag's own `>` is the first.
        guard let close = inline[..<lineEnd].firstIndex(of: UInt8(ascii: ">")),
              inline[(close + 1)..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return inline }
        return Array("<span>".utf8) + inline[...close] + Array("</span>".utf8) + inline[(close + 1)...]
    }

    /// A size Markdown without HTML cannot write (a CommonMark image has none), named.
    static func imageSizeDroppedDiagnostic(_ image: ImageSource, block: Int) -> Diagnostic {
        let size = switch (image.width, image.height) {
        case let (width?, height?): "size \(width)×\(height)"
        case let (width?, nil): "width \(width)"
        case let (nil, height?): "height \(height)"
        case (nil, nil): "size"
        }
        return .warning("image-size-dropped", "\(size) of an image in block \(block) dropped: a CommonMark image has no size (--markdown-html drop)", block: block)
    }

    /// An image: `![alt](<src> "title")`, without its size.
    static func image(_ image: ImageSource, gfm: Bool = false, into out: inout [UInt8]) {
        out.append(contentsOf: "![".utf8)
        label(image.alt ?? "", gfm: gfm, into: &out)
        out.append(contentsOf: "](".utf8)
        escape(image.src, as: .destination, into: &out)
        if let title = image.title, !title.isEmpty {
            out.append(UInt8(ascii: " "))
            escape(title, as: .title, into: &out)
        }
        out.append(UInt8(ascii: ")"))
    }

    /// Image alt text: escaped as text, a line break as a character reference (a real one
    /// would be read as a space in alt text), spaces at its edges protected.
    static func label(_ text: String, gfm: Bool = false, into out: inout [UInt8]) {
        var escaped: [UInt8] = []
        for (index, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if index > 0 { escaped.append(contentsOf: "&#10;".utf8) }
            Self.line(ArraySlice(line), atLineStart: false, gfm: gfm, into: &escaped)
        }
        protectingLineEdges(escaped[...], into: &out)
    }
}
