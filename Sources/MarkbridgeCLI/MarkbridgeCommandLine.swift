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

    /// Every code Markbridge reports, errors then diagnostics (each with its severity), each
    /// with what it means; then the classes of difference `check` and `diff` report beside them.
    static func codesHelp() -> String {
        let width = ((DiagnosticCode.all.map(\.code) + differenceClasses.map(\.0)).map(\.count).max() ?? 0) + 2
        let severityWidth = (differenceClasses.map(\.1.count).max() ?? 0) + 2
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        var out = "ERRORS (the conversion stops):\n"
        for code in DiagnosticCode.all where code.kind == .error {
            out += "  " + padded(code.code, width) + code.summary + "\n"
        }
        out += "\nDIAGNOSTICS (what a conversion dropped or changed), with their severity:\n"
        for code in DiagnosticCode.all where code.kind == .diagnostic {
            out += "  " + padded(code.code, width) + padded(code.severity?.rawValue ?? "", severityWidth) + code.summary + "\n"
        }
        out += "\nDIFFERENCES (what check and diff find between a document and its read-back), with their severity:\n"
        for (pattern, severity, meaning) in Self.differenceClasses {
            out += "  " + padded(pattern, width) + padded(severity, severityWidth) + meaning + "\n"
        }
        out += """

            SEVERITIES, worst first: content (text, a link, image or embed), structure (lists, tables, quotes,
            depth, headings), style (colour, alignment, CSS, emphasis), info (recognised, nothing lost).
            --fail-on and --ignore take severities, codes, and classes by key (markup-link-removed) or as markup:TYPE.

            """
        return out
    }

    /// The classes of difference, by key pattern, with their severity: derived from ``LossClass``.
    private static let differenceClasses: [(String, String, String)] = {
        func severities(_ classes: [LossClass]) -> String {
            let found = Set(classes.map(\.severity))
            return LossSeverity.allCases.filter(found.contains).map(\.rawValue).joined(separator: "/")
        }
        let tags = MarkupKind.Tag.allCases
        let links = tags.filter { $0.lossSeverity == .content }.map(\.name).joined(separator: ", ")
        let showing = tags.filter(\.showsWhitespace).map(\.name).joined(separator: ", ")
        var rows: [(String, String, String)] = [
            (LossClass.textChanged.key, LossClass.textChanged.severity.rawValue, "words edited, added or removed"),
            (LossClass.blocksDeleted.key, LossClass.blocksDeleted.severity.rawValue, "a block gone"),
            (LossClass.blocksInserted.key, LossClass.blocksInserted.severity.rawValue, "a block that was not there"),
            (LossClass.blocksMoved.key, LossClass.blocksMoved.severity.rawValue, "a block at another place"),
        ]
        for attribute in BlockAttribute.allCases {
            let lossClass = LossClass.attributeChanged(attribute.rawValue)
            rows.append((lossClass.key, lossClass.severity.rawValue, "a block's \(attribute.rawValue) changed"))
        }
        rows += [
            ("markup-TYPE-removed", severities(tags.map { .markupRemoved($0.name) }), "content for \(links), style for the rest"),
            ("markup-TYPE-added", severities(tags.map { .markupAdded($0.name) }), "content for \(links), style for the rest"),
            ("markup-TYPE-ATTR-changed", severities(LossClass.allCases.filter { if case .markupChanged = $0 { true } else { false } }),
             "a link's or image's href, src, alt or range, a hashtag's tag or a mention's name is content; a title, colour or other range style"),
            ("markup-TYPE-moved-over-whitespace", severities(tags.map { .markupMovedOverWhitespace($0.name) }),
             "an edge moved over whitespace: style where it shows (\(showing)), info elsewhere"),
        ]
        return rows
    }()

    /// `Error: ...`, then the usage line, then where to find help; exit code 64.
    static func usageFailure(_ message: String, usage: String, helpCommand: String) -> CommandResult {
        CommandResult(
            exitCode: ExitCode.usage,
            standardError: "Error: \(message)\nUsage: \(usage)\n  See '\(helpCommand)' for more information.\n")
    }
}
