import Markbridge
import MarkbridgeHTMLParser

/// `markbridge dump`: shows what a reader sees, for debugging conversions.
struct DumpCommand {
    static let name = "dump"
    static let summary = "Print the parsed structure of an input, for debugging."

    static let htmlTree = OptionSpec(["--html-tree"], help: "Print the HTML5 parse tree in the html5lib test format.")
    static let fragment = OptionSpec(["--fragment"], help: "Parse as a fragment in a <body>, as stored content is.")
    static let lossy = OptionSpec(["--lossy"], help: "Replace invalid UTF-8 with U+FFFD instead of failing.")
    static let specs = [htmlTree, fragment, lossy, MarkbridgeCommandLine.helpSpec]

    /// `--html-tree` shows as required; `run` checks it, not the parser, since `--help` needs no `--html-tree`.
    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, required: [htmlTree], positional: "<file>")

    static func help() -> String {
        HelpFormatter(
            overview: summary,
            discussion: "Reads <file>, or standard input when <file> is '-' or absent. With --html-tree, prints the\n"
                + "tree a browser builds: one node a line, two spaces a level, attributes sorted.",
            usage: usage,
            arguments: [("<file>", "The input file, or '-' for standard input. (default: -)")],
            options: HelpFormatter.optionRows(specs)
        ).render()
    }

    let io: CommandIO

    func run(_ arguments: [String]) -> CommandResult {
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ParsedArguments(arguments, specs: Self.specs)
            if parsed.isSet(MarkbridgeCommandLine.helpSpec) {
                return CommandResult(exitCode: ExitCode.success, standardOutput: Array(Self.help().utf8))
            }
            guard parsed.isSet(Self.htmlTree) else { throw UsageError(message: "Nothing to dump: pass --html-tree") }
            guard parsed.positionals.count <= 1 else { throw UsageError(message: "Unexpected argument '\(parsed.positionals[1])'") }
        } catch {
            return MarkbridgeCommandLine.usageFailure(error.message, usage: Self.usage, helpCommand: "markbridge help dump")
        }
        let input = parsed.positionals.first ?? "-"
        let fileName = input == "-" ? "<stdin>" : input
        let bytes: [UInt8]
        do {
            bytes = input == "-" ? try io.readStandardInput() : try io.readFile(input)
        } catch {
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: "Error: cannot read '\(fileName)': \(error)\n")
        }
        let parser = HTMLParser(options: .init(repairsInvalidUTF8: parsed.isSet(Self.lossy)))
        do {
            let tree = parsed.isSet(Self.fragment) ? try parser.parseFragment(bytes) : try parser.parseDocument(bytes)
            let diagnostics = tree.diagnostics.map { DiagnosticStyle.text.render($0, fileName: fileName) }.joined()
            // A debugging view for a terminal: text nodes keep their line breaks and tabs,
            // and any other control shows as an escape.
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(TerminalText.lines(tree.value.html5libDump() + "\n").utf8),
                                 standardError: diagnostics)
        } catch {
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: "Error: \(ConvertCommand.describe(error, in: fileName))\n")
        }
    }
}
