@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// HTML and CSS compare names and keywords ASCII case-insensitively: upper-case ASCII matches,
/// and a non-ASCII character never folds into an ASCII one (Unicode lower-casing would turn a
/// Kelvin sign into `k`).
@Suite("Keywords match ASCII case-insensitively")
struct KeywordCaseTests {
    @Test("ASCII lower-casing leaves everything but A-Z alone")
    func asciiLowercased() throws {
        #expect("COLOR: Red".asciiLowercased() == "color: red")
        #expect("blac\u{212A}".asciiLowercased() == "blac\u{212A}")
        #expect("ÉCOLE İstanbul".asciiLowercased() == "École İstanbul")
        #expect("already lower".asciiLowercased() == "already lower")
    }

    @Test("Upper-case CSS keywords apply; a Kelvin sign does not make 'black'")
    func cssKeywords() throws {
        let read = try HTMLReader().read("<p><span style=\"COLOR: RED; FONT-WEIGHT: BOLD\">a</span> <span style=\"color: blac\u{212A}\">b</span></p>")
        let block = try #require(read.value.blocks.first)
        #expect(block.text == "a b")
        #expect(block.markups == [
            Markup(.strong, start: 0, end: 1),
            Markup(.color(CSSColor(red: 0xFF, green: 0, blue: 0)), start: 0, end: 1),
        ])
        #expect(read.diagnostics.contains { $0.code == "dropped-style" && $0.message.contains("blac\u{212A}") })
    }
}
