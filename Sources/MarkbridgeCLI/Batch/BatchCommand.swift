import Foundation
import Markbridge
import MarkbridgeJSON
import MarkbridgeMigration

/// `markbridge batch`: converts one field of every record of JSON Lines input, on every core,
/// in input order, isolating every bad record in a dead-letter file.
struct BatchCommand {
    static let name = "batch"
    static let summary = "Convert one field of every record of JSON Lines input, in parallel."

    static let field = OptionSpec(["--field"], value: "name", help: "The field of each record to convert (a string).")
    static let from = OptionSpec(["--from"], value: "format", help: "The format of the field.")
    static let to = OptionSpec(["--to"], value: "format", help: "The format to convert to.", default: "json")
    static let into = OptionSpec(["--into"], value: "name", help: "The field that gets the result. (default: --field)")
    static let embed = OptionSpec(["--embed"], value: "how",
                                  help: "A JSON result goes in as a JSON value or as a string: json or string.", default: "json")
    static let idField = OptionSpec(["--id-field"], value: "name", help: "The field that names a record in dead letters and diagnostics.", default: "id")
    static let jobs = OptionSpec(["--jobs"], value: "n", help: "Records converted at once. (default: the number of cores)")
    static let output = OptionSpec(["-o", "--output"], value: "file", help: "Write to <file>, atomically, with a checkpoint for --resume.")
    static let deadLetter = OptionSpec(["--dead-letter"], value: "file", help: "Write records that could not be converted to <file>, one JSON object a line.")
    static let diagnostics = OptionSpec(["--diagnostics"], value: "file", help: "Write every record's diagnostics to <file>, one JSON object a record.")
    static let maxRecordBytes = OptionSpec(["--max-record-bytes"], value: "n", help: "Dead-letter records longer than <n> bytes.", default: "16777216")
    static let pieceBytes = OptionSpec(["--piece-bytes"], value: "n",
                                       help: "Read input in pieces of about <n> bytes of whole lines; memory is about --jobs such pieces.", default: "262144")
    static let resume = OptionSpec(["--resume"], help: "Go on from the checkpoint a stopped run left beside --output.")
    static let summaryStyle = OptionSpec(["--summary"], value: "style", help: "The closing summary on standard error: text or json.", default: "text")
    static let timeout = OptionSpec(["--timeout-per-record"], value: "seconds",
                                    help: "Dead-letter a record whose conversion takes longer than <seconds>.")
    static let inputDir = OptionSpec(["--input-dir"], value: "folder", help: "Convert every file of <folder>'s tree instead of JSON Lines (with --output-dir).")
    static let outputDir = OptionSpec(["--output-dir"], value: "folder", help: "Where --input-dir's tree is mirrored, extensions changed to --to's.")
    static let allowOverlap = OptionSpec(["--allow-overlap"],
                                         help: "Let --output-dir and --input-dir overlap; an output never replaces an input, nor is an output read.")
    static let check = OptionSpec(["--check"], help: "Also read each result back, compare it, and count what records lose (a census in the summary).")
    static let failOn = GateOptions.failOn(default: GateOptions.defaultFailOn)
    static let reportDir = OptionSpec(["--report-dir"], value: "folder",
                                      help: "With --check, the census as <folder>/index.html, each class's example records linked to a page of their own.")
    static let checkResults = OptionSpec(["--check-results"], value: "file",
                                         help: "With --check, a JSON line for each record that lost something: its id, file, line, and each class with severity and detail.")
    static let specs = [field, from, to, into, embed, idField, jobs, output, deadLetter, diagnostics, maxRecordBytes, pieceBytes, timeout, resume, summaryStyle,
                        inputDir, outputDir, allowOverlap, check, failOn, DiffCommand.ignore, checkResults, DiffCommand.report, reportDir]
        + ConversionOptionParsing.specs + [MarkbridgeCommandLine.helpSpec]

    static let usage = HelpFormatter.usage("markbridge \(name)", options: specs, required: [field, from], positional: "<file>...")

