import Testing
@testable import MarkbridgeIR
import MarkbridgeTestSupport

/// `CodeLanguage.normalized` returns a one-word info string as it is, told by its bytes,
/// before any scalar walk: over random strings of words, separators and the scalars whose
/// bytes look like a separator's lead (U+00A0 and U+20AC share 0xC2 and 0xE2 with the C1
/// controls and U+2028), it must give what the first-word rule gives, spelled out here.
@Suite("Code block languages")
struct CodeLanguageTests {
    /// The rule, scalar by scalar: skip separators, keep the run of others after them.
    static func firstWord(_ raw: String) -> String? {
        func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
        }
        var word = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            if isSeparator(scalar) {
                if !word.isEmpty { break }
            } else {
                word.append(scalar)
            }
        }
        return word.isEmpty ? nil : String(word)
    }

    @Test("One word comes back as it was given")
    func oneWord() {
        #expect(CodeLanguage.normalized("swift") == "swift")
        #expect(CodeLanguage.normalized("c++") == "c++")
        #expect(CodeLanguage.normalized("язык€") == "язык€")
        #expect(CodeLanguage.normalized("") == nil)
    }

    @Test("The first word of anything else")
    func firstWordOfMore() {
        #expect(CodeLanguage.normalized("swift title=a.swift") == "swift")
        #expect(CodeLanguage.normalized("  \tpython\n") == "python")
        #expect(CodeLanguage.normalized("go\u{2028}x") == "go")
        #expect(CodeLanguage.normalized("a\u{85}b") == "a")
        #expect(CodeLanguage.normalized("\u{A0}rust") == "\u{A0}rust")
        #expect(CodeLanguage.normalized(" \u{2029} ") == nil)
    }

    @Test("Random info strings give the first-word rule's result")
    func randomInfoStrings() {
        var random = SeededRandom(seed: 2_028)
        let scalars: [Unicode.Scalar] = ["a", "z", "+", "-", "#", "1", " ", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{7F}",
                                         "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{FF}", "\u{2028}", "\u{2029}", "\u{20AC}",
                                         "\u{2000}", "ж", "\u{1F600}"]
        for _ in 0..<20_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<random.below(9) { view.append(random.pick(scalars)) }
            let raw = String(view)
            #expect(CodeLanguage.normalized(raw) == Self.firstWord(raw), "\(raw.debugDescription)")
        }
    }
}
