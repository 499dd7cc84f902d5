import Foundation
import Markbridge
import MarkbridgeJSON

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
        } catch let error as BatchIOError {
            standardError("Error: \(TerminalText.line(error.description))\n")
            return ExitCode.ioFailure
        } catch {
            standardError("Error: \(TerminalText.line("\(error)"))\n")
            return ExitCode.ioFailure
        }
    }

    /// A checked command line: everything needed to run.
    struct Plan {
        var inputs: [String]
        var converter: BatchRecordConverter
        var jobs: Int
        var pieceBytes: Int
        var outputPath: String?
        var deadLetterPath: String?
        var diagnosticsPath: String?
        var checkResultsPath: String?
        /// The arguments as given, for the report's run details.
        var commandLine: [String] = []
        var resumes: Bool
        var summaryIsJSON: Bool
        var reportPath: String?
        var reportDir: String?
        /// Directory mode: the trees, when `--input-dir` is given.
        var directory: BatchDirectory?
        /// What shapes the output, for the checkpoint.
        var settings: [String]

        init(_ parsed: ParsedArguments, registry: FormatRegistry) throws(UsageError) {
            inputs = parsed.positionals.isEmpty ? ["-"] : parsed.positionals
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
            let source = try sourceName.map { name throws(UsageError) in
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
            self.jobs = jobs
            var maxRecordBytes = 16 << 20
            if let text = parsed.value(BatchCommand.maxRecordBytes) {
                guard let value = Int(text), value > 0 else { throw UsageError(message: "--max-record-bytes needs a positive whole number, not '\(text)'") }
                maxRecordBytes = value
            }
            pieceBytes = 256 << 10
            if let text = parsed.value(BatchCommand.pieceBytes) {
                guard let value = Int(text), value > 0 else { throw UsageError(message: "--piece-bytes needs a positive whole number, not '\(text)'") }
                pieceBytes = value
            }
            let options = try ConversionOptionParsing.options(parsed)
            let into = parsed.value(BatchCommand.into) ?? field
            let idField = parsed.value(BatchCommand.idField) ?? "id"
            outputPath = parsed.value(BatchCommand.output).flatMap { $0 == "-" ? nil : $0 }
            deadLetterPath = parsed.value(BatchCommand.deadLetter)
            diagnosticsPath = parsed.value(BatchCommand.diagnostics)
            checkResultsPath = parsed.value(BatchCommand.checkResults)
            if inputDir == nil, let folder = inputs.first(where: { $0 != "-" && POSIXFiles.status($0, followingLinks: true)?.kind == .directory }) {
                throw UsageError(message: "'\(folder)' is a folder, and batch reads JSON Lines files; to convert every file of a tree, use --input-dir \(folder) --output-dir <folder>")
            }
            resumes = parsed.isSet(BatchCommand.resume)
            if resumes && inputDir == nil {
                guard outputPath != nil else { throw UsageError(message: "--resume needs --output: the checkpoint lives beside the output file") }
                guard !inputs.contains("-") else { throw UsageError(message: "--resume needs input files: standard input cannot be read again") }
            }
            let style = parsed.value(BatchCommand.summaryStyle) ?? "text"
            guard style == "text" || style == "json" else { throw UsageError(message: "Unknown summary style '\(style)' (expected one of: text, json)") }
            summaryIsJSON = style == "json"
            reportPath = parsed.value(DiffCommand.report)
            reportDir = parsed.value(BatchCommand.reportDir)
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
            var migration: JSONLinesMigration?
            do throws(ConversionError) {
                conversion = try RecordConversion(converter: Converter(registry: registry, options: timedOptions), to: target, check: check)
                if let source {
                    migration = try JSONLinesMigration(conversion, from: source, field: field, into: into, idField: idField, maxRecordBytes: maxRecordBytes,
                                                       embedsJSONValue: target.name == "json" && embed == "json", window: jobs)
                }
            } catch {
                throw UsageError(message: error.message)
            }
            migration?.limitSpelling = "--max-record-bytes"
            var records = BatchRecordConverter(conversion: conversion, migration: migration, keepsDiagnostics: diagnosticsPath != nil,
                                               inputNames: inputs.map { $0 == "-" ? "<stdin>" : $0 })
            records.conversion.timeoutMessage = timeoutMessage
            records.migration?.conversion.timeoutMessage = timeoutMessage
            records.keepsCheckResults = checkResultsPath != nil
            records.keepsRecordPages = reportDir != nil
            converter = records
            if let inputDir, let outputDir, let overlap = BatchPathCheck.overlap(input: inputDir, output: outputDir), !parsed.isSet(BatchCommand.allowOverlap) {
                throw UsageError(message: "--input-dir and --output-dir overlap: \(overlap); outputs would land among the inputs (--allow-overlap writes beside them, never over one)")
            }
            var outputs: [(option: String, path: String)] = []
            if let outputPath { outputs += [("-o", outputPath), ("the checkpoint of -o", BatchCheckpoint.path(for: outputPath))] }
            if let deadLetterPath { outputs.append(("--dead-letter", deadLetterPath)) }
            if let diagnosticsPath { outputs.append(("--diagnostics", diagnosticsPath)) }
            if let checkResultsPath { outputs.append(("--check-results", checkResultsPath)) }
            if let reportPath { outputs.append(("--report", reportPath)) }
            try BatchPathCheck.checkDistinct(outputs: outputs, inputs: inputs.filter { $0 != "-" })
            if let inputDir, let outputDir {
                directory = BatchDirectory(input: inputDir, output: outputDir, source: source, target: target, registry: registry, resumes: resumes)
            }
            settings = [source?.name ?? "", target.name, field, into, embed, idField, "\(maxRecordBytes)",
                        BatchCommand.settingsKey(options), check.map { BatchCommand.settingsKey($0.diffOptions) + ";gate=" + $0.gate.description } ?? "no check"]
        }
    }

    private func execute(_ plan: Plan) async throws -> Int32 {
        if let directory = plan.directory { return try await execute(directory, plan: plan) }
        let started = ContinuousClock.now
        var checkpoint: BatchCheckpoint?
        if plan.resumes, let outputPath = plan.outputPath { checkpoint = try BatchCheckpoint.load(for: outputPath) }
        if plan.resumes, checkpoint == nil, let outputPath = plan.outputPath, let finished = Self.finishedRun(plan, output: outputPath) {
            standardError(finished)
            return ExitCode.success
        }
        if checkpoint == nil { Self.startOver(plan) }
        if let checkpoint, let outputPath = plan.outputPath {
            guard checkpoint.settings == plan.settings, checkpoint.inputs == (try BatchCheckpoint.inputs(plan.inputs)),
                  (checkpoint.partials.deadLetters != nil) == plan.deadLetterPath.map(BatchFile.isReplaced) ?? false,
                  (checkpoint.partials.diagnostics != nil) == plan.diagnosticsPath.map(BatchFile.isReplaced) ?? false,
                  (checkpoint.partials.checkResults != nil) == plan.checkResultsPath.map(BatchFile.isReplaced) ?? false else {
                throw BatchIOError("the checkpoint beside '\(outputPath)' is for other inputs or options; remove it to start over")
            }
            try checkpoint.checkContent(of: plan.inputs, output: outputPath)
        }
        // Opened one by one: when one cannot be, those opened before are removed with it.
        var opened: [BatchFile] = []
        func file(_ path: String?, _ partial: String?, _ bytes: Int?) throws(BatchIOError) -> BatchFile? {
            guard let path else { return nil }
            do throws(BatchIOError) {
                let file = try BatchFile(path: path, resuming: partial.flatMap { name in bytes.map { (name, $0) } })
                opened.append(file)
                return file
            } catch {
                if checkpoint == nil { opened.forEach { $0.abandon() } }
                throw error
            }
        }
        let output = try file(plan.outputPath, checkpoint?.partials.output, checkpoint?.outputBytes) ?? BatchFile()
        let deadLetters = try file(plan.deadLetterPath, checkpoint?.partials.deadLetters, checkpoint?.deadLetterBytes)
        let diagnostics = try file(plan.diagnosticsPath, checkpoint?.partials.diagnostics, checkpoint?.diagnosticsBytes)
        let checkResults = try file(plan.checkResultsPath, checkpoint?.partials.checkResults, checkpoint?.checkResultsBytes ?? 0)
        var checkpointSaved = checkpoint != nil
        do {
            return try await run(plan, checkpoint: checkpoint, files: BatchOutputFiles(output: output, deadLetters: deadLetters, diagnostics: diagnostics, checkResults: checkResults),
                                 started: started, checkpointSaved: &checkpointSaved)
        } catch {
            // A failed run leaves no temporary file behind, but those a checkpoint counts on for --resume.
            if !checkpointSaved { opened.forEach { $0.abandon() } }
            throw error
        }
    }

    /// `--resume` with no checkpoint: when the output and every side file asked for are there,
    /// none older than an input, the run they came from finished (a run removes its checkpoint
    /// only after renaming the side files, then the output, into place), so there is nothing to
    /// do: the message saying so. Nil when something is missing or older, and the run starts over.
    private static func finishedRun(_ plan: Plan, output: String) -> String? {
        let inputs = plan.inputs.compactMap { POSIXFiles.status($0, followingLinks: true) }
        guard inputs.count == plan.inputs.count else { return nil }
        for path in [plan.outputPath, plan.deadLetterPath, plan.diagnosticsPath, plan.checkResultsPath].compactMap({ $0 }) {
            guard let status = POSIXFiles.status(path, followingLinks: true), status.kind == .regular,
                  inputs.allSatisfy({ status.isNotOlder(than: $0) }) else { return nil }
        }
        return "markbridge batch: nothing to resume: '\(TerminalText.line(output))' is complete (no checkpoint beside it, and it is newer than its inputs); "
            + "run without --resume to convert again\n"
    }

    /// A run that is not resumed starts over: an earlier run's checkpoint is removed, and so
    /// are the temporary files earlier runs of these outputs left (killed, or killed before their
    /// first checkpoint): their random names would otherwise be left for good.
    private static func startOver(_ plan: Plan) {
        guard let outputPath = plan.outputPath else { return }
        BatchCheckpoint.remove(for: outputPath)
        POSIXFiles.removeTemporaries(for: BatchCheckpoint.path(for: outputPath), suffix: "tmp")
        for path in [plan.outputPath, plan.deadLetterPath, plan.diagnosticsPath, plan.checkResultsPath].compactMap({ $0 }) where BatchFile.isReplaced(path) {
            let real = POSIXFiles.status(path)?.kind == .symbolicLink ? (POSIXFiles.realPath(path) ?? path) : path
            POSIXFiles.removeTemporaries(for: real, suffix: "partial")
        }
    }

    private func run(_ plan: Plan, checkpoint: BatchCheckpoint?, files: BatchOutputFiles,
                     started: ContinuousClock.Instant, checkpointSaved: inout Bool) async throws -> Int32 {
        let (output, deadLetters, diagnostics, checkResults) = (files.output, files.deadLetters, files.diagnostics, files.checkResults)
        let reportFolder = try plan.reportDir.map { path throws(BatchIOError) in try BatchReportFolder(path: path) }
        var counts = checkpoint?.counts ?? BatchCounts()
        let start = checkpoint?.position ?? BatchPosition(file: 0, offset: 0, line: 1)
        let inputIdentity = plan.outputPath == nil ? [] : try BatchCheckpoint.inputs(plan.inputs.filter { $0 != "-" })
        let totalBytes = plan.inputs.contains("-") ? nil : inputIdentity.reduce(0) { $0 + $1.size }
        let input = BatchInput(paths: plan.inputs, start: start, pieceBytes: plan.pieceBytes, maxRecordBytes: plan.converter.maxRecordBytes)
        let converter = plan.converter
        var progress = BatchProgress(totalBytes: totalBytes, alreadyDone: counts, report: standardError)
        var lastCheckpoint = ContinuousClock.now
        var finishedDigests = checkpoint?.finishedDigests ?? []
        var reached = start
        for try await piece in OrderedConcurrentMap(input, window: plan.jobs, transform: { converter.convert($0) }) {
            // A piece of a later input: those before it were read to their end (or were empty).
            while reached.file < piece.end.file {
                finishedDigests.append(reached.digest)
                reached = BatchPosition(file: reached.file + 1, offset: 0, line: 1)
            }
            reached = piece.end
            try output.write(piece.output)
            if let deadLetters { try deadLetters.write(piece.deadLetters) } else { reportDeadLetters(piece.deadLetters) }
            try diagnostics?.write(piece.diagnostics)
            try checkResults?.write(piece.checkResults)
            counts.add(piece.counts)
            try reportFolder?.write(piece.recordPages, census: counts.census)
            progress.update(counts)
            if let outputPath = plan.outputPath, ContinuousClock.now - lastCheckpoint > .milliseconds(500) {
                try save(checkpointAt: piece.end, finishedDigests: finishedDigests, counts: counts, plan: plan, inputs: inputIdentity,
                         outputPath: outputPath, files: files)
                checkpointSaved = true
                lastCheckpoint = .now
            }
        }
        // A last checkpoint, every byte counted, then the side files renamed into place, then
        // the checkpoint removed, then the output renamed. A kill among the side files resumes
        // to a finished run (a file renamed already is taken as it is); a kill after the
        // checkpoint went starts over; a finished output means a finished run.
        if let outputPath = plan.outputPath {
            try save(checkpointAt: reached, finishedDigests: finishedDigests, counts: counts, plan: plan, inputs: inputIdentity,
                     outputPath: outputPath, files: files)
            checkpointSaved = files.output.partialName != nil
        }
        try deadLetters?.finish()
        try diagnostics?.finish()
        try checkResults?.finish()
        if let outputPath = plan.outputPath { BatchCheckpoint.remove(for: outputPath) }
        try output.finish()
        progress.finish()
        return try finish(counts, plan: plan, inputs: plan.inputs.joined(separator: ", "), started: started, reportFolder: reportFolder)
    }

    /// The options as the checkpoint records them: spelt out field by field, sets sorted, so
    /// that the same command line gives the same text in every process (a `Set`'s own order
    /// changes with each process's hash seed).
    static func settingsKey(_ options: ConversionOptions) -> String {
        let policy = options.urlPolicy
        return [
            "offsets=\(options.offsetUnit.rawValue)", "pretty=\(options.prettyPrinted)",
            "schemes=\(policy.allowedSchemes.sorted().joined(separator: ","))", "relative=\(policy.allowsRelativeURLs)",
            "dataImages=\(policy.allowsDataImages)", "maxURL=\(policy.maxLength)", "unrestricted=\(policy.isUnrestricted)",
            "base=\(options.baseURL ?? "")", options.embedHosts.map { "embedHosts=\($0.sorted().joined(separator: ","))" } ?? "embedHosts:any", "standalone=\(options.standalone)", "unknown=\(options.unknownElements.rawValue)",
            "lossy=\(options.repairsInvalidUTF8)", "markdownHTML=\(options.markdownHTML.rawValue)", "limits=\(options.limits)",
        ].joined(separator: ";")
    }

    static func settingsKey(_ options: DiffOptions) -> String {
        "check;whitespace=\(options.ignoresWhitespace);markups=\(options.ignoredMarkups.map(\.rawValue).sorted().joined(separator: ","));"
            + "linkTargets=\(options.ignoresLinkTargets);attributes=\(options.ignoresAttributes)"
    }

    /// Directory mode: the files of the tree, in path order, on every core. A failure to write
    /// (a full disk) stops the run with exit 74 once the files in flight are done, and no
    /// temporary file is left: each conversion removes its own, and the run removes the rest.
    private func execute(_ directory: BatchDirectory, plan: Plan) async throws -> Int32 {
        let started = ContinuousClock.now
        let tree = try directory.entries()
        do {
            try FileManager.default.createDirectory(atPath: directory.output, withIntermediateDirectories: true)
        } catch {
            throw BatchIOError("cannot make the folder '\(directory.output)': \(error.localizedDescription)")
        }
        var opened: [BatchFile] = []
        var failure: Error?
        do {
            for path in [plan.deadLetterPath, plan.diagnosticsPath, plan.checkResultsPath] {
                opened.append(try path.map { path throws(BatchIOError) in try BatchFile(path: path) } ?? BatchFile())
            }
        } catch {
            opened.forEach { $0.abandon() }
            throw error
        }
        let deadLetters = plan.deadLetterPath == nil ? nil : opened[0]
        let diagnostics = plan.diagnosticsPath == nil ? nil : opened[1]
        let checkResults = plan.checkResultsPath == nil ? nil : opened[2]
        let reportFolder: BatchReportFolder?
        do {
            reportFolder = try plan.reportDir.map { path throws(BatchIOError) in try BatchReportFolder(path: path) }
        } catch {
            opened.forEach { $0.abandon() }
            throw error
        }
        var counts = BatchCounts()
        counts.skippedFiles = tree.skipped
        let stop = BatchStop()
        let converter = BatchFileConverter(records: plan.converter, inputRoot: directory.input, outputRoot: directory.output,
                                           inputFiles: tree.inputFiles, stop: stop)
        do throws(BatchIOError) {
            for (path, earlier) in tree.collisions {
                var result = BatchPieceResult(end: BatchPosition(file: 0, offset: 0, line: 0))
                result.counts.records = 1
                converter.deadLetter(path: path, "output-collision", "'\(path)' would be written where '\(earlier)' is; not converted", into: &result)
                if let deadLetters { try deadLetters.write(result.deadLetters) } else { reportDirectoryDeadLetters(result.deadLetters) }
                counts.add(result.counts)
            }
        } catch {
            failure = error
            stop.set()
        }
        let pending = tree.entries.filter { entry in
            guard directory.resumes, directory.isDone(entry) else { return true }
            counts.alreadyDone += 1
            return false
        }
        var progress = BatchProgress(totalBytes: pending.reduce(0) { $0 + $1.size }, alreadyDone: BatchCounts(), report: standardError)
        // Every result is taken, even after a failure, so that no conversion is still writing when the run ends.
        for try await result in OrderedConcurrentMap(BatchEntries(entries: pending), window: plan.jobs, transform: { converter.convert($0) }) {
            if let error = result.failure, failure == nil { failure = error }
            guard failure == nil else { continue }
            do throws(BatchIOError) {
                if let deadLetters { try deadLetters.write(result.deadLetters) } else { reportDirectoryDeadLetters(result.deadLetters) }
                try diagnostics?.write(result.diagnostics)
                try checkResults?.write(result.checkResults)
            } catch {
                failure = error
                stop.set()
                continue
            }
            counts.add(result.counts)
            do throws(BatchIOError) {
                try reportFolder?.write(result.recordPages, census: counts.census)
            } catch {
                failure = error
                stop.set()
            }
            progress.update(counts)
        }
        do {
            if let failure { throw failure }
            try deadLetters?.finish()
            try diagnostics?.finish()
            try checkResults?.finish()
        } catch {
            opened.forEach { $0.abandon() }
            throw error
        }
        progress.finish()
        return try finish(counts, plan: plan, inputs: directory.input, started: started, reportFolder: reportFolder)
    }

    /// Without --dead-letter, each failed file is one line on standard error.
    private func reportDirectoryDeadLetters(_ lines: [UInt8]) {
        for line in lines.split(separator: 0x0A) {
            guard let letter = try? JSONDecoder().decode(FileDeadLetter.self, from: Data(line)) else { continue }
            standardError("\(TerminalText.line(letter.file)): error: \(TerminalText.line(letter.message)) [\(letter.code)]\n")
        }
    }

    private struct FileDeadLetter: Decodable {
        var file: String
        var code: String
        var message: String
    }

    private func save(checkpointAt position: BatchPosition, finishedDigests: [BatchDigest], counts: BatchCounts, plan: Plan, inputs: [BatchCheckpoint.Input], outputPath: String,
                      files: BatchOutputFiles) throws(BatchIOError) {
        // Written in place (a device): there is nothing to resume.
        guard let outputPartial = files.output.partialName else { return }
        try files.output.sync()
        try files.deadLetters?.sync()
        try files.diagnostics?.sync()
        try files.checkResults?.sync()
        let partials = BatchCheckpoint.Partials(output: outputPartial, deadLetters: files.deadLetters?.partialName,
                                                diagnostics: files.diagnostics?.partialName, checkResults: files.checkResults?.partialName)
        try BatchCheckpoint(settings: plan.settings, inputs: inputs, finishedDigests: finishedDigests, position: position, outputBytes: files.output.written,
                            deadLetterBytes: files.deadLetters?.written ?? 0, diagnosticsBytes: files.diagnostics?.written ?? 0,
                            checkResultsBytes: files.checkResults?.written,
                            partials: partials, counts: counts).save(for: outputPath)
    }

    /// Without --dead-letter, each failed record is one line on standard error.
    private func reportDeadLetters(_ lines: [UInt8]) {
        guard !lines.isEmpty else { return }
        for line in lines.split(separator: 0x0A) {
            guard let letter = try? JSONDecoder().decode(DeadLetter.self, from: Data(line)) else { continue }
            standardError("\(TerminalText.line(letter.file)):\(letter.line): error: \(TerminalText.line(letter.message)) [\(letter.code)]\n")
        }
    }

    private struct DeadLetter: Decodable {
        var file: String
        var line: Int
        var code: String
        var message: String
    }

}

/// The files a JSON Lines run writes: the output, and those beside it that were asked for.
struct BatchOutputFiles {
    var output: BatchFile
    var deadLetters: BatchFile?
    var diagnostics: BatchFile?
    var checkResults: BatchFile?
}
