import Markbridge
@_spi(Internals) import MarkbridgeJSON

/// `markbridge check`: the migration dry run. Reads a document, writes it in the target format,
/// reads that back, and reports everything that did not survive.
struct CheckCommand {
    static let name = "check"
    static let summary = "Dry-run a conversion: what a document loses on its way to another format and back."

    static let via = OptionSpec(["--via"], value: "format", help: "The format the migration writes (one that reads back: json, markdown, html).")
    static let failOn = OptionSpec(["--fail-on"], value: "classes",
                                   help: "What counts as lost, comma-separated: diagnostic codes, warnings (any warning), diff (any difference).",
                                   default: "warnings,diff")
    static let specs = [ConvertCommand.from, via, failOn, DiffCommand.format, DiffCommand.color, DiffCommand.ignore, DiffCommand.report]
        + ConversionOptionParsing.specs + [MarkbridgeCommandLine.helpSpec]

    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, required: [via], positional: "<file>", positionalIsRequired: true)

    static func help() -> String {
        HelpFormatter(
            overview: summary,
            discussion: "Reads <file> ('-' for standard input, with --from), writes it as --via with the same reader and writer\n"
                + "options as 'convert', reads the output back, and prints the diagnostics of the three steps and the\n"
                + "difference between the document before and after. Exit status: 0 nothing lost, 1 something lost\n"
                + "(as --fail-on counts it), 2 trouble.",
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
        let names = CheckNames(input: plan.input.displayName, target: plan.target.name)
        let lost = plan.failOn.isLost(check)
        let output = switch plan.style {
        case .text: CheckTextReport(usesColor: plan.usesColor, names: names).render(check, lost: lost)
        case .json: CheckJSONReport(names: names).render(check, lost: lost)
        }
        if let reportPath = plan.reportPath {
            let page = DiffHTMLReport(urlPolicy: .default).render(CheckReportContent.make(check, names: names, lost: lost))
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
        var failOn: FailOn
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
            diffOptions = try DiffCommand.diffOptions(parsed.value(DiffCommand.ignore))
            failOn = try FailOn(parsed.value(CheckCommand.failOn) ?? "warnings,diff")
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

/// `--fail-on`: which diagnostics, and whether a difference, count as something lost.
struct FailOn {
    var anyWarning = false
    var anyDifference = false
    var codes: Set<String> = []

    init(_ value: String) throws(UsageError) {
        for item in value.split(separator: ",").map({ String($0) }) {
            switch item {
            case "warnings": anyWarning = true
            case "diff": anyDifference = true
            case "none": break
            default:
                guard !item.isEmpty, item.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
                    throw UsageError(message: "Unknown class '\(item)' for --fail-on (expected warnings, diff, none or diagnostic codes such as unsafe-url)")
                }
                codes.insert(item)
            }
        }
    }

    func counts(_ diagnostic: Diagnostic) -> Bool {
        (anyWarning && diagnostic.severity == .warning) || codes.contains(diagnostic.code)
    }

    /// Whether `check` lost something, as counted here.
    func isLost(_ check: MigrationCheck) -> Bool {
        (anyDifference && !check.diff.isEmpty) || check.diagnostics.contains(where: counts)
    }
}

/// How a check's three documents are named: the input, the written output, its reading back.
struct CheckNames {
    var input: String
    var target: String

    var written: String { "\(input) as \(target)" }
    var before: String { "\(input) (read)" }
    var after: String { "\(input) via \(target) (read back)" }
}

/// A check for people: each step's diagnostics as compilers print them, the diff between before
/// and after, and a verdict.
struct CheckTextReport {
    var usesColor: Bool
    var names: CheckNames

    func render(_ check: MigrationCheck, lost: Bool) -> String {
        var out = ""
        for diagnostic in check.readDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.input) }
        for diagnostic in check.writeDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        for diagnostic in check.readBackDiagnostics { out += DiagnosticStyle.text.render(diagnostic, fileName: names.written) }
        out += DiffTextReport(usesColor: usesColor).render(check.diff, oldName: names.before, newName: names.after)
        out += verdict(check, lost: lost) + "\n"
        return out
    }

    /// `Lost: 2 diagnostics (markup-dropped 1, unsafe-url 1); 1 block differs.` or `Nothing lost.`
    func verdict(_ check: MigrationCheck, lost: Bool) -> String {
        let warnings = check.diagnostics.filter { $0.severity == .warning }
        guard lost || !warnings.isEmpty || !check.diff.isEmpty else { return "Nothing lost." }
        var parts: [String] = []
        if !warnings.isEmpty {
            let byCode = Dictionary(grouping: warnings, by: \.code).map { ($0.key, $0.value.count) }.sorted { $0.0 < $1.0 }
            parts.append("\(warnings.count) warning\(warnings.count == 1 ? "" : "s") (" + byCode.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")")
        }
        if !check.diff.isEmpty {
            let count = check.diff.changes.count
            parts.append("\(count) block\(count == 1 ? "" : "s") differ\(count == 1 ? "s" : "") after reading back")
        }
        return (lost ? "Lost: " : "Not counted as lost (--fail-on): ") + parts.joined(separator: "; ") + "."
    }
}

/// A check for tools: `{"version":1,"file":…,"via":…,"lost":…,"diagnostics":[…],"diff":{…}}`, each
/// diagnostic with the step that raised it (`read`, `write`, `read-back`) first.
struct CheckJSONReport {
    var names: CheckNames

    func render(_ check: MigrationCheck, lost: Bool) -> String {
        let steps: [(String, String, [Diagnostic])] = [
            ("read", names.input, check.readDiagnostics), ("write", names.written, check.writeDiagnostics),
            ("read-back", names.written, check.readBackDiagnostics),
        ]
        let diagnostics = steps.flatMap { step, file, diagnostics in
            diagnostics.map { DiagnosticStyle.jsonObject($0, fileName: file, leading: [("step", JSONStringLiteral.encode(step))]) }
        }
        return "{\"version\":1,\"file\":\(JSONStringLiteral.encode(names.input)),\"via\":\(JSONStringLiteral.encode(names.target)),"
            + "\"lost\":\(lost),\"diagnostics\":[\(diagnostics.joined(separator: ","))],"
            + "\"diff\":\(DiffJSONReport().object(check.diff, oldName: names.before, newName: names.after))}\n"
    }
}

/// A check as a report page: the document before on the left, read back on the right.
enum CheckReportContent {
    static func make(_ check: MigrationCheck, names: CheckNames, lost: Bool) -> ReportContent {
        let diagnostics = check.readDiagnostics.map { ReportDiagnostic(fileName: names.input, diagnostic: $0, side: .old) }
            + check.writeDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .old) }
            + check.readBackDiagnostics.map { ReportDiagnostic(fileName: names.written, diagnostic: $0, side: .new) }
        return ReportContent(
            title: "markbridge check: \(names.input) via \(names.target)", oldName: names.before, newName: names.after,
            old: check.before, new: check.after, diff: check.diff, diagnostics: diagnostics,
            notes: [CheckTextReport(usesColor: false, names: names).verdict(check, lost: lost)])
    }
}
