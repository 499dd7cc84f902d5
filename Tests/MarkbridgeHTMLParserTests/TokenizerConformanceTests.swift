@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Foundation
import Testing
@testable import MarkbridgeHTMLParser
import MarkbridgeTestSupport

/// The html5lib tokenizer tests: every test's tokens must match, except those listed with a
/// reason in `Conformance/tokenizer-exceptions.txt`, which must still fail (so the list shrinks).
@Suite("html5lib tokenizer conformance", .enabled(if: TestPaths.hasSharedData, "../shared/data is absent"))
struct TokenizerConformanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let description: String
        let input: String
        let expected: String
        let initialState: String
        let lastStartTag: String?
        var testDescription: String { "\(file): \(description) [\(initialState)]" }
        var key: String { "\(file): \(description) [\(initialState)]" }
    }

    static let folder = TestPaths.sharedData("html5lib-tests/tokenizer")

    static let cases: [Case] = {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var cases: [Case] = []
        for file in files.sorted() where file.hasSuffix(".test") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + file),
                  let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let tests = root["tests"] as? [[String: Any]] else { continue }
            for test in tests {
                let doubleEscaped = test["doubleEscaped"] as? Bool ?? false
                guard var input = test["input"] as? String, var output = test["output"] as? [Any] else { continue }
                if doubleEscaped {
                    input = Unescape.string(input)
                    output = Unescape.value(output) as? [Any] ?? []
                }
                let expected = TokenFormat.canonical(TokenFormat.mergeCharacters(output))
                for state in (test["initialStates"] as? [String]) ?? ["Data state"] {
                    cases.append(Case(file: file, description: test["description"] as? String ?? "", input: input,
                                      expected: expected, initialState: state, lastStartTag: test["lastStartTag"] as? String))
                }
            }
        }
        return cases
    }()

    static let exceptions: Set<String> = ConformanceExceptions.load("tokenizer-exceptions.txt")

    @Test("The tests are there: thousands of cases")
    func loaded() {
        #expect(Self.cases.count > 6000)
    }

    @Test("Pass rate, reported; every case not listed as an exception passes")
    func passRate() {
        var passed = 0
        var unexpectedFailures: [String] = []
        var unexpectedPasses: [String] = []
        for testCase in Self.cases {
            let actual = Self.run(testCase)
            let ok = actual == testCase.expected
            if ok { passed += 1 }
            let listed = Self.exceptions.contains(testCase.key)
            if !ok && !listed { unexpectedFailures.append("\(testCase.key)\n  input:    \(testCase.input.debugDescription)\n  expected: \(testCase.expected)\n  actual:   \(actual)") }
            if ok && listed { unexpectedPasses.append(testCase.key) }
        }
        let rate = Double(passed) / Double(max(Self.cases.count, 1)) * 100
        print("html5lib tokenizer: \(passed) of \(Self.cases.count) cases pass (\(String(format: "%.2f", rate))%); \(Self.exceptions.count) listed exceptions")
        #expect(unexpectedFailures.isEmpty, "\(unexpectedFailures.count) unexpected failures:\n\(unexpectedFailures.prefix(30).joined(separator: "\n"))")
        #expect(unexpectedPasses.isEmpty, "listed as exceptions but pass now; remove them: \(unexpectedPasses)")
    }

    static func run(_ testCase: Case) -> String {
        guard let input = try? HTMLInput(Array(testCase.input.utf8), repairingInvalidUTF8: false, dropsByteOrderMark: false) else { return "invalid input" }
        var tokenizer = HTMLTokenizer(input: input.bytes)
        switch testCase.initialState {
        case "RCDATA state": tokenizer.state = .rcdata
        case "RAWTEXT state": tokenizer.state = .rawtext
        case "Script data state": tokenizer.state = .scriptData
        case "PLAINTEXT state": tokenizer.state = .plaintext
        case "CDATA section state": tokenizer.state = .cdataSection
        default: tokenizer.state = .data
        }
        if let last = testCase.lastStartTag { tokenizer.setLastStartTag(Array(last.utf8)) }
        var tokens: [Any] = []
        loop: while true {
            switch tokenizer.next() {
            case .characters: tokens.append(["Character", String(decoding: tokenizer.characters, as: UTF8.self)])
            case .startTag(let tag):
                var attributes: [String: String] = [:]
                for attribute in tag.attributes.list { attributes[attribute.name] = attribute.value }
                tokens.append(tag.isSelfClosing ? ["StartTag", tag.name, attributes, true] : ["StartTag", tag.name, attributes])
            case .endTag(let tag): tokens.append(["EndTag", tag.name])
            case .comment(let data, _): tokens.append(["Comment", String(decoding: data, as: UTF8.self)])
            case .doctype(let doctype):
                tokens.append(["DOCTYPE", doctype.name as Any, doctype.publicID as Any, doctype.systemID as Any, !doctype.forceQuirks])
            case .endOfFile: break loop
            }
        }
        return TokenFormat.canonical(TokenFormat.mergeCharacters(tokens))
    }
}

/// html5lib token lists in one comparable spelling.
enum TokenFormat {
    static func mergeCharacters(_ tokens: [Any]) -> [Any] {
        var out: [Any] = []
        for token in tokens {
            if let array = token as? [Any], array.first as? String == "Character", let text = array.last as? String,
               let last = out.last as? [Any], last.first as? String == "Character", let previous = last.last as? String {
                out[out.count - 1] = ["Character", previous + text]
            } else {
                out.append(token)
            }
        }
        return out
    }

    static func canonical(_ value: Any) -> String {
        let normalized = normalize(value)
        guard let data = try? JSONSerialization.data(withJSONObject: normalized, options: [.sortedKeys, .fragmentsAllowed]) else {
            return "\(normalized)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func normalize(_ value: Any) -> Any {
        switch value {
        case let array as [Any]: return array.map(normalize)
        case let dictionary as [String: Any]: return dictionary.mapValues(normalize)
        case let optional as Optional<Any>:
            if case .some(let wrapped) = optional { return wrapped is NSNull ? NSNull() : wrapped }
            return NSNull()
        }
    }
}

/// html5lib's `doubleEscaped` strings: `\uXXXX` escapes to undo once more.
enum Unescape {
    static func string(_ text: String) -> String {
        var units: [UInt16] = []
        var scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 5 < scalars.count, scalars[index + 1] == "u",
               let value = UInt16(String(String.UnicodeScalarView(scalars[(index + 2)...(index + 5)])), radix: 16) {
                units.append(value)
                index += 6
            } else {
                units.append(contentsOf: String(scalars[index]).utf16)
                index += 1
            }
        }
        scalars = []
        return String(decoding: units, as: UTF16.self)
    }

    static func value(_ value: Any) -> Any {
        switch value {
        case let text as String: return string(text)
        case let array as [Any]: return array.map { Self.value($0) }
        case let dictionary as [String: Any]: return dictionary.mapValues { Self.value($0) }
        default: return value
        }
    }
}

/// Cases a conformance suite does not pass, one `key  # reason` a line, read from `Conformance/`.
enum ConformanceExceptions {
    static func load(_ name: String) -> Set<String> {
        let path = TestPaths.tests("MarkbridgeHTMLParserTests/Conformance/" + name)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var keys: Set<String> = []
        for line in text.components(separatedBy: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            let key = line.components(separatedBy: "  # ").first ?? line
            keys.insert(key)
        }
        return keys
    }
}
