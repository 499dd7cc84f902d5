@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// A pull scanner over JSON bytes (RFC 8259), strict about everything the format must reject:
/// invalid UTF-8, lone surrogate escapes, raw control characters, non-integer or overflowing
/// numbers. It never recurses: unknown values are skipped by counting brackets, up to a limit.
///
/// Errors carry the byte offset and the JSON Pointer the caller passes in; the reader turns the
/// offset into a line and column only when it throws.
///
/// The scanner reads a `Span`, not an array: a span is a pointer and a count, copied without
/// a retain, and every read of it is checked; it makes the scanner, and the decoder that holds
/// it, non-escapable: they live inside the read of the input's bytes. Objects and arrays are
/// walked by the caller (`nextMember`, `nextElement`), so the decoder reads each member in
/// place; through a closure per member, the scanner and decoder were copied in and out of it
/// every time (json-read 180.4 M instructions against 167 M, prose at --scale 0.2).
struct JSONScanner: ~Escapable {
    let bytes: Span<UInt8>
    var position = 0

    @_lifetime(copy bytes)
    init(bytes: Span<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    typealias Failure = JSONScanFailure
    typealias ValueKind = JSONValueKind

    var isAtEnd: Bool { position >= bytes.count }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The kind of the next value, after whitespace.
    mutating func peekKind(_ pointer: JSONPointer) throws(Failure) -> ValueKind {
        skipWhitespace()
        guard position < bytes.count else { throw failure("invalid-json", "unexpected end of input", pointer) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default: throw failure("invalid-json", "unexpected character \(describe(bytes[position]))", pointer)
        }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8, _ pointer: JSONPointer) throws(Failure) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else {
            let found = position < bytes.count ? describe(bytes[position]) : "end of input"
            throw failure("invalid-json", "expected '\(Character(Unicode.Scalar(byte)))', found \(found)", pointer)
        }
        position += 1
    }

