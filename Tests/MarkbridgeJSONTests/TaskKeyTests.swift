import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON

/// `task`: a list item's task state, an optional key absent from every plain item, so old
/// output and old readers are unaffected.
@Suite("Markup JSON: task")
struct TaskKeyTests {
    @Test("task is read and written on ULI and OLI; without it an item is plain, as before")
    func readAndWritten() throws {
        let input = #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"ULI","text":"a","task":"unchecked"},{"type":"OLI","text":"b","number":2,"task":"checked"},{"type":"ULI","text":"c"}]}"#
        let read = try MarkupJSONReader().read(input)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.blocks.map(\.taskState) == [.unchecked, .checked, nil])
        #expect(String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self) == input + "\n")
    }

    @Test("task on a block that is no list item is ignored and reported; an unknown state is refused")
    func misplacedAndInvalid() throws {
        let read = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"P","text":"p","task":"checked"}]}"#)
        #expect(read.diagnostics.map(\.code) == ["ignored-field"])
        #expect(read.value.blocks.first?.taskState == nil)
        #expect(read.value.invariantViolations().isEmpty)
        do {
            _ = try MarkupJSONReader().read(#"{"paragraphs":[{"type":"ULI","text":"a","task":"done"}]}"#)
            Issue.record("an unknown task state was read")
        } catch {
            #expect(error.code == "invalid-value")
            #expect(error.message.contains("unknown task state 'done'"), "\(error.message)")
        }
    }

    @Test("The IR's invariants refuse a task state on a block that is no list item, and canonical form drops it")
    func invariant() {
        let document = Document(blocks: [Block(.paragraph, text: "p", taskState: .checked)])
        #expect(document.invariantViolations().map(\.reason) == ["a P that is no list item has task state checked"])
        #expect(document.canonicalized().blocks.first?.taskState == nil)
    }
}
