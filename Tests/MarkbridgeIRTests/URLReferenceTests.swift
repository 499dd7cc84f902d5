import MarkbridgeIR
import Testing

/// Relative URLs resolved against a base (`--base-url`), as RFC 3986 section 5.4 lists them.
@Suite("URL references: RFC 3986 resolution")
struct URLReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    /// RFC 3986, 5.4.1 and 5.4.2.
    static let examples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"),
        ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
    ]

    @Test("The RFC's examples")
    func examples() {
        for (reference, expected) in Self.examples {
            #expect(URLReference.resolve(reference, against: Self.base) == expected, "\(reference)")
        }
    }

    /// By characters, a delimiter that a combining mark follows is one character with it: the
    /// slash of an absolute path, the `?` and `#` were missed, and the marks moved or were lost.
    @Test("A delimiter that a combining mark follows is a delimiter all the same")
    func combiningMarks() {
        #expect(URLReference.resolve("/\u{301}g", against: Self.base) == "http://a/\u{301}g")
        #expect(URLReference.resolve("g?\u{301}y", against: Self.base) == "http://a/b/c/g?\u{301}y")
        #expect(URLReference.resolve("g#\u{301}s", against: Self.base) == "http://a/b/c/g#\u{301}s")
        #expect(URLReference.resolve("//\u{301}h/x", against: Self.base) == "http://\u{301}h/x")
        #expect(URLReference.resolve("g", against: "http://a/b/\u{301}c") == "http://a/b/g")
        #expect(URLReference.resolve("../g", against: "http://a/b/c/\u{301}d") == "http://a/b/g")
    }
}
