@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The scanner's scalars: literals, integers (exact, saturating, or skipped), and strings with
/// their escapes, each checked as RFC 8259 requires.
extension JSONScanner {
    /// A `true`, `false` or `null` literal.
    @discardableResult
    mutating func literal(_ pointer: JSONPointer) throws(Failure) -> Bool? {
        for (word, value) in [("true", true as Bool?), ("false", false), ("null", nil)] {
            let utf8 = Array(word.utf8)
            if position + utf8.count <= bytes.count, utf8.indices.allSatisfy({ bytes[position + $0] == utf8[$0] }) {
                position += utf8.count
                return value
            }
        }
        guard position < bytes.count else { throw failure("invalid-json", "unexpected end of input", pointer) }
        throw failure("invalid-json", "unexpected character \(describe(bytes[position]))", pointer)
    }

    /// A non-negative integer that fits in `Int`. Fractions, exponents, signs and overflow are
    /// errors, detected without trapping.
    mutating func integer(_ pointer: JSONPointer) throws(Failure) -> Int {
        let start = position
        let read = try saturatingInteger(pointer)
        func text() -> String { self.text(start..<position) }
        if read.value < 0 || bytes[start] == UInt8(ascii: "-") {
            throw Failure(code: "negative-number", message: "\(text()) is negative", offset: start, pointer: pointer)
        }
        if read.saturated {
            throw Failure(code: "number-too-large", message: "\(text()) is too large", offset: start, pointer: pointer)
        }
        return read.value
    }

    /// The input between two offsets, as text (for messages).
    func text(_ range: Range<Int>) -> String {
        var copied: [UInt8] = []
        copied.append(copying: bytes.extracting(range))
        return String(decoding: copied, as: UTF8.self)
    }

    /// An integer of any size and sign, saturated at `Int`'s bounds (`saturated` says whether
    /// it was), for fields whose range the caller clamps to. Fractions and exponents are errors.
    mutating func saturatingInteger(_ pointer: JSONPointer) throws(Failure) -> (value: Int, saturated: Bool) {
        let kind = try peekKind(pointer)
        guard kind == .number else {
            throw failure("wrong-type", "expected an integer, found \(article(kind)) \(kind.rawValue)", pointer)
        }
        let start = position
        try skipNumber(pointer)
        for index in start..<position where bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            throw Failure(code: "not-an-integer", message: "\(text(start..<position)) is not an integer", offset: start, pointer: pointer)
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        // Accumulated as a negative number, whose range is one larger, then saturated.
        var value = 0
        var saturated = false
        for index in (negative ? start + 1 : start)..<position {
            let byte = bytes[index]
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 {
                saturated = true
                value = Int.min
                break
            }
            value = next
        }
        if negative { return (value, saturated) }
        if value == Int.min { return (Int.max, true) }
        return (-value, saturated)
    }

