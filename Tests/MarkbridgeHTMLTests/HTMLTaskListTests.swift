import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR

/// Task list items in HTML as GitHub renders them: a checkbox before anything else of a list
/// item is the item's task state, read and written as a disabled checkbox; a checkbox anywhere
/// else stays a form control.
@Suite("HTML task lists")
struct HTMLTaskListTests {
    @Test("GitHub's and cmark-gfm's task list HTML reads as tasks, tight or loose")
    func read() throws {
        let html = #"<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled> todo</li><li><input checked="" disabled="" type="checkbox" /> done</li><li><p><input type="checkbox" disabled> loose</p></li><li>plain</li></ul>"#
        let read = try HTMLReader().read(html)
        #expect(read.diagnostics.isEmpty)
        #expect(read.value.blocks.map(\.taskState) == [.unchecked, .checked, .unchecked, nil])
        #expect(read.value.blocks.map(\.text) == ["todo", "done", "loose", "plain"])
    }

    @Test("A checkbox after an item's text, or outside a list, is a form control, reported")
    func notATask() throws {
        let read = try HTMLReader().read(#"<ul><li>a <input type="checkbox"></li></ul><p><input type="checkbox" checked> b</p>"#)
        #expect(read.value.blocks.allSatisfy { $0.taskState == nil })
        #expect(read.diagnostics.map(\.code) == ["form-control"])
    }

    @Test("The writer writes the disabled checkbox, and reads it back")
    func written() throws {
        let document = Document(blocks: [
            Block(.unorderedListItem, text: "todo", taskState: .unchecked),
            Block(.orderedListItem(number: 1), text: "", taskState: .checked),
        ])
        let html = String(decoding: try HTMLWriter().write(document).value, as: UTF8.self)
        #expect(html == "<ul>\n<li><input type=\"checkbox\" disabled> todo</li>\n</ul>\n<ol>\n<li><input type=\"checkbox\" checked disabled></li>\n</ol>\n")
        #expect(try HTMLReader().read(html).value == document)
    }
}
