import Markbridge
import MarkbridgeCLI
import Testing

/// `convert --template` reads the input with its reader, then fills the placeholders with the
/// `--arg` values (`name=value` for `{name}`, `N=value` for `%N$@` and the N-th `%@`), then writes.
@Suite("markbridge convert --template")
struct TemplateCommandTests {
    static func output(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("HTML in and out: a name, a whole number by position, a percent sign")
    func html() {
        let files = MemoryFileSystem(files: ["page.html": "<p>Hello <b>{name}</b>, you have %1$d new messages (100%%).</p>"])
        let result = run("convert", "--to", "html", "--template", "--arg", "name=Tanaka", "--arg", "1=3", "page.html", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output("<p>Hello <strong>Tanaka</strong>, you have 3 new messages (100%).</p>\n")))
    }

    @Test("A value is text: markup characters in it are escaped on the way out, an = in it kept")
    func valuesAsText() {
        let files = MemoryFileSystem(files: ["page.md": "Hi *{name}*, see {link}\n"])
        let result = run("convert", "--to", "md", "--template", "--arg", "name=**bold** <b>", "--arg", "link=a=b {name} %@", "page.md", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(#"Hi *\*\*bold\*\* \<b\>*, see a=b {name} %@"# + "\n")))
    }

    @Test("Markdown template right to left, placeholders in the other order")
    func rightToLeft() {
        let files = MemoryFileSystem(files: ["gift.md": "تلقّى *%2$@* هدية من **%1$@**.\n"])
        let result = run("convert", "--to", "markdown", "--template", "--arg", "1=سارة", "--arg", "2=عمر", "gift.md", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output("تلقّى *عمر* هدية من **سارة**.\n")))
    }

    @Test("Markup JSON in and out: offsets in UTF-16 move by an emoji value's exact length")
    func json() {
        let files = MemoryFileSystem(files: ["in.json": #"{"paragraphs":[{"type":"P","text":"👍 {who} liked","markups":[{"type":"STRONG","start":3,"end":8}]}]}"#])
        let result = run("convert", "--template", "--arg", "who=👨‍👩‍👧", "in.json", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(
            #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"👍 👨‍👩‍👧 liked","markups":[{"type":"STRONG","start":3,"end":11}]}]}"# + "\n")))
    }

    @Test("Plain text from standard input, sequential %@ by position")
    func plainText() {
        let files = MemoryFileSystem(standardInput: "%@ and %@\n\n<b>%@</b>\n")
        let result = run("convert", "--from", "text", "--to", "text", "--template", "--arg", "2=two", "--arg", "1=one", "--arg", "3=three", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output("one and two\n\n<b>three</b>\n")))
    }

    @Test("Missing, unused and wrong values fail as conversions do: exit 1, the message naming the placeholder, no output", arguments: [
        (["--arg", "1=3"], "Error: page.html: no argument for '{name}' (block 0, UTF-16 offset 6) [missing-argument]\n"),
        (["--arg", "name=x", "--arg", "1=3", "--arg", "2=4"], "Error: page.html: argument 2 ('4') is taken by no placeholder [unused-argument]\n"),
        (["--arg", "name=x", "--arg", "1=three"],
         "Error: page.html: '%1$d' (block 0, UTF-16 offset 23) takes a whole number, not 'three' (argument 1) [invalid-argument]\n"),
    ])
    func conversionErrors(arguments: [String], standardError: String) {
        let files = MemoryFileSystem(files: ["page.html": "<p>Hello <b>{name}</b>, you have %1$d new messages.</p>"])
        let result = MarkbridgeCommandLine.run(["convert", "--template"] + arguments + ["page.html"], io: files.io)
        #expect(result == CommandResult(exitCode: 1, standardError: standardError))
    }

    @Test("An unsupported placeholder names itself and where it is")
    func unsupportedPlaceholder() {
        let files = MemoryFileSystem(files: ["offer.html": "<h1>Sale</h1><p>50% off</p>"])
        #expect(run("convert", "--template", "offer.html", files: files) == CommandResult(exitCode: 1, standardError:
            "Error: offer.html: a '%' that begins no placeholder (block 1, UTF-16 offset 2); write '%%' for a percent sign [invalid-placeholder]\n"))
    }

    @Test("A {name} in a link's URL stays as written, with a warning; --strict makes it fatal")
    func placeholderInURL() {
        let files = MemoryFileSystem(files: ["link.html": #"<p><a href="https://example.com/u/{id}">{name}</a></p>"#])
        let result = run("convert", "--to", "html", "--template", "--arg", "name=Tanaka", "link.html", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(#"<p><a href="https://example.com/u/{id}">Tanaka</a></p>"# + "\n"),
                                        standardError: "link.html: warning: LINK URL 'https://example.com/u/{id}' keeps '{id}' as written: values never enter URLs (block 0) [placeholder-in-url]\n"))
        #expect(run("convert", "--strict", "--template", "--arg", "name=Tanaka", "link.html", files: files).exitCode == 1)
    }

    static let usage = "Usage: markbridge convert [--from <format>] [--to <format>] [--offsets <unit>] [--pretty] [--output <file>] [--diagnostics <style>] [--strict] [--allow-unsafe-urls] [--base-url <url>] [--embed-hosts <hosts>] [--standalone] [--unknown-elements <policy>] [--lossy] [--markdown-html <policy>] [--detect <kinds>] [--hashtag-url <template>] [--mention-url <template>] [--template] [--arg <name=value> ...] [<file>]\n  See 'markbridge help convert' for more information.\n"

    @Test("Wrong --template command lines are usage errors: exit 64", arguments: [
        (["--arg", "name=x"], "Error: --arg 'name=x' is for a template; pass --template\n"),
        (["--template", "--arg", "novalue"], "Error: --arg takes name=value or position=value, not 'novalue'\n"),
        (["--template", "--arg", "=x"], "Error: --arg takes name=value or position=value, not '=x'\n"),
        (["--template", "--arg", "1=a", "--arg", "3=c"], "Error: --arg 3 given, but no --arg 2; positions go 1, 2, ... without gaps\n"),
        (["--template", "--arg", "0=a"], "Error: --arg position '0' is outside 1...999999\n"),
        (["--template", "--arg", "1=a", "--arg=1=b"], "Error: --arg 1 given twice; give it once\n"),
        (["--template", "--arg", "name=a", "--arg", "name=b"], "Error: --arg name given twice; give it once\n"),
        (["--template", "--arg", "first-name=a"],
         "Error: --arg 'first-name' is neither a name ({name}: a letter or _, then letters, digits or _) nor a position (1, 2, ...)\n"),
        (["--template=yes"], "Error: Option '--template' takes no value\n"),
        (["--template", "--arg"], "Error: Missing value for '--arg <name=value>'\n"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = MarkbridgeCommandLine.run(["convert", "x.html"] + arguments, io: MemoryFileSystem().io)
        #expect(result == CommandResult(exitCode: 64, standardError: message + Self.usage))
    }
}
