import Foundation
import Testing
import MarkbridgeHTML
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
@testable import MarkbridgeMarkdown
import MarkbridgeTestSupport

/// Reading GitHub Flavored Markdown with cmark-gfm, loaded at run time beside the linked cmark:
/// pipe tables, `~~strike~~`, bare URLs and task list items become the IR's rows, strikes,
/// links and task states; the two engines share one process without calling each other's
/// functions; and where the library is absent the reader says what to install.
/// Whether cmark-gfm's libraries load here: suites that need them skip visibly where not.
enum GFMAvailability {
    static var hasLibrary: Bool {
        if case .success = GFMLibrary.shared { return true }
        return false
    }
}

@Suite("GFM reader", .enabled(if: GFMAvailability.hasLibrary, "cmark-gfm's libraries are absent (apt-get install libcmark-gfm-extensions-dev)"))
struct GFMReaderTests {

    static func gfm(_ markdown: String) throws -> Diagnosed<Document> {
        let read = try MarkdownReader(options: .init(dialect: .gfm)).read(markdown)
        #expect(read.value.invariantViolations().isEmpty, "\(read.value.invariantViolations())")
        return read
    }

    static let sample = """
        # Plan

        | Task | Owner | Due |
        | :--- | :---: | --: |
        | ~~Draft~~ | **Ann** | 1 May |
        | Review | www.example.com | |

        - [ ] write `tests`
        - [x] read ~~the~~ spec
        - plain item

        See https://example.org/a?b=1.

        """

