/// Paths taken apart at the byte `/`, as the kernel takes them. Swift's `Character` operations
/// would miss a slash that a combining mark follows (`/\u{301}` is one character), and a folder
/// named to start with a mark would then pass as part of a file name: opened with `openat`, its
/// slash walks through a folder the tree walk never checked for a planted link.
enum PathText {
    static let slash = UInt8(ascii: "/")

    /// The names between slashes, empty ones left out.
    static func components(_ path: String) -> [Substring] {
        path.unicodeScalars.split(separator: "/").map { Substring($0) }
    }

    /// Where the last slash is, if any.
    static func lastSlash(in path: Substring) -> String.Index? {
        path.utf8.lastIndex(of: slash)
    }

    /// What stands before `index` and after it, cut between scalars (a `Substring` subscript
    /// would round the index down to a character's start).
    static func split(_ path: Substring, at index: String.Index) -> (before: Substring, after: Substring) {
        let scalars = path.unicodeScalars
        return (Substring(scalars[..<index]), Substring(scalars[scalars.index(after: index)...]))
    }

    static func hasSlash(_ path: String) -> Bool { path.utf8.contains(slash) }

    static func endsWithSlash(_ path: String) -> Bool { path.utf8.last == slash }

    static func endsWithSlash(_ path: Substring) -> Bool { path.utf8.last == slash }

    /// Whether `path` is inside `folder`, compared byte by byte (`String`'s `==` and `hasPrefix`
    /// take a precomposed and a decomposed name as one, which the file system does not).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path.utf8.starts(with: (endsWithSlash(folder) ? folder : folder + "/").utf8)
    }

    static func isSame(_ path: String, _ other: String) -> Bool { path.utf8.elementsEqual(other.utf8) }
}
