@_spi(MarkbridgeBytes) import MarkbridgeBytes

extension Embed.Kind {
    /// Whether it shows a document, which may run script (a frame, an object), rather than
    /// media, which cannot (video, audio).
    package var runsDocuments: Bool {
        switch self {
        case .iframe, .object: true
        case .video, .audio: false
        }
    }
}

extension URLPolicy {
    /// `url` (in this spelling) allowed when ``embedHosts`` is nil or names its host, only
    /// linked to otherwise.
    func checkedHost(_ spelling: String, cleaned: String) -> Verdict {
        guard let embedHosts else { return .allowed(spelling) }
        guard let host = Self.embedHost(of: cleaned) else {
            return .linkOnly(spelling, reason: "its source has no host that the embed allowlist could name")
        }
        if embedHosts.contains(where: { Self.host(host, matches: $0) }) { return .allowed(spelling) }
        return .linkOnly(spelling, reason: "host '\(host)' is not on the embed allowlist")
    }

    /// Whether `host` (lower case, as ``embedHost(of:)`` gives it) is what `pattern` names: the
    /// same host, or for `*.suffix` a subdomain of `suffix`. Patterns are compared in lower
    /// case, a trailing dot ignored.
    package static func host(_ host: String, matches pattern: String) -> Bool {
        var pattern = pattern.asciiLowercased()
        if pattern.hasSuffix(".") { pattern.removeLast() }
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst(1)
            return host.count > suffix.count && host.hasSuffix(suffix)
        }
        return host == pattern
    }

    /// Whether `pattern` is something ``embedHosts`` can hold: a host name of letters, digits,
    /// `-` and `_` in dot-separated labels, optionally after `*.`.
    package static func isEmbedHostPattern(_ pattern: String) -> Bool {
        let name = pattern.hasPrefix("*.") ? pattern.dropFirst(2) : Substring(pattern)
        return !name.isEmpty && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy(isHostNameByte)
        }
    }

    /// The host of an absolute `http:` or `https:` URL as the WHATWG URL parser finds it, in
    /// lower case without a trailing dot; nil when it is not a plain ASCII name.
    ///
    /// WHATWG URL, special schemes: any run of `/` and `\` follows the scheme (none at all is
    /// allowed too: `https:host`), the authority ends at the first `/`, `\`, `?` or `#`, and
    /// its host follows the last `@`. So `https://a.com\@b.com` loads `a.com`, and
    /// `https://a.com@b.com` loads `b.com`. A percent-encoded, internationalised or IPv6 host
    /// is nil: the browser would rewrite it, and no pattern matches what we cannot rewrite the
    /// same way, which only ever refuses an embed, never lets one through.
    package static func embedHost(of url: String) -> String? {
        guard let scheme = scheme(of: url), scheme == "https" || scheme == "http" else { return nil }
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var start = colon + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: "\\") { start += 1 }
        var end = start
        while end < bytes.count, !"/\\?#".utf8.contains(bytes[end]) { end += 1 }
        var authority = bytes[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if let port = authority.lastIndex(of: UInt8(ascii: ":")) { authority = authority[..<port] }
        var host = authority.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 0x20 : $0 }
        if host.last == UInt8(ascii: ".") { host.removeLast() }
        guard !host.isEmpty, host.allSatisfy({ isHostNameByte($0) || $0 == UInt8(ascii: ".") }) else { return nil }
        return String(decoding: host, as: UTF8.self)
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
