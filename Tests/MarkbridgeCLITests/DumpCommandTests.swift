@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Testing
import MarkbridgeCLI

@Suite("markbridge dump")
struct DumpCommandTests {
    @Test("--html-tree --fragment prints the browser's tree for misnested formatting")
    func fragment() {
        let files = MemoryFileSystem(standardInput: "<b>Bold<i>Bold+Italic</b>Italic</i>")
        #expect(run("dump", "--html-tree", "--fragment", files: files) == CommandResult(exitCode: 0, standardOutput: Array("""
            | <b>
            |   "Bold"
            |   <i>
            |     "Bold+Italic"
            | <i>
            |   "Italic"

            """.utf8)))
    }

    @Test("--html-tree on a whole document, attributes sorted")
    func document() {
        let files = MemoryFileSystem(files: ["a.html": "<!DOCTYPE html><p id=x class=y>t"])
        #expect(run("dump", "--html-tree", "a.html", files: files).standardOutputText == """
            | <!DOCTYPE html>
            | <html>
            |   <head>
            |   <body>
            |     <p>
            |       class="y"
            |       id="x"
            |       "t"

            """)
    }

    @Test("Invalid UTF-8 fails with the byte offset; --lossy repairs and reports")
    func invalidUTF8() {
        let files = MemoryFileSystem(files: ["bad.html": "a\u{FFFD}b"])
        #expect(run("dump", "--html-tree", "bad.html", files: files).exitCode == 0)
        let io = CommandIO(readStandardInput: { [0x61, 0xC3, 0x28] }, readFile: { _ in [] }, writeFile: { _, _ in })
        #expect(MarkbridgeCommandLine.run(["dump", "--html-tree"], io: io) == CommandResult(
            exitCode: 1, standardError: "Error: <stdin>:1:2: invalid UTF-8 at byte 1 [invalid-utf8]\n"))
        #expect(MarkbridgeCommandLine.run(["dump", "--html-tree", "--lossy", "--fragment"], io: io) == CommandResult(
            exitCode: 0, standardOutput: Array("| \"a\u{FFFD}(\"\n".utf8),
            standardError: "<stdin>:1:2: warning: 1 invalid UTF-8 sequence replaced with U+FFFD [invalid-utf8-replaced]\n"))
    }

    @Test("Without --html-tree there is nothing to dump: a usage error")
    func nothing() {
        #expect(run("dump") == CommandResult(exitCode: 64, standardError: """
            Error: Nothing to dump: pass --html-tree
            Usage: markbridge dump --html-tree [--fragment] [--lossy] [<file>]
              See 'markbridge help dump' for more information.

            """))
    }
}