    static func help(_ registry: FormatRegistry) -> String {
        HelpFormatter(
            overview: summary,
            discussion: """
                Reads JSON Lines from each <file> (or standard input), converts the --field of every record and
                writes the record with the result in --into, every other byte as it was, in input order. Records
                that cannot be converted go to --dead-letter with their line number, byte offset, id and error.
                With --input-dir and --output-dir, every file of a tree is converted instead (its format from
                its extension, or --from), into the same tree under --output-dir; --resume skips files done.
                With --check, each result is read back and compared, and the summary counts the records that lose
                something, by class of loss, worst severity first, with example ids (--report writes the census as
                a page). --fail-on says which losses fail the run (by default content and structure: text, links,
                images, embeds, and the shape of lists, tables and quotes), --ignore which are not counted.
                Exit status: 0 all converted (and, with --check, none failed the gate), 1 some dead-lettered
                (or failed the gate), 64 usage, 74 an input or output failed.
                """,
            usage: usage,
            arguments: [("<file>", "A JSON Lines input, or '-' for standard input. (default: -)")],
            options: HelpFormatter.optionRows(specs)
        ).render()
    }

    let registry: FormatRegistry

    /// Where the command writes what people read: progress and the summary.
    var standardError: @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }

    /// Runs the command; its exit status.
    func run(_ arguments: [String]) async -> Int32 {
        var plan: Plan
        do throws(UsageError) {
            let parsed = try ParsedArguments(arguments, specs: Self.specs)
            if parsed.isSet(MarkbridgeCommandLine.helpSpec) {
                FileHandle.standardOutput.write(Data(Self.help(registry).utf8))
                return ExitCode.success
            }
            plan = try Plan(parsed, registry: registry)
            plan.commandLine = arguments
        } catch {
            standardError(MarkbridgeCommandLine.usageFailure(error.message, usage: Self.usage, helpCommand: "markbridge help batch").standardError)
            return ExitCode.usage
        }
        do {
            return try await execute(plan)
        } catch {
            standardError("Error: \(TerminalText.line(error.description))\n")
            return ExitCode.ioFailure
        }
    }

    /// A checked command line: the migration, and how the command reports it.
    struct Plan {
        var migration: FileMigration
        /// The arguments as given, for the report's run details.
        var commandLine: [String] = []
        var summaryIsJSON: Bool

        init(_ parsed: ParsedArguments, registry: FormatRegistry) throws(UsageError) {
            var inputs = parsed.positionals.isEmpty ? ["-"] : parsed.positionals
            if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "Standard input ('-') can be read once") }
            let inputDir = parsed.value(BatchCommand.inputDir), outputDir = parsed.value(BatchCommand.outputDir)
            if inputDir != nil || outputDir != nil {
                guard inputDir != nil, outputDir != nil else { throw UsageError(message: "--input-dir and --output-dir go together") }
                guard parsed.positionals.isEmpty else { throw UsageError(message: "Unexpected argument '\(parsed.positionals[0])': --input-dir reads a folder, not files") }
                for spec in [BatchCommand.field, BatchCommand.into, BatchCommand.output, BatchCommand.embed] where parsed.value(spec) != nil {
                    throw UsageError(message: "\(spec.key) is for JSON Lines input, not --input-dir")
                }
                inputs = []
            } else if parsed.isSet(BatchCommand.allowOverlap) {
                throw UsageError(message: "--allow-overlap is for --input-dir and --output-dir")
            }
            let field = parsed.value(BatchCommand.field) ?? ""
            guard inputDir != nil || parsed.value(BatchCommand.field) != nil else { throw UsageError(message: "Missing --field: which field of each record to convert") }
            let sourceName = parsed.value(BatchCommand.from)
            guard inputDir != nil || sourceName != nil else { throw UsageError(message: "Missing --from: the format of the field") }
            let sourceFormat = try sourceName.map { name throws(UsageError) in
                guard let format = registry.format(named: name), format.reader != nil else {
                    throw UsageError(message: "Unknown input format '\(name)' (expected one of: \(registry.readableNames.joined(separator: ", ")))")
                }
                return format
            }
            let targetName = parsed.value(BatchCommand.to) ?? "json"
            guard let target = registry.format(named: targetName), target.writer != nil else {
                throw UsageError(message: "Unknown output format '\(targetName)' (expected one of: \(registry.writableNames.joined(separator: ", ")))")
            }
            let embed = parsed.value(BatchCommand.embed) ?? "json"
            guard embed == "json" || embed == "string" else { throw UsageError(message: "Unknown value '\(embed)' for --embed (expected one of: json, string)") }
            var jobs = ProcessInfo.processInfo.activeProcessorCount
            if let text = parsed.value(BatchCommand.jobs) {
                guard let value = Int(text), value > 0 else { throw UsageError(message: "--jobs needs a positive whole number, not '\(text)'") }
                jobs = value
            }
            var maxRecordBytes = 16 << 20
            if let text = parsed.value(BatchCommand.maxRecordBytes) {
                guard let value = Int(text), value > 0 else { throw UsageError(message: "--max-record-bytes needs a positive whole number, not '\(text)'") }
                maxRecordBytes = value
            }
            var pieceBytes = 256 << 10
            if let text = parsed.value(BatchCommand.pieceBytes) {
                guard let value = Int(text), value > 0 else { throw UsageError(message: "--piece-bytes needs a positive whole number, not '\(text)'") }
                pieceBytes = value
            }
            let options = try ConversionOptionParsing.options(parsed)
            let into = parsed.value(BatchCommand.into) ?? field
            let idField = parsed.value(BatchCommand.idField) ?? "id"
            let outputPath = parsed.value(BatchCommand.output).flatMap { $0 == "-" ? nil : $0 }
            let deadLetterPath = parsed.value(BatchCommand.deadLetter)
            let diagnosticsPath = parsed.value(BatchCommand.diagnostics)
            let checkResultsPath = parsed.value(BatchCommand.checkResults)
            if inputDir == nil, let folder = inputs.first(where: { $0 != "-" && POSIXFiles.status($0, followingLinks: true)?.kind == .directory }) {
                throw UsageError(message: "'\(folder)' is a folder, and batch reads JSON Lines files; to convert every file of a tree, use --input-dir \(folder) --output-dir <folder>")
            }
            let resumes = parsed.isSet(BatchCommand.resume)
            if resumes && inputDir == nil {
                guard outputPath != nil else { throw UsageError(message: "--resume needs --output: the checkpoint lives beside the output file") }
                guard !inputs.contains("-") else { throw UsageError(message: "--resume needs input files: standard input cannot be read again") }
            }
            let style = parsed.value(BatchCommand.summaryStyle) ?? "text"
            guard style == "text" || style == "json" else { throw UsageError(message: "Unknown summary style '\(style)' (expected one of: text, json)") }
            summaryIsJSON = style == "json"
            let reportPath = parsed.value(DiffCommand.report)
            let reportDir = parsed.value(BatchCommand.reportDir)
            var timedOptions = options
            var timeoutMessage: String?
            if let text = parsed.value(BatchCommand.timeout) {
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(message: "--timeout-per-record needs a positive number of seconds, not '\(text)'")
                }
                // The record's whole work (a check reads it back too) under one deadline: past it,
                // the conversion stops where it is and the record is a dead letter, nothing left running.
                timedOptions.timeLimit = .seconds(seconds)
                timeoutMessage = "took over \(seconds) s (--timeout-per-record); its conversion was stopped"
            }
            var check: RecordConversion.Check?
            if parsed.isSet(BatchCommand.check) {
                guard target.reader != nil else {
                    throw UsageError(message: "--check reads each result back, and '\(target.name)' cannot be read (check via json, html or markdown)")
                }
                let (diffOptions, gate) = try GateOptions.parse(
                    ignore: parsed.value(DiffCommand.ignore), failOn: parsed.value(BatchCommand.failOn), failOnDefault: GateOptions.defaultFailOn)
                check = RecordConversion.Check(gate: gate, diffOptions: diffOptions)
            } else if parsed.value(DiffCommand.ignore) != nil || parsed.value(BatchCommand.failOn) != nil || reportPath != nil || checkResultsPath != nil
                        || reportDir != nil {
                throw UsageError(message: "--fail-on, --ignore, --check-results, --report and --report-dir go with --check")
            }
            let conversion: RecordConversion
            var records: JSONLinesMigration?
            do throws(ConversionError) {
                conversion = try RecordConversion(converter: Converter(registry: registry, options: timedOptions), to: target, check: check)
                if let source = sourceFormat {
                    records = try JSONLinesMigration(conversion, from: source, field: field, into: into, idField: idField, maxRecordBytes: maxRecordBytes,
                                                       embedsJSONValue: target.name == "json" && embed == "json", window: jobs)
                }
            } catch {
                throw UsageError(message: error.message)
            }
            records?.limitSpelling = "--max-record-bytes"
            records?.conversion.timeoutMessage = timeoutMessage
            var folderConversion = conversion
            folderConversion.timeoutMessage = timeoutMessage
            let source: FileMigration.Source
            if let inputDir, let outputDir {
                source = .folder(input: inputDir, output: outputDir, conversion: folderConversion, only: sourceFormat)
            } else if let records {
                source = .jsonLines(inputs, records)
            } else {
                throw UsageError(message: "Missing --from: the format of the field")
            }
            migration = FileMigration(source, outputs: FileMigration.Outputs(
                output: outputPath, deadLetters: deadLetterPath, diagnostics: diagnosticsPath, checkResults: checkResultsPath,
                report: reportPath, reportFolder: reportDir))
            migration.jobs = jobs
            migration.pieceBytes = pieceBytes
            migration.resumes = resumes
            migration.allowsOverlap = parsed.isSet(BatchCommand.allowOverlap)
            migration.spellings.output = "-o"
            migration.spellings.deadLetters = "--dead-letter"
            migration.spellings.diagnostics = "--diagnostics"
            migration.spellings.checkResults = "--check-results"
            migration.spellings.report = "--report"
            migration.spellings.trees = "--input-dir and --output-dir"
            migration.spellings.allowOverlap = "--allow-overlap"
            do throws(FileMigrationError) {
                try migration.validate()
            } catch {
                throw UsageError(message: error.description)
            }
        }
    }

    private func execute(_ plan: Plan) async throws(FileMigrationError) -> Int32 {
        var migration = plan.migration
        let conversion = migration.conversion
        let inputs: String
        switch migration.source {
        case .jsonLines(let paths, _): inputs = paths.joined(separator: ", ")
        case .folder(let input, _, _, _): inputs = input
        }
        migration.reportTitle = "markbridge batch --check: \(inputs) to \(conversion.target.name)"
        let command = (["markbridge", "batch"] + plan.commandLine).map(Self.shellQuoted).joined(separator: " ")
        migration.reportDetails = [("Command", command), ("Version", "markbridge \(MarkbridgeCommandLine.version)")]
        var progress: BatchProgress?
        let result = try await migration.run { event in
            switch event {
            case .started(let alreadyDone, let totalBytes):
                progress = BatchProgress(totalBytes: totalBytes, alreadyDone: alreadyDone, report: standardError)
            case .progress(let counts):
                progress?.update(counts)
            case .failed(let record):
                let place = record.line.map { ":\($0)" } ?? ""
                standardError("\(TerminalText.line(record.file))\(place): error: \(TerminalText.line(record.message)) [\(record.code)]\n")
            }
        }
        progress?.finish()
        if result.wasComplete, let output = migration.outputs.output {
            standardError("markbridge batch: nothing to resume: '\(TerminalText.line(output))' is complete (no checkpoint beside it, and it is newer than its inputs); "
                          + "run without --resume to convert again\n")
            return ExitCode.success
        }
        standardError(summary(result.counts, elapsed: result.elapsed, asJSON: plan.summaryIsJSON, gate: conversion.check?.gate))
        return result.passes ? ExitCode.success : ExitCode.conversionFailed
    }
}
