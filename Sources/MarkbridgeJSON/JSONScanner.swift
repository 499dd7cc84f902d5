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
    /// `\u0000` escapes, read as U+FFFD, and where the first was: for the reader's report.
    var replacedNULs = 0
    var firstReplacedNUL: (offset: Int, pointer: JSONPointer)?
    /// While set, a `\u0000` escape is read as U+0000 (and counted in `keptNULs`), for a text
    /// whose offsets are still to be resolved: in UTF-8 offsets U+FFFD is three bytes to the
    /// NUL's one. The decoder replaces them once the offsets are UTF-16, where both are one unit.
    var keepsNUL = false
    var keptNULs = 0

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

    func article(_ kind: ValueKind) -> String {
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

    // MARK: Errors

    func failure(_ code: String, _ message: String, _ pointer: JSONPointer) -> Failure {
        Failure(code: code, message: message, offset: position, pointer: pointer)
    }

    func describe(_ byte: UInt8) -> String {
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
