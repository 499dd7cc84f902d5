/// Where a value sits in a markup JSON document, kept as indices and spelled out (RFC 6901)
/// only when an error or a diagnostic needs it: building the string for every value read would
/// cost more than reading the value.
///
/// The schema is fixed, so a pointer is at most a paragraph index, a markup index and a key:
/// `/paragraphs/3/markups/1/end`, or a table cell's `/paragraphs/3/cells/0/start`.
struct JSONPointer {
    /// What inside a paragraph the pointer is at. One optional for both, so the pointer stays
    /// as small as it was with markups alone: it is passed to every scanner call.
    enum Member {
        case markup(Int)
        case cell(Int)
    }

    var paragraph: Int?
    var member: Member?
    var key: String?

    static let root = JSONPointer()

    func appending(key: String) -> JSONPointer {
        var copy = self
        copy.key = key
        return copy
    }

    func paragraph(_ index: Int) -> JSONPointer {
        JSONPointer(paragraph: index)
    }

    func markup(_ index: Int) -> JSONPointer {
        JSONPointer(paragraph: paragraph, member: .markup(index))
    }

    func cell(_ index: Int) -> JSONPointer {
        JSONPointer(paragraph: paragraph, member: .cell(index))
    }

    var description: String {
        var out = ""
        if let paragraph { out += "/paragraphs/\(paragraph)" }
        switch member {
        case .markup(let index): out += "/markups/\(index)"
        case .cell(let index): out += "/cells/\(index)"
        case nil: break
        }
        if let key { out += "/" + Self.escape(key) }
        return out
    }

    /// RFC 6901: `~` is written `~0` and `/` is written `~1` in a reference token.
    static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
