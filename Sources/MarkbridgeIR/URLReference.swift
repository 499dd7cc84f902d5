/// Resolving a relative URL against a base, per RFC 3986 section 5.2 (the algorithm browsers
/// agree with for the http and https URLs stored content links to). Pure string work: nothing
/// is fetched or looked up.
package enum URLReference {
    struct Parts {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        /// RFC 3986, appendix B, by hand: scheme, authority, path, query, fragment. The
        /// delimiters are found by their bytes and the parts cut between scalars: by characters,
        /// a delimiter that a combining mark follows is one character with it, and missed.
        init(_ reference: String) {
            var rest = Substring(reference)
            if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
                fragment = String(rest.scalars(after: hash))
                rest = rest.scalars(before: hash)
            }
            if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
                query = String(rest.scalars(after: question))
                rest = rest.scalars(before: question)
            }
            if let scheme = URLPolicy.scheme(of: String(rest)), let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")) {
                self.scheme = scheme
                rest = rest.scalars(after: colon)
            }
            if rest.utf8.starts(with: "//".utf8) {
                rest = Substring(rest.unicodeScalars.dropFirst(2))
                let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
                authority = String(rest.scalars(before: end))
                rest = Substring(rest.unicodeScalars[end...])
            }
            path = String(rest)
        }

        var string: String {
            var out = ""
            if let scheme { out += scheme + ":" }
            if let authority { out += "//" + authority }
            out += path
            if let query { out += "?" + query }
            if let fragment { out += "#" + fragment }
            return out
        }
    }

    /// `reference` resolved against `base`; `reference` unchanged when it has a scheme, or when
    /// `base` has none (a base must be absolute).
    public static func resolve(_ reference: String, against base: String) -> String {
        let relative = Parts(reference)
        let baseParts = Parts(base)
        guard relative.scheme == nil, baseParts.scheme != nil else { return reference }
        var target = Parts("")
        target.scheme = baseParts.scheme
        target.fragment = relative.fragment
        if relative.authority != nil {
            target.authority = relative.authority
            target.path = removingDotSegments(relative.path)
            target.query = relative.query
        } else if relative.path.isEmpty {
            target.authority = baseParts.authority
            target.path = baseParts.path
            target.query = relative.query ?? baseParts.query
        } else {
            target.authority = baseParts.authority
            target.query = relative.query
            if relative.path.utf8.first == UInt8(ascii: "/") {
                target.path = removingDotSegments(relative.path)
            } else {
                target.path = removingDotSegments(merge(base: baseParts, relativePath: relative.path))
            }
        }
        return target.string
    }

    private static func merge(base: Parts, relativePath: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + relativePath }
        guard let slash = base.path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return relativePath }
        return String(Substring(base.path.unicodeScalars[...slash])) + relativePath
    }

    /// RFC 3986, 5.2.4.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        var endsWithSlash = false
        let absolute = path.utf8.first == UInt8(ascii: "/")
        let segments = path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map { Substring($0) }
        for (index, segment) in segments.enumerated() {
            if index == 0 && absolute { continue }
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                endsWithSlash = isLast
            case "..":
                if !output.isEmpty { output.removeLast() }
                endsWithSlash = isLast
            default:
                output.append(segment)
                endsWithSlash = false
            }
        }
        var result = (absolute ? "/" : "") + output.joined(separator: "/")
        if endsWithSlash && result.utf8.last != UInt8(ascii: "/") { result += "/" }
        return result
    }
}

extension Substring {
    /// What stands after `index`, cut between scalars (a `Substring` subscript would round the
    /// index down to a character's start).
    fileprivate func scalars(after index: Index) -> Substring { Substring(unicodeScalars[unicodeScalars.index(after: index)...]) }

    /// What stands before `index`, cut between scalars.
    fileprivate func scalars(before index: Index) -> Substring { Substring(unicodeScalars[..<index]) }
}
