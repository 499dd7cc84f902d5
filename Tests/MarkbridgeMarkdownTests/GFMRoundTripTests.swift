import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// IR -> GFM -> IR through cmark-gfm: generated documents, with tables and strikes as the
/// generator draws them and task states on their list items, written with `--to gfm` and read
/// back with `--from gfm`, are the same IR but for what the writer reported: a task whose item
/// is written as an HTML block (`task-flattened`) reads back as a plain item. Without HTML,
/// where nearly every generated document loses something reported, the tasks' own cases are
/// spelled out.
@Suite("GFM round trips", .enabled(if: GFMAvailability.hasLibrary, "cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev)"))
struct GFMRoundTripTests {
    /// The document with every list item made a task, checked and unchecked by turns, but
    /// every third left plain.
    static func withTasks(_ document: Document) -> Document {
        var copy = document
        var items = 0
        for index in copy.blocks.indices where copy.blocks[index].kind.isListItem {
            items += 1
            copy.blocks[index].taskState = items % 3 == 0 ? nil : TaskState(isChecked: items % 3 == 1)
        }
        return copy
    }

    static func write(_ document: Document, html: MarkdownWriter.HTMLPolicy) throws -> Diagnosed<[UInt8]> {
        try MarkdownWriter(options: .init(html: html, dialect: .gfm)).write(document)
    }

    static func read(_ markdown: [UInt8]) throws -> Document {
        let read = try MarkdownReader(options: .init(dialect: .gfm)).read(markdown).value
        #expect(read.invariantViolations().isEmpty, "\(read.invariantViolations())")
        return read
    }

    @Test("IR -> GFM -> IR gives the same IR: generated documents, tables alone, tasks on their items",
          arguments: [1, 2] as [UInt64])
    func generated(seed: UInt64) throws {
        let html = MarkdownWriter.HTMLPolicy.keep
        var generator = DocumentGenerator(seed: seed, profile: .hostile)
        var counted = (tasks: 0, rows: 0, strikes: 0, compared: 0)
        for index in 0..<400 {
            let drawn = index % 4 == 3 ? Document(blocks: generator.table()) : generator.document(blockCount: 1 + index % 12)
            let document = Self.withTasks(drawn)
            let written = try Self.write(document, html: html)
            var expected = document
            for diagnostic in written.diagnostics {
                if diagnostic.code == "task-flattened", let block = diagnostic.block { expected.blocks[block].taskState = nil; continue }
                Issue.record("seed \(seed) document \(index): \(diagnostic)")
            }
            let read = try Self.read(written.value)
            counted.compared += 1
            counted.tasks += document.blocks.count { $0.taskState != nil }
            counted.rows += document.blocks.count { if case .tableRow = $0.kind { true } else { false } }
            counted.strikes += document.blocks.flatMap(\.markups).count { $0.kind == .strike }
            if read != expected {
                Issue.record("seed \(seed) document \(index)\n\(String(decoding: written.value, as: UTF8.self).debugDescription)\n\(MarkdownRoundTripTests.firstDifference(expected, read))")
                return
            }
        }
        // The property says something only if the documents held what it is about.
        print("GFM round trip, seed \(seed): \(counted.compared) documents compared, \(counted.tasks) tasks, \(counted.rows) table rows, \(counted.strikes) strikes")
        #expect(counted.compared > 100)
        #expect(counted.tasks > 50)
        #expect(counted.rows > 50)
        #expect(counted.strikes > 20)
    }

    @Test("Tasks through GFM and CommonMark, with and without HTML: kept where the dialect can say them, else reported")
    func tasks() throws {
        let document = Document(blocks: [
            Block(.unorderedListItem, text: "todo", taskState: .unchecked),
            Block(.orderedListItem(number: 1), text: "done", markups: [Markup(.strong, start: 0, end: 4)], taskState: .checked),
            Block(.unorderedListItem, text: "[ ] not a task"),
            Block(.unorderedListItem, taskState: .checked),
            Block(.unorderedListItem, text: "quoted", quoteDepth: 1, taskState: .unchecked),
        ])
        #expect(document.invariantViolations().isEmpty)
        func written(_ dialect: MarkdownWriter.Dialect, _ html: MarkdownWriter.HTMLPolicy) throws -> (String, [String]) {
            let out = try MarkdownWriter(options: .init(html: html, dialect: dialect)).write(document)
            return (String(decoding: out.value, as: UTF8.self), out.diagnostics.map { "\($0.block ?? -1) \($0.code)" })
        }
        let gfmKeep = try written(.gfm, .keep)
        #expect(gfmKeep.0 == "- [ ] todo\n\n1. [x] **done**\n\n- \\[ \\] not a task\n- <input type=\"checkbox\" checked disabled>\n\n> - <input type=\"checkbox\" disabled>quoted\n")
        #expect(gfmKeep.1.isEmpty)
        #expect(try Self.read(Array(gfmKeep.0.utf8)) == document)
        let commonMarkKeep = try written(.commonMark, .keep)
        #expect(commonMarkKeep.1.isEmpty)
        #expect(try MarkdownReader().read(commonMarkKeep.0).value == document)
        let gfmDrop = try written(.gfm, .drop)
        #expect(gfmDrop.1 == ["3 task-flattened", "4 task-flattened"])
        let read = try Self.read(Array(gfmDrop.0.utf8))
        #expect(read.blocks.map(\.taskState) == [.unchecked, .checked, nil, nil, nil])
        #expect(read.blocks.map(\.text) == ["todo", "done", "[ ] not a task", "[x]", "[ ] quoted"])
        let commonMarkDrop = try written(.commonMark, .drop)
        #expect(commonMarkDrop.1 == ["0 task-flattened", "1 task-flattened", "3 task-flattened", "4 task-flattened"])
        #expect(try MarkdownReader().read(commonMarkDrop.0).value.blocks.map(\.text) == ["[ ] todo", "[x] done", "[ ] not a task", "[x]", "[ ] quoted"])
    }
}
