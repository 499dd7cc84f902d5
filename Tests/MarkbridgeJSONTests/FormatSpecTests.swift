import Foundation
import Testing
@_spi(InlineTraversal) import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeTestSupport

/// The format spec's examples are read by the reader, so the spec cannot drift from the code.
@Suite("Markup JSON format spec")
struct FormatSpecTests {
    static let folder = TestPaths.repositoryRoot + "/Sources/MarkbridgeJSON/MarkbridgeJSON.docc/"

    /// Lines of the spec's json code blocks that are single objects with a `type`.
    static func exampleLines(startingWith prefix: String) -> [String] {
        guard let text = try? String(contentsOfFile: folder + "MarkupJSONFormat.md", encoding: .utf8) else { return [] }
        return text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test("Every block example reads without a diagnostic")
    func blockExamples() throws {
        // A table row's cells have offsets too; every other line with a `start` is a markup's.
        let lines = Self.exampleLines(startingWith: #"{"type": ""#).filter { !$0.contains(#""start""#) || $0.hasPrefix(#"{"type": "TR""#) }
        #expect(lines.count == 24)
        let document = try MarkupJSONReader().read(#"{"paragraphs":["# + lines.joined(separator: ",") + "]}")
        #expect(document.diagnostics.isEmpty)
        #expect(document.value.blocks.count == 24)
        // Every block type has its example (the headings one, H2).
        #expect(Set(document.value.blocks.compactMap(\.kind.tag)) == Set(BlockKind.Tag.allCases.filter { $0.headingLevel == nil || $0 == .heading2 }))
        #expect(document.value.invariantViolations().isEmpty)
    }

    @Test("Every markup example reads without a diagnostic, one of each type")
    func markupExamples() throws {
        let lines = Self.exampleLines(startingWith: #"{"type": ""#).filter { $0.contains(#""start""#) && !$0.hasPrefix(#"{"type": "TR""#) }
        #expect(lines.count == MarkupKind.Tag.count)
        let json = #"{"paragraphs":[{"type":"P","text":"abcdefghijkl\uFFFC","markups":["# + lines.joined(separator: ",") + "]}]}"
        let document = try MarkupJSONReader().read(json)
        #expect(document.diagnostics.isEmpty)
        #expect(Set(document.value.blocks[0].markups.map(\.kind.tag)) == Set(MarkupKind.Tag.allCases))
    }

    @Test("The JSON Schema is valid JSON naming every block and markup type")
    func schema() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.folder + "markup-json-v1.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let text = String(decoding: data, as: UTF8.self)
        #expect(schema["title"] as? String == "Markup JSON, version 1")
        // The two type enumerations are exactly the kinds, in declaration order.
        let blockTypes = "[" + BlockKind.Tag.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "]"
        let markupTypes = "[" + MarkupKind.Tag.allCases.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]"
        #expect(text.contains(#""type": {"enum": \#(blockTypes)}"#))
        #expect(text.contains(#""type": {"enum": \#(markupTypes)}"#))
    }
}