    /// JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func skipNumber(_ pointer: JSONPointer) throws(Failure) {
        let start = position
        @inline(__always)
        func digits() -> Int {
            let begin = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return position - begin
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let leadingZero = position < bytes.count && bytes[position] == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else {
            throw Failure(code: "invalid-json", message: "malformed number", offset: start, pointer: pointer)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else {
                throw Failure(code: "invalid-json", message: "malformed number", offset: start, pointer: pointer)
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else {
                throw Failure(code: "invalid-json", message: "malformed number", offset: start, pointer: pointer)
            }
        }
    }

    /// A string value, with escapes decoded and UTF-8 validated.
    mutating func string(_ pointer: JSONPointer) throws(Failure) -> String {
        let start = try openString(pointer)
        // Fast path: to the first quote, backslash or control character sixteen bytes at a
        // time; when a quote ends the run, the bytes before it are the string, checked as
        // UTF-8 by the standard library as it makes it.
        let stop = JSONSpanScans.endOfPlainRun(bytes, from: start)
        if stop < bytes.count, bytes[stop] == UInt8(ascii: "\""), let plain = JSONSpanScans.checkedString(bytes.extracting(start..<stop)) {
            position = stop + 1
            return plain
        }
        // Checked runs and escapes this scanner encoded (a lone surrogate throws), checked once
        // more as the string is made.
        return String(checkingUTF8: try unescaped(from: start, firstStop: stop, pointer))
    }

    /// A string value as UTF-8 bytes, with escapes decoded and the bytes validated, for a caller
    /// that hands them to a reader (which checks its input as it reads): no `String` is made,
    /// whose check the standard library makes again, at about ten instructions a byte of
    /// mixed-script text.
    mutating func stringUTF8(_ pointer: JSONPointer) throws(Failure) -> [UInt8] {
        let start = try openString(pointer)
        return try unescaped(from: start, firstStop: JSONSpanScans.endOfPlainRun(bytes, from: start), pointer)
    }

    /// Checks that a string begins here and steps into it; returns where its content begins.
    private mutating func openString(_ pointer: JSONPointer) throws(Failure) -> Int {
        let kind = try peekKind(pointer)
        guard kind == .string else {
            throw failure("wrong-type", "expected a string, found \(article(kind)) \(kind.rawValue)", pointer)
        }
        position += 1
        return position
    }

    /// The string's content from `start`, escapes decoded, through its closing quote (the
    /// scanner ends past it); `firstStop` is the end of its first plain run. Read run by run
    /// between escapes, each run found sixteen bytes at a time, checked and copied whole: HTML
    /// in a JSON string escapes every attribute's quotes, and a byte at a time from the first
    /// escape on was most of a batch's JSON reading. Escapes back to back (`\u041f\u0440`,
    /// as ASCII-only writers write every non-ASCII character) skip the scan between them. The
    /// first invalid sequence in a run is reported where it begins.
    private mutating func unescaped(from start: Int, firstStop: Int, _ pointer: JSONPointer) throws(Failure) -> [UInt8] {
        var buffer: [UInt8] = []
        var run = start
        position = firstStop
        while true {
            if run < position {
                if let invalid = UTF8Validation.firstInvalidOffset(bytes.extracting(run..<position)) {
                    // A run ends at an ASCII byte or the input's end, so the sequence there is
                    // invalid whatever follows; worded as every reader words it.
                    position = run + invalid
                    throw failure("invalid-utf8", "invalid UTF-8 at byte \(position)", pointer)
                }
                buffer.append(copying: bytes.extracting(run..<position))
            }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return buffer
            }
            if byte < 0x20 {
                throw failure("invalid-json", "control character \(describe(byte)) in a string", pointer)
            }
            try escape(into: &buffer, pointer)
            run = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "\\") { continue }
            position = JSONSpanScans.endOfPlainRun(bytes, from: run)
        }
        throw failure("invalid-json", "unterminated string", pointer)
    }

    private mutating func escape(into buffer: inout [UInt8], _ pointer: JSONPointer) throws(Failure) {
        let start = position
        position += 1
        guard position < bytes.count else { throw failure("invalid-json", "unterminated string", pointer) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad(pointer))
            if UTF16.isLeadSurrogate(UInt16(scalar)) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw Failure(code: "lone-surrogate", message: "\\u\(hex(scalar)) is a lone surrogate", offset: start, pointer: pointer)
                }
                position += 2
                let trail = try hexQuad(pointer)
                guard UTF16.isTrailSurrogate(trail) else {
                    throw Failure(code: "lone-surrogate", message: "\\u\(hex(scalar)) is a lone surrogate", offset: start, pointer: pointer)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(trail) - 0xDC00)
            } else if UTF16.isTrailSurrogate(UInt16(scalar)) {
                throw Failure(code: "lone-surrogate", message: "\\u\(hex(scalar)) is a lone surrogate", offset: start, pointer: pointer)
            }
            guard let value = Unicode.Scalar(scalar) else {
                throw Failure(code: "lone-surrogate", message: "invalid escape", offset: start, pointer: pointer)
            }
            if value == "\u{0}" {
                // As every other reader has it (HTML, CommonMark and plain text alike): no
                // writer can write a NUL that reads back as one.
                replacedNULs += 1
                if firstReplacedNUL == nil { firstReplacedNUL = (start, pointer) }
                if keepsNUL {
                    keptNULs += 1
                    buffer.append(0)
                } else {
                    buffer.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
                return
            }
            buffer.append(contentsOf: UTF8.encode(value)!)
        default:
            throw Failure(code: "invalid-json", message: "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", offset: start, pointer: pointer)
        }
    }

    private mutating func hexQuad(_ pointer: JSONPointer) throws(Failure) -> UInt16 {
        guard position + 4 <= bytes.count else { throw failure("invalid-json", "truncated \\u escape", pointer) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[position]) else {
                throw failure("invalid-json", "invalid hex digit in \\u escape", pointer)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
