import Testing
import MarkbridgeHTML
import MarkbridgeIR
import MarkbridgeJSON
import MarkbridgeText

/// Writers skip their check of a document a reader returned (readers keep every rule the check
/// looks at), and check again once anything in it changed.
@Suite("A reader's document is written without a second check; a changed one is checked")
struct KnownWritableTests {
    @Test("The HTML, markup JSON and plain-text readers mark their documents; equality and hashing ignore the mark")
    func readersMark() throws {
        let html = try HTMLReader().read(Array("<p>a <b>b</b></p><ul><li>c</li></ul>".utf8)).value
        let json = try MarkupJSONReader().read(Array(#"{"paragraphs":[{"type":"H2","text":"a"}]}"#.utf8)).value
        let text = try PlainTextReader().read(Array("a\n\nb\u{0}".utf8)).value
        #expect(html.isKnownWritable && json.isKnownWritable && text.isKnownWritable)
        let built = Document(blocks: html.blocks)
        #expect(!built.isKnownWritable)
        #expect(built == html)
        #expect(built.hashValue == html.hashValue)
        #expect(Set([built, html]).count == 1)
    }

    @Test("Any change to a read document clears the mark, and the writers refuse what the change broke")
    func changeClears() throws {
        var heading = try HTMLReader().read(Array("<h2>title</h2><p>x</p>".utf8)).value
        heading.blocks[0].kind = .heading(level: 9)
        #expect(!heading.isKnownWritable)
        var appended = try MarkupJSONReader().read(Array(#"{"paragraphs":[{"type":"P","text":"a"}]}"#.utf8)).value
        appended.blocks.append(Block(.orderedListItem(number: -5), text: "x"))
        #expect(!appended.isKnownWritable)
        var replaced = try PlainTextReader().read(Array("a".utf8)).value
        replaced.blocks = [Block(.horizontalRule, text: "not empty")]
        #expect(!replaced.isKnownWritable)
        for document in [heading, appended, replaced] {
            let attempts: [(String, Result<Diagnosed<[UInt8]>, ConversionError>)] = [
                ("markup JSON", Result { () throws(ConversionError) in try MarkupJSONWriter().write(document) }),
                ("HTML", Result { () throws(ConversionError) in try HTMLWriter().write(document) }),
                ("plain text", Result { () throws(ConversionError) in try PlainTextWriter().write(document) }),
            ]
            for (writer, attempt) in attempts {
                switch attempt {
                case .success: Issue.record("the \(writer) writer wrote a changed document that breaks the rules: \(document.blocks)")
                case .failure(let error): #expect(error.code == "invalid-document", "\(writer)")
                }
            }
        }
    }
}
