import Foundation
import Testing

/// Where `-o` and `--dead-letter` point at something other than a plain file.
@Suite("markbridge batch: output paths that are links and devices")
struct BatchOutputPathTests {
    private func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }

    @Test("A link to /dev/null stays a link, and the device is not replaced by a file")
    func linkToDevice() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n" + #"{"id":2,"html":5}"# + "\n")
        let output = folder.file("out.jsonl"), dead = folder.file("dead.jsonl")
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(atPath: dead, withDestinationPath: "/dev/null")
        let result = await runBatch("--field", "html", "--from", "html", "-o", output, "--dead-letter", dead, input)
        #expect(result.status == 1)
        #expect(isSymbolicLink(output) && isSymbolicLink(dead))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output) == "/dev/null")
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(device == .typeCharacterSpecial)
        #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
        // Nothing to resume from a device: the run starts over, into it.
        let resumed = await runBatch("--field", "html", "--from", "html", "-o", output, "--resume", input)
        #expect(resumed.status == 1)
        #expect(isSymbolicLink(output))
    }

    @Test("A link to a regular file stays a link; the file it points to gets the output")
    func linkToFile() async throws {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"html":"<p>a</p>"}"# + "\n")
        let target = folder.write("real.jsonl", "old contents\n")
        let link = folder.file("out.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = await runBatch("--field", "html", "--from", "html", "-o", link, input)
        #expect(result.status == 0)
        #expect(isSymbolicLink(link))
        #expect(folder.read("real.jsonl") == #"{"id":1,"html":{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"a"}]}}"# + "\n")
    }
}
