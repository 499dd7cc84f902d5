import Testing
import MarkbridgeMarkdown

@Suite("cmark binding")
struct CmarkLinkTests {
    @Test("libcmark is linked and reports a 0.x version")
    func linked() {
        let parts = CmarkVersion.string.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts.first == "0")
    }
}
