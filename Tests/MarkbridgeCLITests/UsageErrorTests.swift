import Testing
import MarkbridgeCLI

@Suite("Command usage errors: Error, usage line, pointer to help; exit 64")
struct UsageErrorTests {
    static let convertUsage = "Usage: markbridge convert [--from <format>] [--to <format>] [--offsets <unit>] [--pretty] [--output <file>] [--diagnostics <style>] [--strict] [--allow-unsafe-urls] [--base-url <url>] [--embed-hosts <hosts>] [--standalone] [--unknown-elements <policy>] [--lossy] [--markdown-html <policy>] [--detect <kinds>] [--hashtag-url <template>] [--mention-url <template>] [--template] [--arg <name=value> ...] [<file>]\n  See 'markbridge help convert' for more information.\n"
    static let rootUsage = "Usage: markbridge <subcommand>\n  See 'markbridge help' for more information.\n"

    @Test("Each wrong command line gets its message", arguments: [
        (["frobnicate"], "Error: Unknown subcommand 'frobnicate'\n" + rootUsage),
        (["--frob"], "Error: Unknown option '--frob'\n" + rootUsage),
        (["help", "frobnicate"], "Error: Unknown subcommand 'frobnicate'\n" + rootUsage),
        (["convert", "--bogus"], "Error: Unknown option '--bogus'\n" + convertUsage),
        (["convert", "a.json", "b.json"], "Error: Unexpected argument 'b.json'\n" + convertUsage),
        (["convert"], "Error: Cannot infer the input format of standard input; pass --from\n" + convertUsage),
        (["convert", "doc.docx"], "Error: Cannot infer the input format of 'doc.docx' from its extension; pass --from\n" + convertUsage),
        (["convert", "--from", "rtf", "x"], "Error: Unknown input format 'rtf' (expected one of: json, html, markdown, gfm, text)\n" + convertUsage),
        (["convert", "--to", "rtf", "x.json"], "Error: Unknown output format 'rtf' (expected one of: json, html, markdown, gfm, text)\n" + convertUsage),
        (["convert", "--to", "json", "--to=html", "x.json"], "Error: Option '--to' given twice ('json', then 'html'); give it once\n" + convertUsage),
        (["convert", "--base-url", "/relative", "x.html"], "Error: --base-url must be an absolute URL, not '/relative'\n" + convertUsage),
        (["convert", "--embed-hosts", "youtube.com,https://x.example", "x.html"],
         "Error: --embed-hosts takes host names and *.suffix patterns, not 'https://x.example'\n" + convertUsage),
        (["convert", "--unknown-elements", "keep", "x.html"], "Error: Unknown policy 'keep' for --unknown-elements (expected one of: unwrap, drop)\n" + convertUsage),
        (["convert", "--offsets", "utf32", "x.json"], "Error: Unknown offset unit 'utf32' (expected one of: utf16, scalar, utf8)\n" + convertUsage),
        (["convert", "--diagnostics", "xml", "x.json"], "Error: Unknown diagnostics style 'xml' (expected one of: text, json)\n" + convertUsage),
        (["convert", "x.json", "--to"], "Error: Missing value for '--to <format>'\n" + convertUsage),
        (["convert", "--strict=yes", "x.json"], "Error: Option '--strict' takes no value\n" + convertUsage),
    ])
    func usage(arguments: [String], message: String) {
        let result = MarkbridgeCommandLine.run(arguments, io: MemoryFileSystem().io)
        #expect(result == CommandResult(exitCode: 64, standardError: message))
    }
}
