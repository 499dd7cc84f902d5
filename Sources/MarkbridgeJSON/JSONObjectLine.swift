@_spi(InlineTraversal) import MarkbridgeIR

/// One JSON Lines record (a top-level object), read just far enough to find its members: the
/// batch command needs one field's string value and where every member's value lies, so that
/// it can put a result into the record without re-serialising it. Every byte it does not
/// replace stays as it was (`2.50` stays `2.50`, key order and escapes stay).
///
/// The whole line is still validated as JSON (strings as UTF-8, nesting to a limit): a record
/// that is not JSON is refused, not half-read.
package struct JSONObjectLine: Sendable {
    package struct Member: Sendable {
        /// The key, unescaped.
        package var key: String
        /// Where the value lies in the line, as byte offsets.
        package var valueRange: Range<Int>
        package var isString: Bool
    }

    package var members: [Member]
    /// The offset of the closing brace, where a new member goes.
    package var closingBrace: Int
    /// The unescaped string value of the member asked for, as UTF-8, if it is a string and the
    /// record names it once. Bytes, not a `String`: the batch command hands them to a reader,
    /// which checks its input anyway.
    package var decodedUTF8: [UInt8]?

    /// The same as a string.
    package var decodedValue: String? { decodedUTF8.map { String(decoding: $0, as: UTF8.self) } }

    /// Reads `line` (without its line ending), decoding the string value of `field`.
    package init(_ line: [UInt8], decoding field: String, maxNestingDepth: Int = 64) throws(ConversionError) {
        var members: [Member] = []
        var closingBrace = 0
        var decoded: [UInt8]?
        let failure: JSONScanner.Failure? = { () -> JSONScanner.Failure? in
            var scanner = JSONScanner(bytes: line.span)
            do throws(JSONScanner.Failure) {
                try scanner.object(.root) { scanner, key, _, _ throws(JSONScanner.Failure) in
                    let pointer = JSONPointer.root.appending(key: key)
                    scanner.skipWhitespace()
                    let start = scanner.position
                    let isString = start < line.count && line[start] == UInt8(ascii: "\"")
                    if isString && key == field && !members.contains(where: { $0.key == field }) {
                        decoded = try scanner.stringUTF8(pointer)
                    } else {
                        try scanner.skipValue(pointer, maxDepth: maxNestingDepth)
                    }
                    members.append(Member(key: key, valueRange: start..<scanner.position, isString: isString))
                }
                closingBrace = scanner.position - 1
                scanner.skipWhitespace()
                guard scanner.isAtEnd else {
                    throw scanner.failure("invalid-json", "unexpected content after the record's object", .root)
                }
                return nil
            } catch {
                return error
            }
        }()
        if let failure {
            // A line that is JSON, but not an object, is refused as such.
            let isRootType = failure.code == "wrong-type" && failure.pointer.key == nil
            throw ConversionError(code: isRootType ? "not-an-object" : failure.code, message: failure.message,
                                  at: SourceLocation(byteOffset: failure.offset, in: line, jsonPointer: failure.pointer.description))
        }
        self.members = members
        self.closingBrace = closingBrace
        self.decodedUTF8 = members.count(where: { $0.key == field }) == 1 ? decoded : nil
    }

    /// What a record holds under one key.
    package enum Lookup {
        case absent
        case unique(Member)
        /// The key more than once: JSON leaves repeated keys to the reader, and readers differ
        /// (some keep the first, most the last), so a record that repeats a key it is read or
        /// written by has no one meaning, and is refused rather than half-converted.
        case repeated
    }

    /// The member named `key` (keys compared unescaped, so `"b\u006fdy"` is `"body"`). There is
    /// no way to ask for one member of several: a caller must decide what a repeated key means.
    package func lookup(_ key: String) -> Lookup {
        var found: Member?
        for member in members where member.key == key {
            guard found == nil else { return .repeated }
            found = member
        }
        return found.map(Lookup.unique) ?? .absent
    }
}
