import Markbridge
import MarkbridgeJSON

/// `markbridge check`: the migration dry run. Reads a document, writes it in the target format,
/// reads that back, and reports everything that did not survive.
struct CheckCommand {
    static let name = "check"
    static let summary = "Dry-run a conversion: what a document loses on its way to another format and back."

    static let via = OptionSpec(["--via"], value: "format", help: "The format the migration writes (one that reads back: json, markdown, html).")
    static let failOn = GateOptions.failOn(default: GateOptions.defaultFailOn)
    static let specs = [ConvertCommand.from, via, failOn, DiffCommand.format, DiffCommand.color, DiffCommand.ignore, DiffCommand.report]
        + ConversionOptionParsing.specs + [MarkbridgeCommandLine.helpSpec]

    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, required: [via], positional: "<file>", positionalIsRequired: true)

    static func help() -> String {
        HelpFormatter(
            overview: summary,
            discussion: "Reads <file> ('-' for standard input, with --from), writes it as --via with the same reader and writer\n"
                + "options as 'convert', reads the output back, and prints the diagnostics of the three steps and the\n"
                + "difference between the document before and after, each loss with its severity: content, structure,\n"
                + "style or info. Exit status: 0 nothing fails the gate (by default, no content or structure lost),\n"
                + "1 something does (as --fail-on and --ignore count it), 2 trouble.",
            usage: usage,
            arguments: [("<file>", "The document to check.")],
            options: HelpFormatter.optionRows(specs)
        ).render()
    }

    let registry: FormatRegistry
    let io: CommandIO

    func run(_ arguments: [String]) -> CommandResult {
        let plan: Plan
        do {
            let parsed = try ParsedArguments(arguments, specs: Self.specs)
            if parsed.isSet(MarkbridgeCommandLine.helpSpec) {
                return CommandResult(exitCode: DiffCommand.Status.same, standardOutput: Array(Self.help().utf8))
            }
            plan = try Plan(parsed, registry: registry, io: io)
        } catch {
            var failure = MarkbridgeCommandLine.usageFailure(error.message, usage: Self.usage, helpCommand: "markbridge help check")
            failure.exitCode = DiffCommand.Status.trouble
            return failure
        }
        let bytes: [UInt8]
        switch plan.input.bytes(io) {
        case .success(let read): bytes = read
        case .failure(let failure): return CommandResult(exitCode: DiffCommand.Status.trouble, standardError: failure.message)
        }
        let check: MigrationCheck
        do {
            check = try Converter(registry: registry, options: plan.conversion)
                .check(bytes, from: plan.input.format, via: plan.target, diffOptions: plan.diffOptions)
        } catch {
            return CommandResult(exitCode: DiffCommand.Status.trouble,
                                 standardError: "Error: \(ConvertCommand.describe(error, in: plan.input.displayName))\n")
        }
        let lost = plan.gate.fails(check)
        let output = check.report(plan.style == .json ? .json : .text, input: plan.input.displayName, via: plan.target, gate: plan.gate,
                                  color: plan.usesColor)
        if let reportPath = plan.reportPath {
            let page = check.report(.html, input: plan.input.displayName, via: plan.target, gate: plan.gate)
            do {
                try io.writeFile(reportPath, Array(page.utf8))
            } catch {
                return CommandResult(exitCode: DiffCommand.Status.trouble, standardOutput: Array(output.utf8),
                                     standardError: "Error: cannot write '\(reportPath)': \(error)\n")
            }
        }
        return CommandResult(exitCode: lost ? DiffCommand.Status.different : DiffCommand.Status.same, standardOutput: Array(output.utf8))
    }

    private struct Plan {
        var input: DocumentInput
        var target: Format
        var conversion: ConversionOptions
        var diffOptions: DiffOptions
        var gate: LossGate
        var style: DiffCommand.Style
        var usesColor: Bool
        var reportPath: String?

        init(_ parsed: ParsedArguments, registry: FormatRegistry, io: CommandIO) throws(UsageError) {
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: parsed.positionals.isEmpty ? "Expected a document to check" : "Unexpected argument '\(parsed.positionals[1])'")
            }
            input = try DocumentInput(path: parsed.positionals[0], formatName: parsed.value(ConvertCommand.from), option: "--from", registry: registry)
            guard let targetName = parsed.value(CheckCommand.via) else { throw UsageError(message: "Missing --via <format>") }
            let readable = registry.formats.filter { $0.reader != nil && $0.writer != nil }.map(\.name)
            guard let target = registry.format(named: targetName), target.reader != nil, target.writer != nil else {
                throw UsageError(message: "Cannot check a conversion to '\(targetName)' (expected a format that is written and read back: \(readable.joined(separator: ", ")))")
            }
            self.target = target
            conversion = try ConversionOptionParsing.options(parsed)
            (diffOptions, gate) = try GateOptions.parse(ignore: parsed.value(DiffCommand.ignore), failOn: parsed.value(CheckCommand.failOn),
                                                        failOnDefault: GateOptions.defaultFailOn)
            let styleName = parsed.value(DiffCommand.format) ?? "text"
            guard let style = DiffCommand.Style(rawValue: styleName) else {
                throw UsageError(message: "Unknown format '\(styleName)' for --format (expected one of: text, json)")
            }
            self.style = style
            usesColor = try DiffCommand.usesColor(parsed.value(DiffCommand.color), io: io)
            reportPath = parsed.value(DiffCommand.report)
        }
    }
}
