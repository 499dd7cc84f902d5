import Testing
@_spi(InlineTraversal) import MarkbridgeIR

@Suite("URL policy")
struct URLPolicyTests {
    @Test("A4, A5, A7, C9: script schemes in every disguise are rejected", arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\u{1}javascript:alert(1)",
        "java\tscript:alert(1)", "java\nscript:alert(1)", "java\rscript:x", "vbscript:x", "file:///etc/passwd",
        "livescript:x", "x-custom:y", "data:text/html;base64,PHNjcmlwdD4=",
    ])
    func rejected(url: String) {
        guard case .rejected = URLPolicy.default.check(url, for: .link) else {
            Issue.record("\(url.debugDescription) was allowed")
            return
        }
    }

    @Test("Allowed schemes and relative URLs pass, cleaned", arguments: [
        ("https://example.com/a b", "https://example.com/a b"), ("  http://x\t/y\n ", "http://x/y"),
        ("mailto:a@b.c", "mailto:a@b.c"), ("tel:+1-555", "tel:+1-555"), ("/relative/path", "/relative/path"),
        ("page.html#top", "page.html#top"), ("?q=1", "?q=1"), ("//cdn.example/x", "//cdn.example/x"),
        ("1http:x", "1http:x"),
    ])
    func allowed(url: String, cleaned: String) {
        #expect(URLPolicy.default.check(url, for: .link) == .allowed(cleaned))
    }

    @Test("The scheme is found as the WHATWG URL parser's scheme states find it, lower-cased", arguments: [
        ("https://x", "https"), ("HTTPS://x", "https"), ("MailTo:a@b", "mailto"), ("a+b-c.d9:x", "a+b-c.d9"),
        ("x:", "x"), ("1http:x", nil), ("+a:x", nil), ("-a:x", nil), (".a:x", nil), (":x", nil), ("http", nil),
        ("ht tp:x", nil), ("a,b:x", nil), ("a@b:x", nil), ("a[b:x", nil), ("a`b:x", nil), ("a{b:x", nil),
        ("h\u{E9}:x", nil), ("", nil), ("//host/a:b", nil), ("a/b:c", nil),
    ] as [(String, String?)])
    func scheme(url: String, scheme: String?) {
        #expect(URLPolicy.scheme(of: url) == scheme)
    }

    @Test("The scheme agrees with the scheme states read one character at a time, over random URLs")
    func schemeMatchesCharacterReading() {
        var random = SystemRandomNumberGenerator()
        // Letters, digits and the three marks a scheme may hold, the bytes just outside each of
        // those ranges, and what ends a scheme or is no ASCII at all.
        let alphabet = Array("aAzZ09+-.,@[`{/:é \t%")
        for _ in 0..<5_000 {
            let url = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            var expected: String?
            for (offset, character) in url.enumerated() {
                if character == ":" {
                    if offset > 0 { expected = String(url.prefix(offset)).lowercased() }
                    break
                }
                let isLetter = character.isASCII && character.isLetter
                let isOther = character.isASCII && (character.isNumber || "+-.".contains(character))
                if !(isLetter || (offset > 0 && isOther)) { break }
            }
            #expect(URLPolicy.scheme(of: url) == expected, "\(url.debugDescription)")
        }
    }

    @Test("The rejection says which scheme")
    func reason() {
        #expect(URLPolicy.default.check("JavaScript:x", for: .link) == .rejected("scheme 'javascript:' is not allowed"))
    }

    @Test("A6: raster data images only under the option, never SVG, never as links")
    func dataImages() {
        let png = "data:image/png;base64,iVBORw0KGgo="
        let permissive = URLPolicy(allowsDataImages: true)
        #expect(URLPolicy.default.check(png, for: .image) == .rejected("scheme 'data:' is not allowed"))
        #expect(permissive.check(png, for: .image) == .allowed(png))
        #expect(permissive.check(png, for: .link) == .rejected("scheme 'data:' is not allowed"))
        #expect(permissive.check("data:image/svg+xml,<svg/>", for: .image) == .rejected("scheme 'data:' is not allowed"))
    }

    @Test("C9: over-long URLs are rejected")
    func length() {
        let policy = URLPolicy(maxLength: 10)
        #expect(policy.check("https://example.com", for: .link) == .rejected("URL is 19 bytes, over the limit of 10"))
    }

    @Test("A configured scheme list allows exactly its schemes, short lists and long ones alike")
    func configuredSchemes() {
        let few = URLPolicy(allowedSchemes: ["https", "ftp"])
        #expect(few.check("FTP://files.example/a", for: .link) == .allowed("FTP://files.example/a"))
        #expect(few.check("http://example.com", for: .link) == .rejected("scheme 'http:' is not allowed"))
        // Past eight schemes the set is hashed rather than scanned: the same answers.
        let many = URLPolicy(allowedSchemes: ["https", "http", "mailto", "tel", "ftp", "sftp", "irc", "news", "xmpp", "sms"])
        #expect(many.check("Sms:+1-555", for: .link) == .allowed("Sms:+1-555"))
        #expect(many.check("https://example.com", for: .link) == .allowed("https://example.com"))
        #expect(many.check("javascript:alert(1)", for: .link) == .rejected("scheme 'javascript:' is not allowed"))
        #expect(many.check("gopher://x", for: .link) == .rejected("scheme 'gopher:' is not allowed"))
    }

    @Test("Unrestricted is a mode asked for by name: no combination of fields lets a script URL through")
    func unrestrictedIsExplicit() {
        // The fields of `unrestricted`, set one by one, are still an allowlist (of no schemes).
        let lookalike = URLPolicy(allowedSchemes: [], allowsRelativeURLs: true, allowsDataImages: true, maxLength: .max)
        #expect(!lookalike.isUnrestricted)
        #expect(lookalike.check("javascript:alert(1)", for: .link) == .rejected("scheme 'javascript:' is not allowed"))
        #expect(lookalike.check("/relative", for: .link) == .allowed("/relative"))
        #expect(lookalike != URLPolicy.unrestricted)
        #expect(URLPolicy.unrestricted.isUnrestricted)
        #expect(URLPolicy.unrestricted.check("java\tscript:alert(1)", for: .link) == .allowed("java\tscript:alert(1)"))
        // Changing a field of the unrestricted policy keeps it unrestricted: the mode is not inferred.
        var changed = URLPolicy.unrestricted
        changed.maxLength = 10
        #expect(changed.isUnrestricted)
    }
}

