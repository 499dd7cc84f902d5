import Foundation
import Testing
import MarkbridgeCLI

/// `convert -o` on real files: written from the output's own bytes, as batch writes (a temporary
/// file beside it renamed over it; a device written in place, never replaced by a file).
@Suite("markbridge convert -o: files, links and devices")
struct ConvertOutputFileTests {
    static func convert(to output: String, in folder: ScratchFolder) -> CommandResult {
        let input = folder.write("in.html", "<p>a <b>b</b></p>")
        return MarkbridgeCommandLine.run(["convert", "--to", "markdown", input, "-o", output], io: .process)
    }

    @Test("A new file gets the output, and no temporary file is left beside it")
    func newFile() throws {
        let folder = ScratchFolder()
        let result = Self.convert(to: folder.file("out.md"), in: folder)
        #expect(result.exitCode == 0 && result.standardError == "")
        #expect(try String(contentsOfFile: folder.file("out.md"), encoding: .utf8) == "a **b**\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["in.html", "out.md"])
    }

    @Test("A link to /dev/null stays a link, and the device stays a device")
    func linkToDevice() throws {
        let folder = ScratchFolder()
        let output = folder.file("out.md")
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "/dev/null")
        let result = Self.convert(to: output, in: folder)
        #expect(result.exitCode == 0 && result.standardError == "")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output) == "/dev/null")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)
    }

    @Test("An output in a folder that does not exist is an error naming it, exit 1")
    func missingFolder() {
        let folder = ScratchFolder()
        let result = Self.convert(to: folder.file("none/out.md"), in: folder)
        #expect(result.exitCode == 1)
        #expect(result.standardError == "Error: cannot write '\(folder.file("none/out.md"))': No such file or directory\n")
    }
}
