import Testing
import MarkbridgeCLI

@Suite("Command help")
struct HelpTests {
    static let rootHelp = """
        OVERVIEW: Convert rich text between HTML, Markdown and markup JSON.

        USAGE: markbridge <subcommand>

        OPTIONS:
          --version             Show the version.
          -h, --help            Show help information.

        SUBCOMMANDS:
          convert               Convert a document from one format to another.
          batch                 Convert one field of every record of JSON Lines input, in parallel.
          diff                  Show how two documents differ, block by block, in text, markups and attributes.
          check                 Dry-run a conversion: what a document loses on its way to another format and back.
          dump                  Print the parsed structure of an input, for debugging.
          help                  Show subcommand help information; 'help codes' lists every error and diagnostic code.

          See 'markbridge help <subcommand>' for detailed help.

        """

    static let convertHelp = """
        OVERVIEW: Convert a document from one format to another.

        Reads <file>, or standard input when <file> is '-' or absent, and writes the result to standard
        output. Diagnostics (anything dropped or changed) go to standard error.

        USAGE: markbridge convert [--from <format>] [--to <format>] [--offsets <unit>] [--pretty] [--output <file>] [--diagnostics <style>] [--strict] [--allow-unsafe-urls] [--base-url <url>] [--embed-hosts <hosts>] [--standalone] [--unknown-elements <policy>] [--lossy] [--markdown-html <policy>] [--detect <kinds>] [--hashtag-url <template>] [--mention-url <template>] [--template] [--arg <name=value> ...] [<file>]

        ARGUMENTS:
          <file>                The input file, or '-' for standard input. (default: -)

        OPTIONS:
          --from <format>       The input format: json, html, markdown, gfm, text. Inferred from the file extension when omitted.
          --to <format>         The output format: json, html, markdown, gfm, text, or one's file extension (md, htm, txt). (default: json)
          --offsets <unit>      Unit of markup offsets in JSON output: utf16, scalar or utf8. (default: utf16)
          --pretty              Indent JSON output, one key a line.
          -o, --output <file>   Write to <file> instead of standard output.
          --diagnostics <style> How diagnostics are printed: text or json (JSON Lines). (default: text)
          --strict              Fail (exit 1) if the conversion raises any diagnostic.
          --allow-unsafe-urls   Let every URL through, javascript: included. Unsafe.
          --base-url <url>      Resolve relative URLs in HTML input against <url>.
          --embed-hosts <hosts> Embed only from these hosts (youtube.com,*.vimeo.com); others become links.
          --standalone          HTML output as a whole document, not a fragment.
          --unknown-elements <policy>
                                HTML elements without a rule: unwrap (keep their text) or drop. (default: unwrap)
          --lossy               Replace invalid UTF-8 in HTML input with U+FFFD instead of failing.
          --markdown-html <policy>
                                Markdown output: keep (inline HTML where CommonMark has no syntax) or drop. (default: keep)
          --detect <kinds>      Mark up entities found in the text: hashtags, mentions, urls (comma-separated).
          --hashtag-url <template>
                                With --detect hashtags, link each to this URL, {tag} replaced (app://tag?t={tag}).
          --mention-url <template>
                                With --detect mentions, link each to this URL, {name} replaced.
          --template            Read the input as a template, and put the --arg values in its placeholders.
          --arg <name=value>    A template value (repeatable): name=value for {name}, 2=value for %2$@ and the 2nd %@.
          -h, --help            Show help information.

        """

    @Test("No arguments, -h, --help and help all print the overview", arguments: [[], ["-h"], ["--help"], ["help"]])
    func root(arguments: [String]) {
        let result = MarkbridgeCommandLine.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText == Self.rootHelp)
        #expect(result.standardError.isEmpty)
    }

    @Test("help convert, convert -h and convert --help print the subcommand's help",
          arguments: [["help", "convert"], ["convert", "-h"], ["convert", "--help"]])
    func convert(arguments: [String]) {
        let result = MarkbridgeCommandLine.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText == Self.convertHelp)
        #expect(result.standardError.isEmpty)
    }

    @Test("--version prints the version")
    func version() {
        #expect(run("--version") == CommandResult(exitCode: 0, standardOutput: Array("\(MarkbridgeCommandLine.version)\n".utf8)))
    }

    @Test("help batch prints the batch command's help, its usage made from its options")
    func batch() {
        let result = MarkbridgeCommandLine.run(["help", "batch"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText.hasPrefix("""
            OVERVIEW: Convert one field of every record of JSON Lines input, in parallel.

            Reads JSON Lines from each <file> (or standard input), converts the --field of every record and
            """))
        #expect(result.standardOutputText.contains("USAGE: markbridge batch --field <name> --from <format> [--to <format>] [--into <name>]"))
        #expect(result.standardOutputText.contains("  --dead-letter <file>  Write records that could not be converted to <file>, one JSON object a line."))
    }

    @Test("help diff tells a newcomer that what a reader dropped shows in check, not in diff")
    func diffPointsToCheck() {
        let result = MarkbridgeCommandLine.run(["help", "diff"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutputText.contains("""
            Both sides are compared after they have been read, so what a reader dropped (an element it does not
            support, a colour, an attribute) is in neither and cannot show here: 'diff a.html a.md' is silent
            about it. To see what a conversion loses, run 'markbridge check --via markdown a.html', which
            reads, writes, reads back and reports every loss with its diagnostics.

            USAGE: markbridge diff
            """))
    }
}
