import Testing
import MarkbridgeCLI

/// What the command prints for people carries no control character from the input: an escape
/// sequence would recolour or rewrite the terminal, a line break inside a message would fake a
/// line of its own. Controls show as `\u{XX}` escapes; text output has none at all.
@Suite("markbridge: nothing from the input controls the terminal")
struct TerminalSafetyTests {
    @Test("E8: diagnostics quoting an element name or a CSS property show its controls as escapes")
    func diagnostics() {
        let files = MemoryFileSystem(standardInput: "<p>a<x-\u{1B}[31m>b</x-\u{1B}[31m><span style=\"co\u{1B}]0;pwn\u{7}lor: red\">c</span></p>")
        let result = run("convert", "--from", "html", "--to", "text", "-", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Array("abc\n".utf8), standardError: """
            <stdin>:1:5: warning: <x-\\u{1B}[31m> unwrapped, its text kept (1×) [unknown-element]
            <stdin>:1:25: warning: CSS property 'pwn\\u{7}lor' dropped (1×) [dropped-style]

            """))
    }

    @Test("An error quoting a JSON string stays on one line, its line break and escape shown")
    func errorMessage() {
        let files = MemoryFileSystem(standardInput: #"{"paragraphs":[{"type":"X\n1:1: warning: fake [x]\u001b[2J"}]}"#)
        #expect(run("convert", "--from", "json", "-", files: files) == CommandResult(exitCode: 1, standardError:
            "Error: <stdin>:1:16: /paragraphs/0/type: unknown block type 'X\\u{A}1:1: warning: fake [x]\\u{1B}[2J' (expected one of P, H1, H2, H3, H4, H5, H6, BQ, PRE, ULI, OLI, IMG, EMBED, TR, CAPTION, DT, DD, HR) [unknown-type]\n"))
    }

    @Test("E8: a file name with controls is escaped where it is printed")
    func fileName() {
        #expect(run("convert", "no\u{1B}[2Jpe.json").standardError == "Error: cannot read 'no\\u{1B}[2Jpe.json': no such file\n")
    }

    @Test("The HTML tree dump keeps line breaks and tabs in text and escapes every other control")
    func dump() {
        let files = MemoryFileSystem(standardInput: "<p>\u{1B}[31mred\ttab\nnext\u{9B}</p>")
        #expect(run("dump", "--html-tree", "--fragment", "-", files: files).standardOutputText
            == "| <p>\n|   \"\\u{1B}[31mred\ttab\nnext\\u{9B}\"\n")
    }

    @Test("Text output: escape sequences and bells from character references become U+FFFD, reported")
    func textOutput() {
        let files = MemoryFileSystem(standardInput: "<p>&#27;[31mred&#7;</p>")
        #expect(run("convert", "--from", "html", "--to", "text", "-", files: files) == CommandResult(
            exitCode: 0, standardOutput: Array("\u{FFFD}[31mred\u{FFFD}\n".utf8),
            standardError: "<stdin>: warning: 2 control characters in block 0 written as U+FFFD (or a CR as a line break): text output carries none but tab and line feed [control-character-replaced]\n"))
    }

    @Test("A25: UTF-16 input is refused by every reader, with the encoding named", arguments: ["html", "markdown", "json"])
    func utf16(format: String) {
        // ASCII as UTF-16LE: each character followed by a NUL (a valid, if odd, UTF-8 string).
        let utf16 = "<p>Hello</p>".map { "\($0)\u{0}" }.joined()
        let result = run("convert", "--from", format, "-", files: MemoryFileSystem(standardInput: utf16))
        #expect(result == CommandResult(exitCode: 1, standardError:
            "Error: <stdin>:1:1: input is UTF-16LE, not UTF-8: 12 of its first 24 bytes are NUL, in the pattern of UTF-16LE text; convert it first (for example `iconv -f UTF-16LE -t UTF-8`) [not-utf8]\n"))
    }
}