    /// Consumes `byte` if it is next, after whitespace.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        if position < bytes.count, bytes[position] == byte {
            position += 1
            return true
        }
        return false
    }

    // MARK: Objects and arrays

    /// Where a walk through an object's members or an array's elements is: the caller drives
    /// it, one `nextMember` or `nextElement` at a time, so the scanner stays where it is (in
    /// the caller's decoder) and nothing is copied or called through a closure per member.
    struct ContainerCursor {
        /// The index of the element or member the scanner is at; -1 before the first.
        fileprivate(set) var index = -1
        /// Where the current member's key begins (its opening quote).
        fileprivate(set) var keyOffset = 0
        /// The current member's key in the input, between the quotes, when it has no escape.
        fileprivate(set) var rawKey: Range<Int>?
    }

    /// Enters the object at the next value: call ``nextMember(_:_:)`` until it returns nil.
    @inline(__always)
    mutating func enterObject(_ pointer: JSONPointer) throws(Failure) -> ContainerCursor {
        try expectKind(.object, pointer)
        position += 1
        return ContainerCursor()
    }

    /// The next member's key, the scanner positioned at its value, which the caller must
    /// consume; nil once the closing brace is read. Where the key is, `cursor` says.
    @inline(__always)
    mutating func nextMember(_ cursor: inout ContainerCursor, _ pointer: JSONPointer) throws(Failure) -> String? {
        if cursor.index < 0 {
            if consume(UInt8(ascii: "}")) { return nil }
        } else if !consume(UInt8(ascii: ",")) {
            try expect(UInt8(ascii: "}"), pointer)
            return nil
        }
        cursor.index += 1
        skipWhitespace()
        let keyOffset = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw failure("invalid-json", "expected a member name in quotes", pointer)
        }
        let key = try string(pointer)
        // An escape is always longer than what it stands for: as long as its text, the key
        // is its bytes between the quotes.
        let raw = (keyOffset + 1)..<(position - 1)
        try expect(UInt8(ascii: ":"), pointer)
        cursor.keyOffset = keyOffset
        cursor.rawKey = key.utf8.count == raw.count ? raw : nil
        return key
    }

    /// Enters the array at the next value: call ``nextElement(_:_:)`` until it returns nil.
    @inline(__always)
    mutating func enterArray(_ pointer: JSONPointer) throws(Failure) -> ContainerCursor {
        try expectKind(.array, pointer)
        position += 1
        return ContainerCursor()
    }

    /// The next element's index, the scanner positioned at its value, which the caller must
    /// consume; nil once the closing bracket is read.
    @inline(__always)
    mutating func nextElement(_ cursor: inout ContainerCursor, _ pointer: JSONPointer) throws(Failure) -> Int? {
        if cursor.index < 0 {
            if consume(UInt8(ascii: "]")) { return nil }
        } else if !consume(UInt8(ascii: ",")) {
            try expect(UInt8(ascii: "]"), pointer)
            return nil
        }
        cursor.index += 1
        return cursor.index
    }

    /// Iterates an object's members: calls `member` with each key, the key's offset and, when
    /// the key has no escape, its bytes in the input, the scanner positioned at the value.
    mutating func object(
        _ pointer: JSONPointer, member: (inout Self, String, Int, Span<UInt8>?) throws(Failure) -> Void
    ) throws(Failure) {
        var cursor = try enterObject(pointer)
        while let key = try nextMember(&cursor, pointer) {
            if let raw = cursor.rawKey {
                try member(&self, key, cursor.keyOffset, bytes.extracting(raw))
            } else {
                try member(&self, key, cursor.keyOffset, nil)
            }
        }
    }

    /// Iterates an array's elements: calls `element` with each index, positioned at its value.
    mutating func array(_ pointer: JSONPointer, element: (inout Self, Int) throws(Failure) -> Void) throws(Failure) {
        var cursor = try enterArray(pointer)
        while let index = try nextElement(&cursor, pointer) {
            try element(&self, index)
        }
    }

    private mutating func expectKind(_ kind: ValueKind, _ pointer: JSONPointer) throws(Failure) {
        let found = try peekKind(pointer)
        guard found == kind else {
            throw failure("wrong-type", "expected \(article(kind)) \(kind.rawValue), found \(article(found)) \(found.rawValue)", pointer)
        }
    }

    private func article(_ kind: ValueKind) -> String {
        switch kind {
        case .object, .array: "an"
        case .string, .number, .null: "a"
        case .boolean: ""
        }
    }

    /// Skips any value without recursion: open containers are a stack of flags (object or
    /// array), so depth costs a byte each, and past `maxDepth` the input is refused.
    mutating func skipValue(_ pointer: JSONPointer, maxDepth: Int) throws(Failure) {
        var containers: [Bool] = []
        values: while true {
            switch try peekKind(pointer) {
            case .object, .array:
                let isObject = bytes[position] == UInt8(ascii: "{")
                if containers.count >= maxDepth {
                    throw failure("too-deep", "nesting exceeds the limit of \(maxDepth) levels", pointer)
                }
                position += 1
                if consume(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                containers.append(isObject)
                if isObject { try memberName(pointer) }
                continue values
            case .string: _ = try string(pointer)
            case .number: try skipNumber(pointer)
            case .boolean, .null: try literal(pointer)
            }
            // A value is complete: close finished containers, or move on to the next sibling.
            while let isObject = containers.last {
                if consume(UInt8(ascii: ",")) {
                    if isObject { try memberName(pointer) }
                    continue values
                }
                try expect(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), pointer)
                containers.removeLast()
            }
            return
        }
    }

    private mutating func memberName(_ pointer: JSONPointer) throws(Failure) {
        _ = try string(pointer)
        try expect(UInt8(ascii: ":"), pointer)
    }

    // MARK: Scalars

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
        let kind = try peekKind(pointer)
        guard kind == .string else {
            throw failure("wrong-type", "expected a string, found \(article(kind)) \(kind.rawValue)", pointer)
        }
        position += 1
        let start = position
        // Fast path: to the first quote, backslash or control character sixteen bytes at a
        // time; when a quote ends the run, the bytes before it are the string, checked as
        // UTF-8 by the standard library as it makes it.
        let stop = JSONSpanScans.endOfPlainRun(bytes, from: start)
        if stop < bytes.count, bytes[stop] == UInt8(ascii: "\""), let plain = JSONSpanScans.checkedString(bytes.extracting(start..<stop)) {
            position = stop + 1
            return plain
        }
        // An escape, a control character, the end, or invalid UTF-8: the first invalid
        // sequence before the stop is reported where it begins.
        if let invalid = UTF8Validation.firstInvalidOffset(bytes.extracting(start..<stop)) {
            position = start + invalid
            try validateUTF8Sequence(pointer)
        }
        position = stop
        if position < bytes.count, bytes[position] < 0x20 {
            throw failure("invalid-json", "control character \(describe(bytes[position])) in a string", pointer)
        }
        var buffer: [UInt8] = []
        buffer.append(copying: bytes.extracting(start..<position))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                // Checked sequences and escapes this scanner encoded (a lone surrogate throws),
                // checked once more as the string is made.
                return String(checkingUTF8: buffer)
            }
            if byte == UInt8(ascii: "\\") {
                try escape(into: &buffer, pointer)
            } else if byte < 0x20 {
                throw failure("invalid-json", "control character \(describe(byte)) in a string", pointer)
            } else if byte < 0x80 {
                buffer.append(byte)
                position += 1
            } else {
                // Two to four bytes, appended one by one: a copy through an output span
                // costs more than that for so few.
                let sequenceStart = position
                try validateUTF8Sequence(pointer)
                for index in sequenceStart..<position { buffer.append(bytes[index]) }
            }
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

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Validates one multi-byte UTF-8 sequence at `position` and steps over it.
    private mutating func validateUTF8Sequence(_ pointer: JSONPointer) throws(Failure) {
        let length = UTF8Validation.sequenceLength(bytes, at: position)
        guard length > 0 else {
            // Worded as every reader words it.
            throw failure("invalid-utf8", "invalid UTF-8 at byte \(position)", pointer)
        }
        position += length
    }

    // MARK: Errors

    func failure(_ code: String, _ message: String, _ pointer: JSONPointer) -> Failure {
        Failure(code: code, message: message, offset: position, pointer: pointer)
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + hex(UInt32(byte)).suffix(2)
    }
}

struct JSONScanFailure: Error {
    var code: String
    var message: String
    var offset: Int
    var pointer: JSONPointer
    /// Set when the read stopped at its deadline or on cancellation, not at the input: thrown
    /// as it is, with no place in the input.
    var stop: ConversionError?
}

/// The kinds of value, as the first byte of a value tells them.
enum JSONValueKind: String {
    case object, array, string, number, boolean = "true or false", null
}
