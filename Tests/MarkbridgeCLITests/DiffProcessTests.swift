import Foundation
import Testing
import MarkbridgeTestSupport

/// `markbridge diff` as a process: what only separate processes show (each its own hash seed)
/// and a reader that goes away.
@Suite("markbridge diff as a process", .serialized, .enabled(if: BatchBinary.path != nil, "the markbridge binary is not built"))
struct DiffProcessTests {
    /// A pair full of ties: markups of one type starting at the same offsets, blocks that repeat.
    private func pair(in folder: ScratchFolder) -> (String, String) {
        let markups = (0..<12).map { #"{"type":"STRONG","start":\#($0 % 3),"end":\#(6 + $0 % 5)}"# }.joined(separator: ",")
        let others = (0..<12).map { ##"{"type":"COLOR","start":\##($0 % 4),"end":\##(8 + $0 % 3),"color":"#FF0000"}"## }.joined(separator: ",")
        let a = folder.write("a.json", #"{"paragraphs":[{"type":"P","text":"abcdefghijkl","markups":[\#(markups)]},{"type":"P","text":"x"},{"type":"P","text":"x"}]}"#)
        let b = folder.write("b.json", #"{"paragraphs":[{"type":"P","text":"x"},{"type":"P","text":"abcdefghijkl","markups":[\#(others)]},{"type":"P","text":"y"}]}"#)
        return (a, b)
    }

    @Test("The same pair gives byte-identical JSON in every process")
    func deterministic() throws {
        let folder = ScratchFolder()
        let (a, b) = pair(in: folder)
        var outputs = Set<String>()
        for run in 0..<6 {
            let path = folder.file("out-\(run).json")
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            let result = try BatchBinary.run(["diff", "--format", "json", a, b], standardOutput: handle)
            try handle.close()
            #expect(result.status == 1)
            outputs.insert(try #require(folder.read("out-\(run).json")))
        }
        #expect(outputs.count == 1)
    }

    @Test("A reader that closes the pipe early ends the run with status 74, not a crash")
    func closedPipe() throws {
        let folder = ScratchFolder()
        let blocks = (0..<20_000).map { #"{"type":"P","text":"Paragraph \#($0)."}"# }.joined(separator: ",")
        let a = folder.write("a.json", #"{"paragraphs":[\#(blocks)]}"#)
        let b = folder.write("b.json", #"{"paragraphs":[]}"#)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try BatchBinary.run(["diff", a, b], standardOutput: pipe.fileHandleForWriting)
        #expect(result.status == 74)
        #expect(!result.standardError.contains("Fatal error"))
    }
}
