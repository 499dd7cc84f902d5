import Foundation
import Testing
import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// The html5lib tree-construction tests: the parsed tree, dumped in the html5lib format, must
/// equal the expected one. Cases not passed are listed with a reason in
/// `Conformance/tree-construction-exceptions.txt`; listed cases must still fail.
@Suite("html5lib tree-construction conformance", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
struct TreeConstructionConformanceTests {
    struct Case: Sendable {
        let file: String
        let index: Int
        let data: String
        let fragmentContext: String?
        let scripting: Bool?
        let expected: String
        var key: String { "\(file):\(index)" }
    }

    static let folder = TestPaths.sharedData("html5lib-tests/tree-construction")

    static let cases: [Case] = {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return files.sorted().filter { $0.hasSuffix(".dat") }.flatMap { file -> [Case] in
            guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { return [] }
            return DatFile.parse(text, file: file)
        }
    }()

    static let exceptions = ConformanceExceptions.load("tree-construction-exceptions.txt")

    static func run(_ testCase: Case) -> String {
        let parser = HTMLParser(options: .init(scripting: testCase.scripting ?? false))
        let bytes = Array(testCase.data.utf8)
        let tree: HTMLTree?
        if let context = testCase.fragmentContext {
            let parts = context.split(separator: " ")
            let fragment = parts.count == 2
                ? HTMLParser.FragmentContext(String(parts[1]), namespace: parts[0] == "svg" ? .svg : .mathml)
                : HTMLParser.FragmentContext(context)
            tree = try? parser.parseFragment(bytes, context: fragment).value
        } else {
            tree = try? parser.parseDocument(bytes).value
        }
        return tree?.html5libDump() ?? "(parse threw)"
    }

    static let mustPassFiles = ["adoption01.dat", "adoption02.dat", "inbody01.dat", "entities01.dat", "entities02.dat",
                                "tables01.dat", "tests1.dat", "tricky01.dat"]

    @Test("Cases marked #script-on pass with scripting enabled (reported, not a target)")
    func scriptingOn() {
        let cases = Self.cases.filter { $0.scripting == true }
        let passed = cases.filter { Self.run($0) == $0.expected }.count
        print("html5lib tree construction, #script-on with scripting enabled: \(passed) of \(cases.count) pass")
        #expect(passed == cases.count)
    }

    @Test("The tests are there")
    func loaded() {
        #expect(Self.cases.count > 1500)
    }

    @Test("Pass rates, reported; every case not listed as an exception passes")
    func passRate() {
        var passed = 0
        var counted = 0
        var perFile: [String: (passed: Int, total: Int)] = [:]
        var unexpectedFailures: [String] = []
        var unexpectedPasses: [String] = []
        for testCase in Self.cases where testCase.scripting != true {
            counted += 1
            let actual = Self.run(testCase)
            let ok = actual == testCase.expected
            if ok { passed += 1 }
            perFile[testCase.file, default: (0, 0)].total += 1
            if ok { perFile[testCase.file, default: (0, 0)].passed += 1 }
            let listed = Self.exceptions.contains(testCase.key)
            if !ok && !listed {
                unexpectedFailures.append("\(testCase.key) \(testCase.fragmentContext.map { "[fragment \($0)]" } ?? "")\n#data\n\(testCase.data)\n#expected\n\(testCase.expected)\n#actual\n\(actual)\n")
            }
            if ok && listed { unexpectedPasses.append(testCase.key) }
        }
        if let path = ProcessInfo.processInfo.environment["CONFORMANCE_FAILURES"] {
            try? unexpectedFailures.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let rate = Double(passed) / Double(max(counted, 1)) * 100
        print("html5lib tree construction: \(passed) of \(counted) cases without #script-on pass (\(String(format: "%.2f", rate))%)")
        for file in Self.mustPassFiles {
            let result = perFile[file] ?? (0, 0)
            print("  \(file): \(result.passed) of \(result.total)")
            #expect(result.passed == result.total && result.total > 0, "\(file) must pass in full")
        }
        #expect(rate >= 97, "at least 97% of all cases")
        #expect(unexpectedFailures.isEmpty, "\(unexpectedFailures.count) unexpected failures:\n\(unexpectedFailures.prefix(20).joined(separator: "\n"))")
        #expect(unexpectedPasses.isEmpty, "listed as exceptions but pass now; remove them: \(unexpectedPasses)")
    }
}

/// The html5lib `.dat` format.
enum DatFile {
    static func parse(_ text: String, file: String) -> [TreeConstructionConformanceTests.Case] {
        var cases: [TreeConstructionConformanceTests.Case] = []
        let lines = text.components(separatedBy: "\n")
        var index = 0
        var number = 0
        while index < lines.count {
            guard lines[index] == "#data" else {
                index += 1
                continue
            }
            number += 1
            var sections: [String: [String]] = [:]
            var current = "#data"
            index += 1
            var body: [String] = []
            while index < lines.count {
                let line = lines[index]
                // A new test starts at `#data` after a blank line.
                if line == "#data" && body.last == "" && current == "#document" { break }
                if line.hasPrefix("#") && ["#errors", "#new-errors", "#document-fragment", "#script-on", "#script-off", "#document"].contains(line) {
                    sections[current] = body
                    current = line
                    body = []
                } else {
                    body.append(line)
                }
                index += 1
            }
            if current == "#document", body.last == "" { body.removeLast() }
            sections[current] = body
            let data = (sections["#data"] ?? []).joined(separator: "\n")
            let context = sections["#document-fragment"]?.first
            let scripting: Bool? = sections["#script-on"] != nil ? true : sections["#script-off"] != nil ? false : nil
            let expected = (sections["#document"] ?? []).joined(separator: "\n")
            cases.append(.init(file: file, index: number, data: data, fragmentContext: context, scripting: scripting, expected: expected))
        }
        return cases
    }
}