/// The embed host allowlist finds the host a browser would load from, whatever the spelling.
@Suite("URL policy: embed hosts")
struct EmbedHostTests {
    @Test("The host as the WHATWG URL parser finds it, or none", arguments: [
        ("https://YouTube.com/embed/1", "youtube.com"), ("https://youtube.com:443/x", "youtube.com"), ("https://youtube.com./x", "youtube.com"),
        ("https:youtube.com/x", "youtube.com"), ("https:\\\\youtube.com\\x", "youtube.com"), ("https://a@b.example/", "b.example"),
        ("https://youtube.com\\@evil.test/", "youtube.com"), ("https://evil.test\\@youtube.com/", "evil.test"), ("https://evil.test#@youtube.com", "evil.test"),
        ("https://evil.test?@youtube.com", "evil.test"),
    ])
    func host(_ url: String, _ host: String) {
        #expect(URLPolicy.embedHost(of: url) == host)
    }

    @Test("No host where none is plain: relative, other schemes, percent-encoded, internationalised, IPv6", arguments: [
        "/u/x.html", "//youtube.com/x", "javascript://youtube.com/%0aalert(1)", "https://you%74ube.com/", "https://yöutube.com/", "https://[::1]/", "https:///",
    ])
    func noHost(_ url: String) {
        #expect(URLPolicy.embedHost(of: url) == nil)
    }

    @Test("Exact hosts match themselves; *.suffix matches subdomains only, as in a Content Security Policy")
    func patterns() {
        #expect(URLPolicy.host("youtube.com", matches: "YouTube.com."))
        #expect(!URLPolicy.host("www.youtube.com", matches: "youtube.com"))
        #expect(URLPolicy.host("player.vimeo.com", matches: "*.vimeo.com"))
        #expect(URLPolicy.host("a.b.vimeo.com", matches: "*.vimeo.com"))
        #expect(!URLPolicy.host("vimeo.com", matches: "*.vimeo.com"))
        #expect(!URLPolicy.host("evilvimeo.com", matches: "*.vimeo.com"))
    }

    @Test("Relative frame and object sources are link-only by default; media keep theirs until an allowlist is set")
    func relative() {
        #expect(URLPolicy.default.check("/u/x.html", for: .embed(.iframe))
            == .linkOnly("/u/x.html", reason: "a relative or '//host' source of an iframe would load from the page's own site; give a base URL to embed it"))
        #expect(URLPolicy.default.check("//evil.example/x", for: .embed(.object)) != .allowed("//evil.example/x"))
        #expect(URLPolicy.default.check("/a.mp4", for: .embed(.video)) == .allowed("/a.mp4"))
        let listed = URLPolicy(embedHosts: ["cdn.example"])
        #expect(listed.check("/a.mp4", for: .embed(.video)) == .linkOnly("/a.mp4", reason: "its source has no host that the embed allowlist could name"))
        #expect(listed.check("https://cdn.example/a.mp4", for: .embed(.audio)) == .allowed("https://cdn.example/a.mp4"))
        #expect(URLPolicy(allowsRelativeURLs: false).check("/u/x.html", for: .embed(.iframe)) == .rejected("relative URLs are not allowed"))
    }

    @Test("--allow-unsafe-urls lets every source through, but an allowlist set beside it still holds")
    func unrestricted() {
        #expect(URLPolicy.unrestricted.check("/u/x.html", for: .embed(.iframe)) == .allowed("/u/x.html"))
        var listed = URLPolicy.unrestricted
        listed.embedHosts = ["cdn.example"]
        #expect(listed.check("https://evil.test/", for: .embed(.iframe)) == .linkOnly("https://evil.test/", reason: "host 'evil.test' is not on the embed allowlist"))
        #expect(listed.check("https://evil.test/", for: .link) == .allowed("https://evil.test/"))
    }
}
