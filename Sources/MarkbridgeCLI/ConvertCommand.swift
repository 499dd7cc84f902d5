import Markbridge

/// `markbridge convert`: one document from one format to another.
struct ConvertCommand {
    static let name = "convert"
    static let summary = "Convert a document from one format to another."

    static let from = OptionSpec(["--from"], value: "format", help: "The input format. Inferred from the file extension when omitted.")
    static let to = OptionSpec(["--to"], value: "format", help: "The output format.", default: "json")
    static let offsets = OptionSpec(["--offsets"], value: "unit",
                                    help: "Unit of markup offsets in JSON output: utf16, scalar or utf8.", default: "utf16")
    static let pretty = OptionSpec(["--pretty"], help: "Indent JSON output, one key a line.")
    static let output = OptionSpec(["-o", "--output"], value: "file", help: "Write to <file> instead of standard output.")
    static let diagnostics = OptionSpec(["--diagnostics"], value: "style",
                                        help: "How diagnostics are printed: text or json (JSON Lines).", default: "text")
    static let strict = OptionSpec(["--strict"], help: "Fail (exit 1) if the conversion raises any diagnostic.")
    static let unsafeURLs = OptionSpec(["--allow-unsafe-urls"], help: "Let every URL through, javascript: included. Unsafe.")
    static let baseURL = OptionSpec(["--base-url"], value: "url", help: "Resolve relative URLs in HTML input against <url>.")
    static let embedHosts = OptionSpec(["--embed-hosts"], value: "hosts",
                                       help: "Embed only from these hosts (youtube.com,*.vimeo.com); others become links.")
    static let standalone = OptionSpec(["--standalone"], help: "HTML output as a whole document, not a fragment.")
    static let unknownElements = OptionSpec(["--unknown-elements"], value: "policy",
                                            help: "HTML elements without a rule: unwrap (keep their text) or drop.", default: "unwrap")
    static let lossy = OptionSpec(["--lossy"], help: "Replace invalid UTF-8 in HTML input with U+FFFD instead of failing.")
    static let detect = OptionSpec(["--detect"], value: "kinds",
                                   help: "Mark up entities found in the text: hashtags, mentions, urls (comma-separated).")
    static let hashtagURL = OptionSpec(["--hashtag-url"], value: "template",
                                       help: "With --detect hashtags, link each to this URL, {tag} replaced (app://tag?t={tag}).")
    static let mentionURL = OptionSpec(["--mention-url"], value: "template",
                                       help: "With --detect mentions, link each to this URL, {name} replaced.")
    static let markdownHTML = OptionSpec(["--markdown-html"], value: "policy",
                                         help: "Markdown output: keep (inline HTML where CommonMark has no syntax) or drop.", default: "keep")
    static let template = OptionSpec(["--template"], help: "Read the input as a template, and put the --arg values in its placeholders.")
    static let arg = OptionSpec(["--arg"], value: "name=value",
                                help: "A template value (repeatable): name=value for {name}, 2=value for %2$@ and the 2nd %@.", repeatable: true)
    static let specs = [from, to, offsets, pretty, output, diagnostics, strict, unsafeURLs, baseURL, embedHosts, standalone, unknownElements,
                        lossy, markdownHTML, detect, hashtagURL, mentionURL, template, arg, MarkbridgeCommandLine.helpSpec]

    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, positional: "<file>")

    static func help(_ registry: FormatRegistry) -> String {
        var specs = specs
        specs[0] = OptionSpec(from.names, value: from.valueName,
                              help: "The input format: \(registry.readableNames.joined(separator: ", ")). Inferred from the file extension when omitted.")
        specs[1] = OptionSpec(to.names, value: to.valueName,
                              help: "The output format: \(registry.writableNames.joined(separator: ", ")), or one's file extension (md, htm, txt).",
                              default: to.defaultValue)
        return HelpFormatter(
            overview: summary,
            discussion: "Reads <file>, or standard input when <file> is '-' or absent, and writes the result to standard\n"
                + "output. Diagnostics (anything dropped or changed) go to standard error.",
            usage: usage,
            arguments: [("<file>", "The input file, or '-' for standard input. (default: -)")],
            options: HelpFormatter.optionRows(specs)
        ).render()
    }

    let registry: FormatRegistry
    let io: CommandIO

    func run(_ arguments: [String]) -> CommandResult {
        let parsed: ParsedArguments
        let plan: Plan
        do {
            parsed = try ParsedArguments(arguments, specs: Self.specs)
            if parsed.isSet(MarkbridgeCommandLine.helpSpec) {
                return CommandResult(exitCode: ExitCode.success, standardOutput: Array(Self.help(registry).utf8))
            }
            plan = try Plan(parsed, registry: registry)
        } catch {
            return MarkbridgeCommandLine.usageFailure(error.message, usage: Self.usage, helpCommand: "markbridge help convert")
        }
        return execute(plan)
    }

    /// A command line checked against the registry: everything needed to run, nothing left to parse.
    private struct Plan {
        var input: String
        var source: Format
        var target: Format
        var options: ConversionOptions
        var outputPath: String?
        var diagnosticStyle: DiagnosticStyle
        var isStrict: Bool
        /// With `--template`, the values for its placeholders.
        var template: TemplateValues?

        init(_ parsed: ParsedArguments, registry: FormatRegistry) throws(UsageError) {
            guard parsed.positionals.count <= 1 else {
                throw UsageError(message: "Unexpected argument '\(parsed.positionals[1])'")
            }
            input = parsed.positionals.first ?? "-"
            if let name = parsed.value(ConvertCommand.from) {
                guard let format = registry.format(named: name), format.reader != nil else {
                    throw UsageError(message: "Unknown input format '\(name)' (expected one of: \(registry.readableNames.joined(separator: ", ")))")
                }
                source = format
            } else if input == "-" {
                throw UsageError(message: "Cannot infer the input format of standard input; pass --from")
            } else if let format = registry.format(forFileName: input), format.reader != nil {
                source = format
            } else {
                throw UsageError(message: "Cannot infer the input format of '\(input)' from its extension; pass --from")
            }
            let targetName = parsed.value(ConvertCommand.to) ?? "json"
            guard let format = registry.format(named: targetName), format.writer != nil else {
                throw UsageError(message: "Unknown output format '\(targetName)' (expected one of: \(registry.writableNames.joined(separator: ", ")))")
            }
            target = format
            options = try ConversionOptionParsing.options(parsed)
            options.prettyPrinted = parsed.isSet(ConvertCommand.pretty)
            options.standalone = parsed.isSet(ConvertCommand.standalone)
            let style = parsed.value(ConvertCommand.diagnostics) ?? "text"
            guard let parsedStyle = DiagnosticStyle(rawValue: style) else {
                throw UsageError(message: "Unknown diagnostics style '\(style)' (expected one of: text, json)")
            }
            diagnosticStyle = parsedStyle
            outputPath = parsed.value(ConvertCommand.output)
            isStrict = parsed.isSet(ConvertCommand.strict)
            template = try TemplateValues(parsed)
        }
    }

    /// `--template` with its `--arg`s: values by position (`1=Tanaka`, for `%1$@` and the first
    /// `%@`) and by name (`name=Tanaka`, for `{name}`). Each `--arg` splits at its first `=`, so
    /// a value may hold `=`.
    struct TemplateValues: Equatable {
        var positional: [String] = []
        var named: [String: String] = [:]

        init?(_ parsed: ParsedArguments) throws(UsageError) {
            let arguments = parsed.values(ConvertCommand.arg)
            guard parsed.isSet(ConvertCommand.template) else {
                if let first = arguments.first { throw UsageError(message: "--arg '\(first)' is for a template; pass --template") }
                return nil
            }
            var byPosition: [Int: String] = [:]
            for argument in arguments {
                guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                    throw UsageError(message: "--arg takes name=value or position=value, not '\(argument)'")
                }
                let key = String(argument[..<equals]), value = String(argument[argument.index(after: equals)...])
                if key.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    guard key.count <= 6, let position = Int(key), position >= 1 else {
                        throw UsageError(message: "--arg position '\(key)' is outside 1...999999")
                    }
                    guard byPosition.updateValue(value, forKey: position) == nil else {
                        throw UsageError(message: "--arg \(position) given twice; give it once")
                    }
                } else if Self.isName(key) {
                    guard named.updateValue(value, forKey: key) == nil else {
                        throw UsageError(message: "--arg \(key) given twice; give it once")
                    }
                } else {
                    throw UsageError(message: "--arg '\(key)' is neither a name ({name}: a letter or _, then letters, digits or _) nor a position (1, 2, ...)")
                }
            }
            let count = byPosition.keys.max() ?? 0
            if let gap = (0..<count).first(where: { byPosition[$0 + 1] == nil }) {
                throw UsageError(message: "--arg \(count) given, but no --arg \(gap + 1); positions go 1, 2, ... without gaps")
            }
            positional = (0..<count).map { byPosition[$0 + 1] ?? "" }
        }

        private static func isName(_ key: String) -> Bool {
            guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
            return key.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
        }
    }

    private func execute(_ plan: Plan) -> CommandResult {
        let fileName = plan.input == "-" ? "<stdin>" : plan.input
        let bytes: [UInt8]
        do {
            bytes = plan.input == "-" ? try io.readStandardInput() : try io.readFile(plan.input)
        } catch {
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: "Error: cannot read '\(fileName)': \(Self.describe(error))\n")
        }
        let converted: Diagnosed<[UInt8]>
        do {
            converted = try Self.convert(consume bytes, plan, registry: registry)
        } catch {
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: "Error: \(Self.describe(error, in: fileName))\n")
        }
        var standardError = converted.diagnostics.map { plan.diagnosticStyle.render($0, fileName: fileName) }.joined()
        if plan.isStrict && !converted.diagnostics.isEmpty {
            let count = converted.diagnostics.count
            standardError += "Error: --strict: \(count) diagnostic\(count == 1 ? "" : "s") raised; no output written\n"
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: standardError)
        }
        guard let outputPath = plan.outputPath, outputPath != "-" else {
            return CommandResult(exitCode: ExitCode.success, standardOutput: converted.value, standardError: standardError)
        }
        do {
            try io.writeFile(outputPath, converted.value)
        } catch {
            standardError += "Error: cannot write '\(outputPath)': \(Self.describe(error))\n"
            return CommandResult(exitCode: ExitCode.conversionFailed, standardError: standardError)
        }
        return CommandResult(exitCode: ExitCode.success, standardError: standardError)
    }

    /// Reads and writes holding nothing longer than it is needed: the input is freed once read,
    /// the document once written, so that the peak is the larger of input and document, and of
    /// document and output, never all three (for 50 MB of Markdown to JSON, 50 + 75 + 74 MB).
    private static func convert(_ input: consuming [UInt8], _ plan: Plan, registry: FormatRegistry) throws(ConversionError) -> Diagnosed<[UInt8]> {
        let converter = Converter(registry: registry, options: plan.options)
        // A template's entities are found once its values are in (`#{topic}` is a hashtag
        // only then), so it is read without detection and detected after substitution.
        var readOptions = plan.options
        if plan.template != nil { readOptions.entityDetection = nil }
        var read = try Converter(registry: registry, options: readOptions).read(input, from: plan.source.name)
        _ = consume input
        if let template = plan.template {
            let filled = try read.value.substitutingPlaceholders(template.positional, named: template.named)
            read = Diagnosed(filled.value, diagnostics: read.diagnostics + filled.diagnostics)
            if let detection = plan.options.entityDetection {
                let detected = detection.apply(to: read.value, urlPolicy: plan.options.effectiveURLPolicy)
                read = Diagnosed(detected.value, diagnostics: read.diagnostics + detected.diagnostics)
            }
        }
        var written = try converter.write(read.value, to: plan.target.name)
        written.diagnostics = read.diagnostics + written.diagnostics
        return written
    }

    /// `file:line:column: pointer: message [code]` for conversion errors.
    static func describe(_ error: ConversionError, in fileName: String) -> String {
        let file = TerminalText.line(fileName), message = TerminalText.line(error.message)
        guard let location = error.location else { return "\(file): \(message) [\(error.code)]" }
        let pointer = location.jsonPointer.flatMap { $0.isEmpty ? nil : "\(TerminalText.line($0)): " } ?? ""
        return "\(file):\(location.line):\(location.column): \(pointer)\(message) [\(error.code)]"
    }

    private static func describe(_ error: any Error) -> String {
        "\(error)"
    }
}
