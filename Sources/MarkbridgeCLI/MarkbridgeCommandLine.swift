import Markbridge

/// The `markbridge` command: a tree of subcommands, each a small type with a one-line summary.
public enum MarkbridgeCommandLine {
    public static let version = "0.1.0"

    static let helpSpec = OptionSpec(["-h", "--help"], help: "Show help information.")
    static let versionSpec = OptionSpec(["--version"], help: "Show the version.")

    /// Runs the command line `arguments` (without the program name) against `io`.
    public static func run(_ arguments: [String], io: CommandIO = .process, registry: FormatRegistry = .standard) -> CommandResult {
        guard let first = arguments.first else {
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(rootHelp(registry).utf8))
        }
        switch first {
        case "-h", "--help":
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(rootHelp(registry).utf8))
        case "--version":
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array("\(version)\n".utf8))
        case "help":
            return help(Array(arguments.dropFirst()), registry: registry)
        case ConvertCommand.name:
            return ConvertCommand(registry: registry, io: io).run(Array(arguments.dropFirst()))
        case DumpCommand.name:
            return DumpCommand(io: io).run(Array(arguments.dropFirst()))
        case DiffCommand.name:
            return DiffCommand(registry: registry, io: io).run(Array(arguments.dropFirst()))
        case CheckCommand.name:
            return CheckCommand(registry: registry, io: io).run(Array(arguments.dropFirst()))
        case BatchCommand.name:
            return usageFailure("'batch' streams its output: run it through runStreaming(_:)", usage: BatchCommand.usage, helpCommand: "markbridge help batch")
        default:
            let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
            return usageFailure(message, usage: rootUsage, helpCommand: "markbridge help")
        }
    }

    /// Runs a command line whose output is streamed rather than held (`batch`), writing to the
    /// process's own standard output and error; its exit status. Other subcommands run as `run`.
    public static func runStreaming(_ arguments: [String], registry: FormatRegistry = .standard) async -> Int32? {
        guard arguments.first == BatchCommand.name else { return nil }
        return await BatchCommand(registry: registry).run(Array(arguments.dropFirst()))
    }

    static let rootUsage = "markbridge <subcommand>"

    static func rootHelp(_ registry: FormatRegistry) -> String {
        HelpFormatter(
            overview: "Convert rich text between HTML, Markdown and markup JSON.",
            usage: rootUsage,
            options: HelpFormatter.optionRows([versionSpec, helpSpec]),
            subcommands: [
                (ConvertCommand.name, ConvertCommand.summary),
                (BatchCommand.name, BatchCommand.summary),
                (DiffCommand.name, DiffCommand.summary),
                (CheckCommand.name, CheckCommand.summary),
                (DumpCommand.name, DumpCommand.summary),
                ("help", "Show subcommand help information; 'help codes' lists every error and diagnostic code."),
            ],
            footer: "See 'markbridge help <subcommand>' for detailed help."
        ).render()
    }

    private static func help(_ arguments: [String], registry: FormatRegistry) -> CommandResult {
        switch arguments.first {
        case nil:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(rootHelp(registry).utf8))
        case ConvertCommand.name?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(ConvertCommand.help(registry).utf8))
        case DumpCommand.name?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(DumpCommand.help().utf8))
        case BatchCommand.name?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(BatchCommand.help(registry).utf8))
        case DiffCommand.name?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(DiffCommand.help().utf8))
        case CheckCommand.name?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(CheckCommand.help().utf8))
        case "codes"?:
            return CommandResult(exitCode: ExitCode.success, standardOutput: Array(codesHelp().utf8))
        case let other?:
            return usageFailure("Unknown subcommand '\(other)'", usage: rootUsage, helpCommand: "markbridge help")
        }
    }

    /// Every code Markbridge reports, errors then diagnostics, each with what it means.
    static func codesHelp() -> String {
        let width = (DiagnosticCode.all.map(\.code.count).max() ?? 0) + 2
        var out = ""
        for kind in [DiagnosticCode.Kind.error, .diagnostic] {
            out += kind == .error ? "ERRORS (the conversion stops):\n" : "\nDIAGNOSTICS (what a conversion dropped or changed):\n"
            for code in DiagnosticCode.all where code.kind == kind {
                out += "  " + code.code + String(repeating: " ", count: width - code.code.count) + code.summary + "\n"
            }
        }
        return out
    }

    /// `Error: ...`, then the usage line, then where to find help; exit code 64.
    static func usageFailure(_ message: String, usage: String, helpCommand: String) -> CommandResult {
        CommandResult(
            exitCode: ExitCode.usage,
            standardError: "Error: \(message)\nUsage: \(usage)\n  See '\(helpCommand)' for more information.\n")
    }
}
