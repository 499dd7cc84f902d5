import Testing
@_spi(Internals) import MarkbridgeIR

@Suite("URL policy")
struct URLPolicyTests {
    @Test("Script schemes in every disguise are rejected", arguments: [
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

    @Test("The rejection says which scheme")
    func reason() {
        #expect(URLPolicy.default.check("JavaScript:x", for: .link) == .rejected("scheme 'javascript:' is not allowed"))
    }

    @Test("Raster data images only under the option, never SVG, never as links")
    func dataImages() {
        let png = "data:image/png;base64,iVBORw0KGgo="
        let permissive = URLPolicy(allowsDataImages: true)
        #expect(URLPolicy.default.check(png, for: .image) == .rejected("scheme 'data:' is not allowed"))
        #expect(permissive.check(png, for: .image) == .allowed(png))
        #expect(permissive.check(png, for: .link) == .rejected("scheme 'data:' is not allowed"))
        #expect(permissive.check("data:image/svg+xml,<svg/>", for: .image) == .rejected("scheme 'data:' is not allowed"))
    }

    @Test("Over-long URLs are rejected")
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
