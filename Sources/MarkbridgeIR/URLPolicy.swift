@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// Which link and image URLs may reach output: an allowlist of schemes, not a blocklist.
///
/// Checked after entity decoding (the reader's job) and after the clean-up the WHATWG URL parser
/// does before it looks for a scheme: leading and trailing C0 controls and spaces stripped, and
/// every ASCII tab, LF and CR removed. So `java\tscript:`, `\u{1}javascript:` and `JaVaScRiPt:`
/// are all the `javascript` scheme, and all rejected.
public struct URLPolicy: Hashable, Sendable {
    /// Lower-case schemes that may appear. Relative URLs have none and are governed separately.
    public var allowedSchemes: Set<String>
    public var allowsRelativeURLs: Bool
    /// Whether `data:image/png|gif|jpeg|webp` may be an image source (never a link; never SVG).
    public var allowsDataImages: Bool
    /// Longest URL kept, in UTF-8 bytes; longer ones are dropped with a diagnostic.
    public var maxLength: Int
    /// Whether every URL passes unchecked. Only ``unrestricted`` sets it: no combination of
    /// the other fields lets `javascript:` through, so a policy built from them is always an
    /// allowlist, and unsafe output is asked for by name.
    public private(set) var isUnrestricted = false
    /// Hosts embedded content (``Embed``, every kind) may come from: exact host names
    /// (`youtube.com`) and `*.suffix` patterns, which match subdomains only (`*.vimeo.com`
    /// matches `player.vimeo.com`, not `vimeo.com`), as in a Content Security Policy. Nil lets
    /// every host through; an empty set none. Held even by ``unrestricted``: a caller who names
    /// hosts asked for exactly those.
    public var embedHosts: Set<String>?

    public init(
        allowedSchemes: Set<String> = ["http", "https", "mailto", "tel"],
        allowsRelativeURLs: Bool = true,
        allowsDataImages: Bool = false,
        maxLength: Int = 8192,
        embedHosts: Set<String>? = nil
    ) {
        self.allowedSchemes = allowedSchemes
        self.allowsRelativeURLs = allowsRelativeURLs
        self.allowsDataImages = allowsDataImages
        self.maxLength = maxLength
        self.embedHosts = embedHosts
    }

    public static let `default` = URLPolicy()

    /// Lets every URL through, unchanged: for callers that explicitly ask for unsafe output
    /// (the command's `--allow-unsafe-urls`).
    public static let unrestricted: URLPolicy = {
        var policy = URLPolicy(allowedSchemes: [], allowsDataImages: true, maxLength: .max)
        policy.isUnrestricted = true
        return policy
    }()

    public enum Verdict: Hashable, Sendable {
        /// The URL may be used, in this cleaned-up spelling.
        case allowed(String)
        /// The URL must not reach output, for this reason (a sentence fragment).
        case rejected(String)
        /// An embed source that may be linked to, in this cleaned-up spelling, but not embedded,
        /// for this reason: readers keep the embed, and every writer writes it as a link to its
        /// source, reported as `embed-host-refused`. Only ``Use/embed(_:)`` gives it.
        case linkOnly(String, reason: String)
    }

    public enum Use: Hashable, Sendable {
        case link, image
        /// The source of embedded content of this kind: the web's own schemes only, never
        /// `data:`, `mailto:` or `tel:`, whatever else the policy allows; for a frame or an
        /// object, a host of its own (see ``check(_:for:)``); and a host on ``embedHosts``.
        case embed(Embed.Kind)
    }

    /// Whether `url` may be used so. A frame or an object with no host of its own (a relative
    /// or `//host` source) is only linked to: it would load from wherever the output is served,
    /// often the site's own origin, whose uploads are what an attacker controls (resolve it
    /// with a base URL to embed it). Video and audio run no script, so a relative source is
    /// theirs to keep, unless ``embedHosts`` is set: a relative URL has no host on it.
    public func check(_ url: String, for use: Use) -> Verdict {
        if isUnrestricted {
            guard case .embed = use, embedHosts != nil else { return .allowed(url) }
            return checkedHost(url, cleaned: Self.cleaned(url))
        }
        let cleaned = Self.cleaned(url)
        if cleaned.utf8.count > maxLength {
            return .rejected("URL is \(cleaned.utf8.count) bytes, over the limit of \(maxLength)")
        }
        guard let scheme = Self.scheme(of: cleaned) else {
            guard allowsRelativeURLs else { return .rejected("relative URLs are not allowed") }
            guard case .embed(let kind) = use else { return .allowed(cleaned) }
            if embedHosts != nil { return checkedHost(cleaned, cleaned: cleaned) }
            return kind.runsDocuments
                ? .linkOnly(cleaned, reason: "a relative or '//host' source of an \(kind.rawValue) would load from the page's own site; give a base URL to embed it")
                : .allowed(cleaned)
        }
        if case .embed = use {
            guard (scheme == "https" || scheme == "http") && allows(scheme: scheme) else {
                return .rejected("scheme '\(scheme):' cannot be embedded")
            }
            return checkedHost(cleaned, cleaned: cleaned)
        }
        if allows(scheme: scheme) { return .allowed(cleaned) }
        if scheme == "data", use == .image, allowsDataImages, Self.isRasterDataImage(cleaned) {
            return .allowed(cleaned)
        }
        return .rejected("scheme '\(scheme):' is not allowed")
    }

