import Foundation
import Synchronization
import Markbridge
import Testing
import MarkbridgeTestSupport

/// The JSON Lines migration as a service runs it, through `import Markbridge` alone: records in,
/// records, dead letters and a census out, cancellable, resumable, under a deadline.
@Suite("Library: a JSON Lines migration")
struct JSONLinesMigrationTests {
    static func migration(check: RecordConversion.Check? = nil, converter: Converter = Converter(), window: Int = 2) throws -> JSONLinesMigration {
        try JSONLinesMigration(try RecordConversion(converter: converter, to: .markdown, check: check), from: .html, field: "html", into: "md",
                               maxRecordBytes: 200, window: window)
    }

    static func outcome(_ record: JSONLinesRecord) -> String {
        switch record.outcome {
        case .blank: "blank"
        case .converted(let converted): String(decoding: converted.line, as: UTF8.self)
        case .deadLetter(let letter): String(decoding: letter.jsonLine, as: UTF8.self)
        }
    }

    @Test("A field's bytes, which the JSON scanner checked and the readers then take as valid, convert as the converter converts them: HTML, Markdown and plain text, CR LF, any script; with a check too")
    func fieldAsConverted() throws {
        var random = SeededRandom(seed: 0xF1E1D)
        // Pieces of a JSON string: escapes as written in the record, so the scanner unescapes
        // them. Not `\u0000`: the scanner reads it as U+FFFD, where Foundation's reading of the
        // record, which gives the direct conversion its input here, keeps U+0000.
        let pieces = ["a", "<p>", "</p>", "<b>", "*x*", #"\r"#, #"\r\n"#, #"\n"#, "é", "Я", "語", "😀", " ", "&amp;", #"\u00e9"#, #"\ud83d\ude00"#, #"<img alt=\"x\r\ny\">"#, #"\t"#]
        for source in [Format.html, .markdown, .plainText] {
            for check in [nil, RecordConversion.Check()] {
                let conversion = try RecordConversion(to: .markupJSON, check: check)
                let migration = try JSONLinesMigration(conversion, from: source, field: "doc", into: "out")
                for _ in 0..<150 {
                    let escaped = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
                    let line = #"{"doc":""# + escaped + #""}"#
                    let record = migration.record(Array(line.utf8), line: 1)
                    guard case .converted(let converted) = record.outcome else {
                        Issue.record("\(line): \(Self.outcome(record))")
                        continue
                    }
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(converted.line)) as? [String: Any])
                    let field = try #require(object["doc"] as? String)
                    let direct = switch conversion.convert(Array(field.utf8), from: source) {
                    case .success(let output): output
                    case .failure(let error): throw error
                    }
                    #expect(object["out"] as? String == String(decoding: direct.output.value, as: UTF8.self), "\(line)")
                    #expect(converted.diagnostics.map(\.description) == direct.output.diagnostics.map(\.description), "\(line)")
                    #expect(converted.check?.losses == direct.check?.losses, "\(line)")
                }
            }
        }
    }

    @Test("Each line: converted byte for byte but for the new field, blank, or a dead letter saying why, with its id")
    func records() throws {
        let migration = try Self.migration()
        let lines = [
            "\u{FEFF}{ \"id\": 7, \"html\": \"<b>Hi</b>\" }\r",
            " \t",
            "not json",
            #"{"id":"a","md":1,"md":2,"html":"x"}"#,
            #"{"id":9}"#,
            #"{"id":[1],"html":5}"#,
            #"{"id":12,"html":""# + String(repeating: "x", count: 300) + #""}"#,
        ]
        var offset = 0
        var outcomes: [String] = []
        for (index, line) in lines.enumerated() {
            outcomes.append(Self.outcome(migration.record(Array(line.utf8), line: index + 1, byteOffset: offset, input: "in.jsonl")))
            offset += line.utf8.count + 1
        }
        #expect(outcomes == [
            #"{ "id": 7, "html": "<b>Hi</b>" ,"md":"**Hi**\n"}"# + "\n",
            "blank",
            #"{"file":"in.jsonl","line":3,"byteOffset":40,"id":null,"code":"not-an-object","message":"the line is not a JSON object at column 1: expected an object, found a null","original":"not json"}"# + "\n",
            #"{"file":"in.jsonl","line":4,"byteOffset":49,"id":"a","code":"duplicate-key","message":"the record has the key 'md' more than once (line 4); which one counts is up to each reader","original":"{\"id\":\"a\",\"md\":1,\"md\":2,\"html\":\"x\"}"}"# + "\n",
            #"{"file":"in.jsonl","line":5,"byteOffset":85,"id":9,"code":"missing-field","message":"the record has no field 'html'","original":"{\"id\":9}"}"# + "\n",
            #"{"file":"in.jsonl","line":6,"byteOffset":94,"id":[1],"code":"wrong-type","message":"the field 'html' is not a string","original":"{\"id\":[1],\"html\":5}"}"# + "\n",
            #"{"file":"in.jsonl","line":7,"byteOffset":114,"id":12,"code":"record-too-large","message":"the record is 319 bytes, over the limit of 200 (maxRecordBytes)","truncated":false,"originalBytes":319,"original":"{\"id\":12,\"html\":\""# + String(repeating: "x", count: 300) + #"\"}"}"# + "\n",
        ])
    }

    /// Lines as a service's stream gives them, counting how many were taken.
    final class Source: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        let lines: [[UInt8]]
        let taken = Mutex(0)

        init(_ count: Int, from first: Int = 0) {
            lines = (first..<(first + count)).map { n in
                Array(#"{"id":\#(n),"html":"<p style=\"text-align:center\">Record \#(n)\#(n % 4 == 0 ? #" <a href=\"javascript:x\">x</a>"# : "")</p>"}"#.utf8)
            }
        }

        struct Iterator: AsyncIteratorProtocol {
            let source: Source
            var next = 0

            mutating func next() async -> [UInt8]? {
                guard next < source.lines.count else { return nil }
                defer { next += 1 }
                source.taken.withLock { $0 += 1 }
                return source.lines[next]
            }
        }

        func makeAsyncIterator() -> Iterator { Iterator(source: self) }
    }

    @Test("Over a stream: in order, numbered, a census of what records lost, each losing record's check line")
    func stream() async throws {
        let migration = try Self.migration(check: RecordConversion.Check(gate: .default), window: 4)
        var census = MigrationCensus()
        var lines: [Int] = []
        var checkLines: [String] = []
        for try await record in migration.results(for: Source(40), input: "posts") {
            lines.append(record.line)
            guard case .converted(let converted) = record.outcome, let check = converted.check else { Issue.record("\(record.outcome)"); continue }
            census.record(check.losses, gate: .default, id: record.censusID)
            if let line = record.checkResultLine(gate: .default) { checkLines.append(String(decoding: line, as: UTF8.self)) }
        }
        #expect(lines == Array(1...40))
        // Markdown keeps the alignment as HTML; the javascript: link of every fourth is refused.
        #expect(census.checked == 40 && census.losing == 10 && census.failing == 10)
        #expect(census.ranked.map(\.name) == ["diagnostic unsafe-url"])
        #expect(census.classes["diagnostic unsafe-url"]?.examples == ["0", "4", "8", "12", "16"])
        #expect(checkLines[0] == #"{"id":0,"file":"posts","line":1,"fails":true,"losses":[{"class":"diagnostic unsafe-url","key":"unsafe-url","severity":"content","count":1,"block":null,"detail":"link on <a> dropped, its text kept: scheme 'javascript:' is not allowed"}]}"# + "\n")
    }

    @Test("A consumer that stops after 5 results leaves the rest untaken; a cancelled task stops within a window")
    func cancellation() async throws {
        let migration = try Self.migration(window: 3)
        let source = Source(1_000)
        var seen = 0
        for try await _ in migration.results(for: source) {
            seen += 1
            if seen == 5 { break }
        }
        #expect(source.taken.withLock { $0 } <= 5 + 3)

        let cancelled = Source(1_000)
        let task = Task {
            var count = 0
            for try await _ in migration.results(for: cancelled) {
                count += 1
                if count == 5 { unsafe withUnsafeCurrentTask { unsafe $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(cancelled.taken.withLock { $0 } <= 5 + 3 + 1)
    }

    @Test("Resumed after the last line done, the migration gives what one uninterrupted run gives")
    func resume() async throws {
        let migration = try Self.migration()
        let whole = try await Self.outputs(migration.results(for: Source(30)))
        var first: [String] = []
        var lastLine = 0, nextOffset = 0
        for try await record in migration.results(for: Source(30)) {
            first.append(Self.outcome(record))
            lastLine = record.line
            nextOffset = record.byteOffset + Source(30).lines[record.line - 1].count + 1
            if record.line == 12 { break }
        }
        let rest = try await Self.outputs(migration.results(for: Source(18, from: 12), firstLine: lastLine + 1, firstByteOffset: nextOffset))
        #expect(first + rest == whole)
        #expect(whole.count == 30)
    }

    static func outputs<S: AsyncSequence>(_ results: S) async throws -> [String] where S.Element == JSONLinesRecord {
        var out: [String] = []
        for try await record in results { out.append(outcome(record)) }
        return out
    }

    @Test("D3: a record past the converter's time limit is a timeout dead letter; the migration goes on")
    func deadline() throws {
        let migration = try Self.migration(converter: Converter(options: ConversionOptions(timeLimit: .nanoseconds(1))))
        let heavy = #"{"id":1,"html":""# + String(repeating: "<b>x</b>", count: 20) + #""}"#
        var limited = migration
        limited.maxRecordBytes = 1 << 20
        guard case .deadLetter(let letter) = limited.record(Array(heavy.utf8), line: 1).outcome else {
            Issue.record("converted past its time limit")
            return
        }
        #expect(letter.code == "timeout")
        #expect(letter.id == "1")
    }

    @Test("Formats are checked up front: a target that cannot be read back cannot be checked, a source that cannot be read is refused; formats compare by name")
    func formats() {
        #expect(Format.markdown == Converter().registry.format(named: "markdown") && Format.markdown != Format.gfm)
        #expect(throws: ConversionError(code: "unknown-format", message: "format 'shout' cannot be read back, so a conversion to it cannot be checked")) {
            try RecordConversion(to: .writtenOnly, check: .init())
        }
        #expect(throws: ConversionError(code: "unknown-format", message: "format 'shout' cannot be read")) {
            try JSONLinesMigration(try RecordConversion(to: .markdown), from: .writtenOnly, field: "x")
        }
    }
}

/// The reports the commands print, as library functions over the check, diff and census values.
@Suite("Library: reports")
struct LibraryReportTests {
    @Test("A check's report in text, JSON and HTML, a diff's, and a census's, as the commands render them")
    func reports() throws {
        let check = try Converter(options: ConversionOptions(markdownHTML: .drop))
            .check(Array(#"<p>A <u>gap</u> and <a href="https://e.x/">a link</a></p>"#.utf8), from: .html, via: .markdown)
        #expect(check.report(.text, input: "a.html", via: .markdown) == """
            a.html as markdown: warning: UNDERLINE 2..<5 in block 0 has no CommonMark syntax; dropped (--markdown-html drop) [markup-dropped]
            --- a.html (read)
            +++ a.html via markdown (read back)
            @@ block 0 -> 0 (P) @@
            A gap and a link
              UNDERLINE "gap" removed
            1 block differs: 1 changed
            Passes the gate (fails on content,structure): style 2 (diagnostic markup-dropped 1, markup UNDERLINE removed 1).

            """)
        let json = check.report(.json, input: "a.html", via: .markdown)
        #expect(json.hasPrefix(#"{"version":1,"file":"a.html","via":"markdown","lost":false,"gate":"content,structure","losses":[{"class":"diagnostic markup-dropped""#))
        let page = check.report(.html, input: "a.html", via: .markdown)
        #expect(page.contains("<title>markbridge check: a.html via markdown</title>") && page.contains("<summary>1 warning on this block</summary>"))
        #expect(check.diff.report(.text, old: check.before, new: check.after, oldName: "old", newName: "new").hasPrefix("--- old\n+++ new\n@@ block 0 -> 0 (P) @@"))
        var census = MigrationCensus()
        census.record(check.losses, gate: .default, id: "7")
        #expect(census.report(.text, gate: .default) == """
            census: 1 of 1 checked record loses something, 0 fail the gate (content,structure)
              style: diagnostic markup-dropped: 1 record (e.g. 7)
              style: markup UNDERLINE removed: 1 record (e.g. 7)

            """)
        #expect(census.report(.json, gate: .default) == #"{"checked":1,"losing":1,"failing":0,"gate":"content,structure","classes":{"diagnostic markup-dropped":{"severity":"style","records":1,"examples":[7]},"markup UNDERLINE removed":{"severity":"style","records":1,"examples":[7]}}}"#)
        #expect(census.report(.html, gate: .default, title: "Census").contains("<tr><th>Checked</th><td>1</td></tr>"))
    }
}