    @Test("One small GFM document to markup JSON, exactly: a table with alignments, strikes, autolinks, task items")
    func golden() throws {
        let read = try Self.gfm(Self.sample)
        #expect(read.diagnostics.isEmpty)
        let json = String(decoding: try MarkupJSONWriter().write(read.value).value, as: UTF8.self)
        #expect(json == #"""
            {"version":1,"offsetUnit":"utf16","paragraphs":[\#
            {"type":"H1","text":"Plan"},\#
            {"type":"TR","text":"Task | Owner | Due","startsTable":true,"cells":[{"start":0,"end":4,"header":true,"align":"left"},{"start":7,"end":12,"header":true,"align":"center"},{"start":15,"end":18,"header":true,"align":"right"}]},\#
            {"type":"TR","text":"Draft | Ann | 1 May","cells":[{"start":0,"end":5,"align":"left"},{"start":8,"end":11,"align":"center"},{"start":14,"end":19,"align":"right"}],"markups":[{"type":"STRIKE","start":0,"end":5},{"type":"STRONG","start":8,"end":11}]},\#
            {"type":"TR","text":"Review | www.example.com | ","cells":[{"start":0,"end":6,"align":"left"},{"start":9,"end":24,"align":"center"},{"start":27,"end":27,"align":"right"}],"markups":[{"type":"LINK","start":9,"end":24,"href":"http://www.example.com"}]},\#
            {"type":"ULI","text":"write tests","task":"unchecked","markups":[{"type":"CODE","start":6,"end":11}]},\#
            {"type":"ULI","text":"read the spec","task":"checked","markups":[{"type":"STRIKE","start":5,"end":8}]},\#
            {"type":"ULI","text":"plain item"},\#
            {"type":"P","text":"See https://example.org/a?b=1.","markups":[{"type":"LINK","start":4,"end":29,"href":"https://example.org/a?b=1"}]}]}

            """#)
    }

    @Test("CommonMark reads the same text without the extensions: pipes, tildes and boxes stay text")
    func commonMarkLeavesExtensionsAlone() throws {
        let read = try MarkdownReader().read(Self.sample).value
        #expect(!read.blocks.contains { if case .tableRow = $0.kind { true } else { false } })
        #expect(read.blocks.allSatisfy { $0.taskState == nil })
        #expect(read.blocks.contains { $0.kind == .unorderedListItem && $0.text == "[ ] write tests" })
        #expect(!read.blocks.flatMap(\.markups).contains { $0.kind == .strike })
    }

    /// cmark and cmark-gfm export the same names: were either's calls resolved to the other's
    /// functions, trees would be misread or freed by the wrong allocator's bookkeeping. Reads
    /// alternate between them, on several threads at once, and each gives its own answer.
    @Test("Both engines in one process, interleaved and concurrent: each reads as itself")
    func bothEngines() async throws {
        let commonMark = try MarkdownReader().read(Self.sample).value
        let gfm = try Self.gfm(Self.sample).value
        #expect(commonMark != gfm)
        #expect(CmarkVersion.string.hasPrefix("0.30"))
        #expect(MarkdownReader.gfmVersion?.contains("gfm") == true)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<200 {
                        let useGFM = (round + worker) % 2 == 0
                        let read = try? MarkdownReader(options: .init(dialect: useGFM ? .gfm : .commonMark)).read(Self.sample).value
                        if read != (useGFM ? gfm : commonMark) { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        // cmark's own renderer still runs as cmark: no table, the box as text.
        #expect(CmarkRendering.html(Array(Self.sample.utf8), unsafe: false).contains("<li>[ ] write <code>tests</code></li>"))
    }

    @Test("Without the library, --from gfm fails with gfm-unavailable naming the package; nothing crashes")
    func libraryAbsent() {
        let absent = GFMLibrary.load([(core: "libcmark-gfm-absent.so.0", extensions: "libcmark-gfm-extensions-absent.so.0")])
        guard case .failure(let reason) = absent else {
            Issue.record("a library that does not exist loaded")
            return
        }
        #expect(reason.detail.contains("libcmark-gfm-absent.so.0"))
        do {
            _ = try MarkdownReader.gfmLibrary(absent)
            Issue.record("no error")
        } catch {
            #expect(error.code == "gfm-unavailable")
            #expect(error.message.contains("apt-get install libcmark-gfm-extensions-dev"), "\(error.message)")
        }
        // The linked cmark's own libraries are no cmark-gfm: the symbols it lacks are named.
        guard case .failure(let wrong) = GFMLibrary.load([(core: "libcmark.so.0.30.2", extensions: "libcmark.so.0.30.2")]) else {
            Issue.record("libcmark loaded as cmark-gfm")
            return
        }
        #expect(wrong.detail.contains("lacks"), "\(wrong.detail)")
    }

    /// cmark-gfm 0.29.0.gfm.6 reads no box in a quote (`> - [ ] a` is text there, where
    /// GitHub shows a box): the reader follows the engine, and the GFM writer writes such a
    /// task's box as HTML.
    @Test("Task items read where cmark-gfm reads them: ordered, nested, loose; a box later in the text, alone, or in a quote is text")
    func taskItems() throws {
        let read = try Self.gfm("1. [X] one\n2. [ ] two\n\n   more\n   - [x] nested\n\n> - [ ] quoted\n\n- not [ ] a box\n- [ ]\n").value
        #expect(read.blocks.map(\.taskState) == [.checked, .unchecked, nil, .checked, nil, nil, nil])
        #expect(read.blocks.map(\.text) == ["one", "two", "more", "nested", "[ ] quoted", "not [ ] a box", "[ ]"])
    }

    @Test("A checkbox <input> alone on an item's first line is its box, and the lines its HTML block goes on with are the item's text, kept (they were dropped with no word: a convert fuzz finding)")
    func checkboxLineThenText() throws {
        for read in [try MarkdownReader().read("- <input type=\"checkbox\" disabled>\n  hello <b>world</b>\n- <input type=\"checkbox\" checked>  \r\n  two\n\n  more\n> - <input type=\"checkbox\">\n>   quoted\n- <input type=\"checkbox\">\n"),
                     try Self.gfm("- <input type=\"checkbox\" disabled>\n  hello <b>world</b>\n- <input type=\"checkbox\" checked>  \r\n  two\n\n  more\n> - <input type=\"checkbox\">\n>   quoted\n- <input type=\"checkbox\">\n")] {
            #expect(read.value.blocks == [
                Block(.unorderedListItem, text: "hello world", markups: [Markup(.strong, start: 6, end: 11)], taskState: .unchecked),
                Block(.unorderedListItem, text: "two", taskState: .checked),
                Block(.paragraph, text: "more", depth: 1),
                Block(.unorderedListItem, text: "quoted", quoteDepth: 1, taskState: .unchecked),
                Block(.unorderedListItem, taskState: .unchecked),
            ])
            #expect(read.diagnostics.isEmpty)
        }
    }

    @Test("A table in a list item and one beside another keep their places; a cell's inline HTML closes with the cell")
    func tablePlaces() throws {
        let read = try Self.gfm("- item\n\n  | a |\n  | - |\n  | <u>b |\n\n| c |\n| - |\n").value
        let rows = read.blocks.filter { if case .tableRow = $0.kind { true } else { false } }
        #expect(rows.map(\.depth) == [1, 1, 0])
        #expect(rows.map { if case .tableRow(let row) = $0.kind { row.startsTable } else { false } } == [true, false, true])
        #expect(rows[1].markups == [Markup(.underline, start: 0, end: 1)])
    }
}