    /// Whether `scheme` (lower case) is allowed. A few schemes (the default has four) are
    /// compared one by one: each is a small string, compared in two words, where hashing one
    /// for the set cost more than comparing them all, on every link and image.
    private func allows(scheme: String) -> Bool {
        allowedSchemes.count <= 8 ? allowedSchemes.contains { $0 == scheme } : allowedSchemes.contains(scheme)
    }

    /// WHATWG URL: strip leading and trailing C0 control or space, remove all ASCII tab or newline.
    package static func cleaned(_ url: String) -> String {
        let bytes = url.utf8.span
        guard !bytes.isEmpty else { return url }
        if bytes[0] > 0x20 && bytes[bytes.count - 1] > 0x20 {
            let tab = SIMD16<UInt8>(repeating: 0x09), lineFeed = SIMD16<UInt8>(repeating: 0x0A), carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
            let firstBreak = ByteScan.firstIndex(in: bytes, whereBlock: { ($0 .== tab) .| ($0 .== lineFeed) .| ($0 .== carriageReturn) },
                                                 whereByte: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
            if firstBreak == nil { return url }
        }
        var scalars = Substring(url).unicodeScalars
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        var out = String.UnicodeScalarView()
        for scalar in scalars where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            out.append(scalar)
        }
        return String(out)
    }

    /// WHATWG URL, scheme start and scheme states: an ASCII letter, then letters, digits, `+`,
    /// `-` or `.`, then `:`. Anything else first means there is no scheme: the URL is relative.
    /// Returned in lower case. Read through the string's bytes in place: iterating its UTF-8
    /// view and cutting a substring cost about 700 instructions a link.
    package static func scheme(of url: String) -> String? {
        let bytes = url.utf8.span
        var hasUpperCase = false
        for length in bytes.indices {
            switch bytes[length] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                hasUpperCase = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if length == 0 { return nil }
            case UInt8(ascii: ":"):
                // ASCII up to here, so always valid.
                guard length > 0, let ascii = try? UTF8Span(validating: bytes.extracting(0..<length)) else { return nil }
                let scheme = String(copying: ascii)
                return hasUpperCase ? scheme.asciiLowercased() : scheme
            default:
                return nil
            }
        }
        return nil
    }

    /// The first bidirectional control in `url`, if any: the embeddings and overrides
    /// (U+202A-U+202E), the isolates (U+2066-U+2069) and the marks (U+200E, U+200F, U+061C).
    /// A URL holding one can display as another address (an override turns `moc.evil` around),
    /// so readers keep the link and report it (`bidi-in-url`); in link text they are text.
    package static func bidiControl(in url: String) -> Unicode.Scalar? {
        // Every one of them is encoded with a lead byte of 0xE2 or 0xD8: most URLs have neither.
        // Looked for sixteen bytes at a time: byte by byte, this check on every link cost
        // reading JSON 0.8% of its instructions.
        let lead1 = SIMD16<UInt8>(repeating: 0xE2), lead2 = SIMD16<UInt8>(repeating: 0xD8)
        guard ByteScan.firstIndex(in: url.utf8.span, whereBlock: { ($0 .== lead1) .| ($0 .== lead2) },
                                  whereByte: { $0 == 0xE2 || $0 == 0xD8 }) != nil else { return nil }
        return url.unicodeScalars.first { scalar in
            (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
        }
    }

    /// The `bidi-in-url` message for `url`, or nil where it holds no bidirectional control.
    package static func bidiWarning(_ url: String, _ what: @autoclosure () -> String) -> String? {
        guard let control = bidiControl(in: url) else { return nil }
        let hex = String(control.value, radix: 16, uppercase: true)
        return "\(what()) kept, but its URL holds the bidirectional control U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex), which can make it display as another address"
    }

    private static func isRasterDataImage(_ url: String) -> Bool {
        let lowered = url.asciiLowercased()
        return ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { prefix in
            lowered.hasPrefix(prefix + ";") || lowered.hasPrefix(prefix + ",")
        }
    }
}
