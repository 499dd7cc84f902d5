import Markbridge

/// `markbridge diff`: two documents, in any formats, compared through the IR.
struct DiffCommand {
    static let name = "diff"
    static let summary = "Show how two documents differ, block by block, in text, markups and attributes."

    static let fromA = OptionSpec(["--from-a"], value: "format", help: "The first document's format. Inferred from its extension when omitted.")
    static let fromB = OptionSpec(["--from-b"], value: "format", help: "The second document's format. Inferred from its extension when omitted.")
    static let from = OptionSpec(["--from"], value: "format", help: "Both documents' format, where --from-a or --from-b does not say.")
    static let format = OptionSpec(["--format"], value: "style", help: "text (in the manner of git's word diff) or json.", default: "text")
    static let color = OptionSpec(["--color"], value: "when", help: "Colour the text output: auto (when a terminal), always or never.", default: "auto")
    static let ignore = GateOptions.ignore
    static let failOn = GateOptions.failOn(default: "diff")
    static let report = OptionSpec(["--report"], value: "file", help: "Also write a self-contained HTML report to <file>.")
    static let specs = [fromA, fromB, from, format, color, failOn, ignore, report, ConvertCommand.unsafeURLs, ConvertCommand.baseURL, ConvertCommand.embedHosts,
                        ConvertCommand.unknownElements, ConvertCommand.lossy, ConvertCommand.detect, ConvertCommand.hashtagURL, ConvertCommand.mentionURL,
                        MarkbridgeCommandLine.helpSpec]

    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, positional: "<a> <b>", positionalIsRequired: true)

    static func help() -> String {
        HelpFormatter(
            overview: summary,
            discussion: "Reads <a> and <b> ('-' for standard input, once), converts both to the IR and prints what changes\n"
                + "from <a> to <b>: blocks inserted, deleted and moved, words edited, markups added, removed or changed,\n"
                + "block attributes changed. Exit status as diff(1): 0 the same, 1 different (as --fail-on counts it: by\n"
                + "default any difference), 2 trouble.\n\n"
                + "Both sides are compared after they have been read, so what a reader dropped (an element it does not\n"
                + "support, a colour, an attribute) is in neither and cannot show here: 'diff a.html a.md' is silent\n"
                + "about it. To see what a conversion loses, run 'markbridge check --via markdown a.html', which\n"
                + "reads, writes, reads back and reports every loss with its diagnostics.",
            usage: usage,
            arguments: [("<a>", "The first (old) document."), ("<b>", "The second (new) document.")],
            options: HelpFormatter.optionRows(specs)
        ).render()
    }

    /// diff(1)'s exit statuses.
    enum Status {
        static let same: Int32 = 0
        static let different: Int32 = 1
        static let trouble: Int32 = 2
    }

    let registry: FormatRegistry
    let io: CommandIO

    func run(_ arguments: [String]) -> CommandResult {
        let plan: Plan
        do {
            let parsed = try ParsedArguments(arguments, specs: Self.specs)
            if parsed.isSet(MarkbridgeCommandLine.helpSpec) {
                return CommandResult(exitCode: Status.same, standardOutput: Array(Self.help().utf8))
            }
            plan = try Plan(parsed, registry: registry, io: io)
        } catch {
            var failure = MarkbridgeCommandLine.usageFailure(error.message, usage: Self.usage, helpCommand: "markbridge help diff")
            failure.exitCode = Status.trouble
            return failure
        }
        let converter = Converter(registry: registry, options: plan.conversion)
        var standardError = ""
        var documents: [Document] = []
        var diagnostics: [ReportDiagnostic] = []
        for (input, side) in [(plan.old, ReportDiagnostic.Side.old), (plan.new, .new)] {
            switch input.read(io, converter: converter) {
            case .success(let read):
                documents.append(read.document.value)
                standardError += read.document.diagnostics.map { DiagnosticStyle.text.render($0, fileName: input.displayName) }.joined()
                diagnostics += read.document.diagnostics.map { ReportDiagnostic(fileName: input.displayName, diagnostic: $0, side: side) }
            case .failure(let failure):
                return CommandResult(exitCode: Status.trouble, standardError: standardError + failure.message)
            }
        }
        let result = DocumentDiff(documents[0], documents[1], options: plan.diffOptions)
        let output = switch plan.style {
        case .text: DiffTextReport(usesColor: plan.usesColor).render(result, oldName: plan.old.displayName, newName: plan.new.displayName)
        case .json: DiffJSONReport().render(result, oldName: plan.old.displayName, newName: plan.new.displayName, gate: plan.gate, diagnostics: diagnostics)
        }
        if let reportPath = plan.reportPath {
            let page = DiffHTMLReport(urlPolicy: DiffHTMLReport.linkPolicy).render(ReportContent(
                title: "markbridge diff: \(plan.old.displayName) → \(plan.new.displayName)", oldName: plan.old.displayName,
                newName: plan.new.displayName, old: documents[0], new: documents[1], diff: result, diagnostics: diagnostics))
            do {
                try io.writeFile(reportPath, Array(page.utf8))
            } catch {
                return CommandResult(exitCode: Status.trouble, standardOutput: Array(output.utf8),
                                     standardError: standardError + "Error: cannot write '\(reportPath)': \(error)\n")
            }
        }
        return CommandResult(exitCode: plan.gate.fails(result.losses) ? Status.different : Status.same, standardOutput: Array(output.utf8),
                             standardError: standardError)
    }

    enum Style: String {
        case text, json
    }

    private struct Plan {
        var old: DocumentInput
        var new: DocumentInput
        var conversion: ConversionOptions
        var diffOptions: DiffOptions
        var gate: LossGate
        var style: Style
        var usesColor: Bool
        var reportPath: String?

        init(_ parsed: ParsedArguments, registry: FormatRegistry, io: CommandIO) throws(UsageError) {
            guard parsed.positionals.count == 2 else {
                throw UsageError(message: parsed.positionals.count < 2 ? "Expected two documents to compare"
                                 : "Unexpected argument '\(parsed.positionals[2])'")
            }
            guard parsed.positionals != ["-", "-"] else { throw UsageError(message: "Only one of the documents can be standard input") }
            let both = parsed.value(DiffCommand.from)
            old = try DocumentInput(path: parsed.positionals[0], formatName: parsed.value(DiffCommand.fromA) ?? both, option: "--from-a", registry: registry)
            new = try DocumentInput(path: parsed.positionals[1], formatName: parsed.value(DiffCommand.fromB) ?? both, option: "--from-b", registry: registry)
            conversion = try ConversionOptionParsing.options(parsed)
            (diffOptions, gate) = try GateOptions.parse(ignore: parsed.value(DiffCommand.ignore), failOn: parsed.value(DiffCommand.failOn), failOnDefault: "diff")
            let styleName = parsed.value(DiffCommand.format) ?? "text"
            guard let style = Style(rawValue: styleName) else {
                throw UsageError(message: "Unknown format '\(styleName)' for --format (expected one of: text, json)")
            }
            self.style = style
            usesColor = try DiffCommand.usesColor(parsed.value(DiffCommand.color), io: io)
            reportPath = parsed.value(DiffCommand.report)
        }
    }

    /// `--color auto|always|never`.
    static func usesColor(_ value: String?, io: CommandIO) throws(UsageError) -> Bool {
        switch value ?? "auto" {
        case "auto": io.standardOutputIsTerminal()
        case "always": true
        case "never": false
        case let other: throw UsageError(message: "Unknown value '\(other)' for --color (expected one of: auto, always, never)")
        }
    }
}
