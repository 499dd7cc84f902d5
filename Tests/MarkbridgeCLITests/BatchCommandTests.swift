import Foundation
import Synchronization
import Testing
@testable import MarkbridgeCLI
@testable import MarkbridgeMigration
import Markbridge
import MarkbridgeJSON
import MarkbridgeTestSupport

/// A scratch folder for one test, removed when it goes.
final class ScratchFolder {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("markbridge-batch-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) -> String {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
        return file(name)
    }

    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Runs `markbridge batch` in this process; its exit status and what it wrote to standard error.
func runBatch(_ arguments: String...) async -> (status: Int32, standardError: String) {
    await runBatch(arguments)
}

func runBatch(_ arguments: [String]) async -> (status: Int32, standardError: String) {
    let captured = Mutex("")
    var command = BatchCommand(registry: .standard)
    command.standardError = { text in captured.withLock { $0 += text } }
    let status = await command.run(arguments)
    return (status, captured.withLock { $0 })
}

@Suite("markbridge batch")
struct BatchCommandTests {
    @Test("Each record keeps every byte but the converted field; --into adds a field, JSON goes in as a value or a string")
    func recordsKeptByteForByte() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1, "price":2.50,"html":"<p>Hello <b>world</b></p>","k":"\u00e9"}"# + "\n" + #"{"html":"<p>x</p>"}"# + "\n")
        #expect(await runBatch("--field", "html", "--from", "html", "--to", "markdown", "-o", folder.file("md.jsonl"), input).status == 0)
        #expect(folder.read("md.jsonl") == #"{"id":1, "price":2.50,"html":"Hello **world**\n","k":"\u00e9"}"# + "\n" + #"{"html":"x\n"}"# + "\n")
        #expect(await runBatch("--field", "html", "--from", "html", "--into", "doc", "-o", folder.file("json.jsonl"), input).status == 0)
        #expect(folder.read("json.jsonl") == """
            {"id":1, "price":2.50,"html":"<p>Hello <b>world</b></p>","k":"\\u00e9","doc":{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"Hello world","markups":[{"type":"STRONG","start":6,"end":11}]}]}}
            {"html":"<p>x</p>","doc":{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"x"}]}}

            """)
        #expect(await runBatch("--field", "html", "--from", "html", "--into", "doc", "--embed", "string", "-o", folder.file("s.jsonl"), input).status == 0)
        #expect(folder.read("s.jsonl")?.hasSuffix(#"{"html":"<p>x</p>","doc":"{\"version\":1,\"offsetUnit\":\"utf16\",\"paragraphs\":[{\"type\":\"P\",\"text\":\"x\"}]}\n"}"# + "\n") == true)
        // An empty object gets the field without a comma.
        let empty = folder.write("e.jsonl", #"{"html":"a"}"# + "\n")
        #expect(await runBatch("--field", "html", "--from", "markdown", "--to", "text", "--into", "t", "-o", folder.file("e.out"), empty).status == 0)
        #expect(folder.read("e.out") == #"{"html":"a","t":"a\n"}"# + "\n")
    }

    @Test("D1: bad lines of every kind go to the dead letters, the rest goes on; blank lines, CRLF, a BOM and a last line without line feed are read")
    func deadLetters() async throws {
        let folder = ScratchFolder()
        let lines = [
            "\u{FEFF}" + #"{"id":1,"html":"<p>a</p>"}"#,
            "",
            "   ",
            #"{"id":"two","html":"<p>b</p>"}"# + "\r",
            "not json",
            "[1,2]",
            #"{"id":3}"#,
            #"{"id":4,"html":5}"#,
            #"{"id":5,"html":"<p>\u00ff</p>", }"#,
            #"{"id":6,"html":"\#(String(repeating: "x", count: 300))"}"#,
            #"{"id":7,"html":"<p>last</p>"}"#,
        ]
        let input = folder.write("in.jsonl", lines.joined(separator: "\n"))
        let result = await runBatch("--field", "html", "--from", "html", "--to", "text", "--max-record-bytes", "200",
                                    "--dead-letter", folder.file("dead.jsonl"), "-o", folder.file("out.jsonl"), input)
        #expect(result.status == 1)
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":"a\n"}"# + "\n" + #"{"id":"two","html":"b\n"}"# + "\n" + #"{"id":7,"html":"last\n"}"# + "\n")
        let name = JSONStringLiteral.encode(input)
        #expect(folder.read("dead.jsonl") == """
            {"file":\(name),"line":5,"byteOffset":67,"id":null,"code":"not-an-object","message":"the line is not a JSON object at column 1: expected an object, found a null","original":"not json"}
            {"file":\(name),"line":6,"byteOffset":76,"id":null,"code":"not-an-object","message":"the line is not a JSON object at column 1: expected an object, found an array","original":"[1,2]"}
            {"file":\(name),"line":7,"byteOffset":82,"id":3,"code":"missing-field","message":"the record has no field 'html'","original":"{\\"id\\":3}"}
            {"file":\(name),"line":8,"byteOffset":91,"id":4,"code":"wrong-type","message":"the field 'html' is not a string","original":"{\\"id\\":4,\\"html\\":5}"}
            {"file":\(name),"line":9,"byteOffset":109,"id":null,"code":"invalid-json","message":"the line is not a JSON object at column 33: expected a member name in quotes","original":"{\\"id\\":5,\\"html\\":\\"<p>\\\\u00ff</p>\\", }"}
            {"file":\(name),"line":10,"byteOffset":143,"id":6,"code":"record-too-large","message":"the record is 318 bytes, over the limit of 200 (--max-record-bytes)","truncated":false,"originalBytes":318,"original":"{\\"id\\":6,\\"html\\":\\"\(String(repeating: "x", count: 300))\\"}"}

            """)
        #expect(result.standardError.hasPrefix("markbridge batch: 9 records, 3 converted, 6 dead-lettered (not-an-object 2, invalid-json 1, missing-field 1, record-too-large 1, wrong-type 1), 2 blank lines skipped; "))
    }

    @Test("D2: a line longer than the record limit is never held: it is measured and dead-lettered with its first bytes")
    func oversizedLines() async throws {
        let folder = ScratchFolder()
        let long = #"{"id":1,"html":""# + String(repeating: "y", count: 5_000) + #""}"#
        let input = folder.write("in.jsonl", long + "\n" + #"{"html":"ok"}"# + "\n" + long)
        let result = await runBatch("--field", "html", "--from", "markdown", "--to", "text", "--max-record-bytes", "1000", "--piece-bytes", "512",
                                    "--dead-letter", folder.file("dead.jsonl"), "-o", folder.file("out.jsonl"), input)
        #expect(result.status == 1)
        #expect(folder.read("out.jsonl") == #"{"html":"ok\n"}"# + "\n")
        let dead = folder.read("dead.jsonl")?.split(separator: "\n") ?? []
        #expect(dead.count == 2)
        #expect(dead.first?.contains(#""line":1,"byteOffset":0,"id":1,"code":"record-too-large","message":"the record is 5018 bytes, over the limit of 1000 (--max-record-bytes); its first 1024 bytes are kept","truncated":true,"originalBytes":5018,"#) == true)
        #expect(dead.last?.contains(#""line":3,"byteOffset":5033,"#) == true)
    }

    @Test("D5: output in input order, byte for byte the same whatever --jobs is, and each record what the converter gives")
    func orderAndDeterminism() async throws {
        let folder = ScratchFolder()
        var generator = HTMLCorpusGenerator(seed: 77)
        var lines: [String] = []
        var expected = ""
        for index in 0..<600 {
            let html = generator.fragment(approximateBytes: 300 + index % 7 * 200)
            lines.append(#"{"id":\#(index),"html":\#(JSONStringLiteral.encode(html))}"#)
            let markdown = try Converter().convert(Array(html.utf8), from: "html", to: "markdown").value
            expected += #"{"id":\#(index),"html":\#(JSONStringLiteral.encode(html)),"md":\#(JSONStringLiteral.encode(String(decoding: markdown, as: UTF8.self)))}"# + "\n"
        }
        let input = folder.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        for jobs in ["1", "3", "8"] {
            let result = await runBatch("--field", "html", "--from", "html", "--to", "markdown", "--into", "md", "--jobs", jobs,
                                        "--piece-bytes", "4096", "-o", folder.file("out-\(jobs).jsonl"), input)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(folder.read("out-\(jobs).jsonl") == expected, "--jobs \(jobs)")
        }
    }

    @Test("Diagnostics go to --diagnostics, one line a record, keyed by id and line")
    func diagnostics() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":"a","html":"<p><a href=\"javascript:x\">b</a></p>"}"# + "\n" + #"{"id":"b","html":"<p>c</p>"}"# + "\n")
        let result = await runBatch("--field", "html", "--from", "html", "--diagnostics", folder.file("diag.jsonl"), "-o", folder.file("out.jsonl"), input)
        #expect(result.status == 0)
        #expect(folder.read("diag.jsonl") == #"{"file":\#(JSONStringLiteral.encode(input)),"line":1,"id":"a","diagnostics":[{"severity":"warning","code":"unsafe-url","message":"link on <a> dropped, its text kept: scheme 'javascript:' is not allowed","line":1,"column":4}]}"# + "\n")
        #expect(result.standardError.contains("; diagnostics: unsafe-url 1; "))
    }

    @Test("Exit codes: 64 for a wrong command line, 74 when an output cannot be written, and no output file left looking complete")
    func exitCodes() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"html":"x"}"# + "\n")
        let missing = await runBatch("--from", "html", input)
        #expect(missing.status == 64)
        #expect(missing.standardError.hasPrefix("Error: Missing --field: which field of each record to convert\nUsage: markbridge batch --field <name> --from <format>"))
        #expect(await runBatch("--field", "html", "--from", "html", "--resume", input).status == 64)
        let unwritable = await runBatch("--field", "html", "--from", "html", "-o", folder.file("no/such/folder/out.jsonl"), input)
        #expect(unwritable.status == 74)
        #expect(unwritable.standardError.hasPrefix("Error: cannot write '\(folder.file("no/such/folder/out.jsonl"))': No such file or directory"))
        let unreadable = await runBatch("--field", "html", "--from", "html", "-o", folder.file("out.jsonl"), folder.file("absent.jsonl"))
        #expect(unreadable.status == 74)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.jsonl")))
    }

    @Test("D6, E12: a full disk and a closed pipe on standard output are I/O failures (exit 74) with a message, not a crash",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full") && BatchBinary.path != nil, "needs /dev/full and the markbridge binary"))
    func standardOutputFailures() throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", String(repeating: #"{"html":"<p>some text</p>"}"# + "\n", count: 20_000))
        let full = try BatchBinary.run(["batch", "--field", "html", "--from", "html", input], standardOutput: FileHandle(forWritingAtPath: "/dev/full"))
        #expect(full.status == 74)
        #expect(full.standardError.hasPrefix("Error: cannot write standard output: No space left on device"))
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let closed = try BatchBinary.run(["batch", "--field", "html", "--from", "html", input], standardOutput: pipe.fileHandleForWriting)
        #expect(closed.status == 74)
        #expect(closed.standardError.hasPrefix("Error: cannot write standard output: Broken pipe"))
    }
}

@Suite("BatchEngine: the library under markbridge batch")
struct BatchEngineTests {
    /// Records from an array, as a service's stream would bring them.
    struct Records: AsyncSequence, Sendable {
        let records: [BatchRecord]
        func makeAsyncIterator() -> IndexingIterator<[BatchRecord]>.AsyncAdapter { .init(base: records.makeIterator()) }
    }

    @Test("Results come in input order with a window of records in flight; a failure is a result and the rest goes on")
    func orderedResults() async throws {
        var records = (0..<500).map { BatchRecord(id: "r\($0)", bytes: Array("<p>record <b>\($0)</b></p>".utf8)) }
        records[7].bytes = [0xFF, 0xFE, 0x41, 0x00]
        let engine = try BatchEngine(from: .html, to: .markdown, window: 4)
        var seen: [String] = []
        for try await result in engine.results(for: Records(records: records)) {
            seen.append(result.id)
            switch result.outcome {
            case .success(let converted):
                #expect(String(decoding: converted.value, as: UTF8.self) == "record **\(result.id.dropFirst())**\n")
            case .failure(let error):
                #expect(result.id == "r7")
                #expect(error.code == "not-utf8")
            }
        }
        #expect(seen == records.map(\.id))
    }
}

extension BatchEngineTests {
    /// Records made on demand, counting how many were taken.
    struct CountedRecords: AsyncSequence, Sendable {
        let count: Int
        let taken: Counter
        let make: @Sendable (Int) -> BatchRecord
        struct Iterator: AsyncIteratorProtocol {
            let source: CountedRecords
            var index = 0
            mutating func next() async -> BatchRecord? {
                guard index < source.count else { return nil }
                defer { index += 1 }
                source.taken.add()
                return source.make(index)
            }
        }
        func makeAsyncIterator() -> Iterator { Iterator(source: self) }
    }

    final class Counter: Sendable {
        let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test("Formats are typed: one that cannot be read or written is refused before any record")
    func typedFormats() {
        #expect(throws: ConversionError(code: "unknown-format", message: "format 'shout' cannot be read")) {
            try BatchEngine(from: .writtenOnly, to: .markdown)
        }
    }

    @Test("Breaking out after five results takes no more than a window more records")
    func stopReading() async throws {
        let taken = Counter()
        let records = CountedRecords(count: 1_000, taken: taken) { BatchRecord(id: "\($0)", bytes: Array("<p>r\($0)</p>".utf8)) }
        var seen = 0
        for try await _ in try BatchEngine(from: .html, to: .markdown, window: 4).results(for: records) {
            seen += 1
            if seen == 5 { break }
        }
        #expect(seen == 5)
        #expect(taken.count <= 5 + 4, "\(taken.count) records taken")
    }

    /// A format that reads HTML and counts the reads that started, finished and stopped. A record
    /// past `gatedBytes` waits for `cancelling` before it is read, so that it is certainly in
    /// flight, not finished, when its task is cancelled, however loaded the machine.
    static func countingHTML(started: Counter, finished: Counter, stopped: Counter, cancelling: Counter, gatedBytes: Int) -> Format {
        Format(name: "counted-html", summary: "", fileExtensions: [], reader: { bytes, options throws(ConversionError) in
            started.add()
            if bytes.count > gatedBytes {
                let clock = ContinuousClock(), start = clock.now
                while cancelling.count == 0, clock.now - start < .seconds(60) { usleep(1_000) }
            }
            do throws(ConversionError) {
                let read = try Format.html.reader!(bytes, options)
                finished.add()
                return read
            } catch {
                if error.code == "cancelled" { stopped.add() }
                throw error
            }
        }, writer: nil)
    }

    @Test("Cancelling the reading task stops the conversions in flight and throws CancellationError")
    func cancelReader() async throws {
        let taken = Counter(), started = Counter(), finished = Counter(), stopped = Counter(), cancelling = Counter()
        // Each record takes a debug build seconds to read, and starts once the consumer is about
        // to cancel: cancelled, none of the in-flight ones may finish.
        let big = Array(("<p>" + String(repeating: "word <b>bold</b> <i>it</i> ", count: 300_000) + "</p>").utf8)
        let records = CountedRecords(count: 50, taken: taken) { index in BatchRecord(id: "\(index)", bytes: index == 0 ? Array("<p>first</p>".utf8) : big) }
        let engine = try BatchEngine(converter: Converter(options: .init(limits: .commandLine)),
                                     from: Self.countingHTML(started: started, finished: finished, stopped: stopped, cancelling: cancelling, gatedBytes: 1_000),
                                     to: .markupJSON, window: 2)
        let consumer = Task { () -> (results: Int, error: (any Error)?) in
            var results = 0
            do {
                for try await _ in engine.results(for: records) {
                    results += 1
                    cancelling.add()
                    unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
                }
            } catch {
                return (results, error)
            }
            return (results, nil)
        }
        let outcome = await consumer.value
        #expect(outcome.results == 1)
        #expect(outcome.error is CancellationError)
        #expect(taken.count <= 3, "\(taken.count) records taken")
        // A record in flight stops at its next check; wait for those started to say so. (A record
        // taken but not yet started when the cancellation came is never read at all.)
        let clock = ContinuousClock(), start = clock.now
        while finished.count + stopped.count < started.count, clock.now - start < .seconds(60) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(started.count >= 2, "the first record and one in flight were read")
        #expect(finished.count == 1, "only the first record, read before the cancellation, finished")
        #expect(stopped.count == started.count - 1)
    }
}

extension IndexingIterator {
    /// An array's iterator as an asynchronous one.
    struct AsyncAdapter: AsyncIteratorProtocol {
        var base: IndexingIterator<Elements>
        mutating func next() async -> Elements.Element? { base.next() }
    }
}

@Suite("markbridge batch: repeated keys")
struct BatchDuplicateKeyTests {
    @Test("E4: a record with --field, --into or --id-field twice (however escaped) is a duplicate-key dead letter, never half-converted")
    func duplicateKeys() async throws {
        let folder = ScratchFolder()
        let lines = [
            #"{"id":1,"body":"<script>alert(1)</script>","body":"<p>ok</p>"}"#,
            #"{"id":2,"body":"<p>ok</p>","b\u006fdy":"<script>alert(1)</script>"}"#,
            #"{"id":3,"body":"<p>a</p>","md":"old","md":"older"}"#,
            #"{"id":4,"id":5,"body":"<p>b</p>"}"#,
            #"{"id":6,"body":"<p>fine</p>"}"#,
        ]
        let input = folder.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        for into in ["body", "md"] {
            let result = await runBatch("--field", "body", "--from", "html", "--to", "text", "--into", into,
                                        "--dead-letter", folder.file("dead-\(into).jsonl"), "-o", folder.file("out-\(into).jsonl"), input)
            #expect(result.status == 1)
            // A key repeated that batch neither reads nor writes (md, with --into body) is the record's own business.
            let expectedOut = into == "body" ? #"{"id":3,"body":"a\n","md":"old","md":"older"}"# + "\n" + #"{"id":6,"body":"fine\n"}"#
                : #"{"id":6,"body":"<p>fine</p>","md":"fine\n"}"#
            #expect(folder.read("out-\(into).jsonl") == expectedOut + "\n")
            var dead = (folder.read("dead-\(into).jsonl") ?? "").split(separator: "\n").map(String.init)
            #expect(dead.count == (into == "md" ? 4 : 3))
            if into == "body" { dead.insert("", at: 2) }
            #expect(dead.allSatisfy { $0.isEmpty || $0.contains(#""code":"duplicate-key""#) })
            #expect(dead[0].contains(#""line":1,"byteOffset":0,"id":1,"code":"duplicate-key","message":"the record has the key 'body' more than once (line 1); which one counts is up to each reader""#))
            if into == "md" { #expect(dead[2].contains(#""id":3,"code":"duplicate-key","message":"the record has the key 'md' more than once"#)) }
            #expect(dead[3].contains(#""id":null,"code":"duplicate-key","message":"the record has the key 'id' more than once (line 4)"#))
        }
    }

    @Test("JSONObjectLine cannot hand out one member of several")
    func lookup() throws {
        let record = try JSONObjectLine(Array(#"{"a":"x","a":"y","b":1}"#.utf8), decoding: "a")
        guard case .repeated = record.lookup("a") else { Issue.record("a repeated key is not .repeated"); return }
        guard case .unique = record.lookup("b"), case .absent = record.lookup("c") else { Issue.record("lookup"); return }
        #expect(record.decodedValue == nil)
    }
}

@Suite("markbridge batch: records over --max-record-bytes")
struct BatchOversizedRecordTests {
    /// The dead letter of the big record, without where it is (file, line, offset).
    private func letter(_ line: Substring) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return object.filter { !["file", "line", "byteOffset"].contains($0.key) }.mapValues { "\($0)" }
    }

    @Test("The same record's dead letter wherever it falls among pieces: its id, cut on a character, marked truncated",
          arguments: ["64", "700", "1500", "4096", "262144"])
    func sameWhereverItFalls(pieceBytes: String) async throws {
        let folder = ScratchFolder()
        // Cyrillic is two bytes a character; the odd-length prefix puts byte 1,024 inside one.
        let big = #"{"id":"ст-7","html":"<p>x"# + String(repeating: "статья ", count: 400) + #"</p>"}"#
        let small = (0..<100).map { #"{"id":\#($0),"html":"<p>x</p>"}"# }
        let placements = [[big], small + [big], [big] + small, small + [big] + small, small + [big, big]]
        var letters: [[String: String]] = []
        for (index, lines) in placements.enumerated() {
            let input = folder.write("in-\(index).jsonl", lines.joined(separator: "\r\n") + "\n")
            let result = await runBatch("--field", "html", "--from", "html", "--to", "text", "--max-record-bytes", "2000", "--piece-bytes", pieceBytes,
                                        "--dead-letter", folder.file("dead-\(index).jsonl"), "-o", folder.file("out-\(index).jsonl"), input)
            #expect(result.status == 1)
            for line in (folder.read("dead-\(index).jsonl") ?? "").split(separator: "\n") { letters.append(try letter(line)) }
        }
        #expect(letters.count == 6)
        let first = try #require(letters.first)
        #expect(letters.allSatisfy { $0 == first }, "\(letters)")
        #expect(first["id"] == "ст-7")
        #expect(first["truncated"] == "1")
        #expect(first["originalBytes"] == "\(big.utf8.count)")
        #expect(first["originalBase64"] == nil)
        let original = try #require(first["original"])
        #expect(original.utf8.count == 1023 && big.hasPrefix(original))
    }

    @Test("The id is read leniently from the kept bytes: whole values only, never a repeated or cut one")
    func lenientID() {
        func id(_ text: String) -> String? { RecordPrefix.scanID(Array(text.utf8), field: "id").map { String(decoding: $0, as: UTF8.self) } }
        #expect(id(#"{"id":12,"body":"aaa"#) == "12")
        #expect(id(#" { "a" : {"id":1,"b":[1,{"c":"}"}]} , "i\u0064" : "x\"y" , "body":"#) == #""x\"y""#)
        #expect(id(#"{"body":"aaa","id":12"#) == nil)
        #expect(id(#"{"id":1,"id":2,"body":"a"#) == nil)
        #expect(id(#"{"id":{"a":1},"body":"a"#) == nil)
        #expect(id(#"{"body":"a\"id\":3"#) == nil)
        #expect(id(#"not json"#) == nil)
        // Found by the jsonl-record fuzz target: Foundation reads `4` NUL as 4.
        #expect(id("{\"id\":4\u{0},\"body\":\"a") == nil)
        #expect(id("{\"i\u{0}d\":4,\"body\":\"a") == nil)
    }

    @Test("A record over the limit whose id is cut by a NUL byte has no id, and its dead letter stays one JSON object")
    func nulAfterID() async throws {
        // Found by the jsonl-record fuzz target: the id `4` NUL was written raw into the dead letter.
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", "{\"id\":4\u{0},\"html\":\"<p>aaaaaaaaaaaaaaaaaaaa</p>\"}\n")
        let result = await runBatch("--field", "html", "--from", "html", "--max-record-bytes", "20", "-o", folder.file("out.jsonl"),
                                    "--dead-letter", folder.file("dead.jsonl"), input)
        #expect(result.status == 1)
        #expect(folder.read("dead.jsonl") == """
            {"file":\(JSONStringLiteral.encode(input)),"line":1,"byteOffset":0,"id":null,"code":"record-too-large",\
            "message":"the record is 46 bytes, over the limit of 20 (--max-record-bytes)","truncated":false,"originalBytes":46,\
            "original":"{\\"id\\":4\\u0000,\\"html\\":\\"<p>aaaaaaaaaaaaaaaaaaaa</p>\\"}"}

            """)
    }

    @Test("A folder given as the input is refused by name; --resume over a finished run says so and converts nothing")
    func folderAndFinishedRun() async throws {
        let folder = ScratchFolder()
        try FileManager.default.createDirectory(atPath: folder.file("tree"), withIntermediateDirectories: true)
        let refused = await runBatch("--field", "html", "--from", "html", folder.file("tree"))
        #expect(refused.status == 64)
        #expect(refused.standardError.hasPrefix("Error: '\(folder.file("tree"))' is a folder, and batch reads JSON Lines files; to convert every file of a tree, use --input-dir"))

        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n")
        let output = folder.file("out.jsonl")
        #expect(await runBatch("--field", "html", "--from", "html", "-o", output, input).status == 0)
        try "changed by hand\n".write(toFile: output, atomically: false, encoding: .utf8)
        let finished = await runBatch("--field", "html", "--from", "html", "-o", output, "--resume", input)
        #expect(finished.status == 0)
        #expect(finished.standardError == "markbridge batch: nothing to resume: '\(output)' is complete (no checkpoint beside it, and it is newer than its inputs); run without --resume to convert again\n")
        #expect(folder.read("out.jsonl") == "changed by hand\n")
        // A side file asked for that is not there: the run is not that one, and starts over.
        let again = await runBatch("--field", "html", "--from", "html", "-o", output, "--dead-letter", folder.file("dead.jsonl"), "--resume", input)
        #expect(again.status == 0)
        #expect(folder.read("out.jsonl") == #"{"id":1,"html":{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a"}]}}"# + "\n")
    }

    @Test("D4, E11: killed among the renames at the end: a side file renamed already is taken as it is, and --resume finishes the run")
    func killedWhileRenaming() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\nnot json\n" + #"{"id":3,"html":"<p>c</p>"}"# + "\n")
        let arguments = ["--field", "html", "--from", "html", "--to", "markdown", "--dead-letter", folder.file("dead.jsonl"), "-o", folder.file("out.jsonl"), input]
        #expect(await runBatch(arguments).status == 1)
        let output = try #require(folder.read("out.jsonl")), deadLetters = try #require(folder.read("dead.jsonl"))
        // The state a kill leaves after the dead letters were renamed and before the output was:
        // the last checkpoint counts every byte, the output is still its partial file, and the
        // dead letters' partial is gone, renamed.
        let partial = ".out.jsonl.0123456789abcdef.partial"
        try FileManager.default.moveItem(atPath: folder.file("out.jsonl"), toPath: folder.file(partial))
        let plan = try BatchCommand.Plan(ParsedArguments(arguments, specs: BatchCommand.specs), registry: .standard)
        let size = Array(try #require(folder.read("in.jsonl")).utf8).count
        var counts = MigrationCounts()
        (counts.records, counts.converted, counts.deadLettered) = (3, 2, 1)
        let end = BatchPosition(file: 0, offset: size, line: 4, digest: try #require(try BatchDigest.of(input, firstBytes: size)))
        try BatchCheckpoint(settings: plan.migration.settings, inputs: try BatchCheckpoint.inputs([input]), finishedDigests: [], position: end,
                            outputBytes: Array(output.utf8).count, deadLetterBytes: Array(deadLetters.utf8).count, diagnosticsBytes: 0,
                            partials: .init(output: partial, deadLetters: ".dead.jsonl.fedcba9876543210.partial"), counts: counts)
            .save(for: folder.file("out.jsonl"))
        let resumed = await runBatch(arguments + ["--resume"])
        #expect(resumed.status == 1, "\(resumed.standardError)")
        #expect(folder.read("out.jsonl") == output)
        #expect(folder.read("dead.jsonl") == deadLetters)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.jsonl.checkpoint")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }.isEmpty)
        // A dead-letter file of another size is not the one renamed: the checkpoint is refused, nothing is taken for done.
        try FileManager.default.moveItem(atPath: folder.file("out.jsonl"), toPath: folder.file(partial))
        try BatchCheckpoint(settings: plan.migration.settings, inputs: try BatchCheckpoint.inputs([input]), finishedDigests: [], position: end,
                            outputBytes: Array(output.utf8).count, deadLetterBytes: Array(deadLetters.utf8).count + 1, diagnosticsBytes: 0,
                            partials: .init(output: partial, deadLetters: ".dead.jsonl.fedcba9876543210.partial"), counts: counts)
            .save(for: folder.file("out.jsonl"))
        #expect(await runBatch(arguments + ["--resume"]).status == 74)
    }
}
