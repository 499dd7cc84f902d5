import Foundation
import Markbridge

/// A migration of files, as `markbridge batch` runs it: JSON Lines records, or every file of a
/// folder's tree, converted on every core in input order, each failure isolated as a dead letter,
/// with checkpoint and resume, the census of what records lose, and its report pages.
///
/// ```swift
/// let conversion = try RecordConversion(to: .markupJSON, check: RecordConversion.Check())
/// let records = try JSONLinesMigration(conversion, from: .html, field: "body")
/// var migration = FileMigration(.jsonLines(["posts.jsonl"], records),
///                               outputs: .init(output: "posts.out.jsonl", deadLetters: "posts.dead.jsonl"))
/// migration.resumes = true
/// let result = try await migration.run()
/// print(result.counts.converted, result.counts.census.failing)
/// ```
///
/// Every output is written to a temporary file beside it and renamed into place when the run
/// ends, so a file under its final name is whole. A JSON Lines run with an `output` saves a
/// checkpoint beside it (`output.checkpoint`) twice a second and when its task is cancelled;
/// run again with `resumes`, it goes on from there, and the finished files are byte for byte
/// those of a run never stopped. A folder run resumes by skipping the files whose output is
/// there already and not older than the input.
public struct FileMigration: Sendable {
    /// What is read.
    public enum Source: Sendable {
        /// JSON Lines files read in turn as one stream of records; `"-"` is standard input (read
        /// once, and never resumed). Each line is converted by the migration's rules.
        case jsonLines([String], JSONLinesMigration)
        /// Every file of the tree at `input` whose extension names a readable format (with `only`,
        /// that format's extensions alone), converted into the same tree under `output`, each
        /// extension changed to the target's. Hidden files and symbolic links are not followed.
        case folder(input: String, output: String, conversion: RecordConversion, only: Format? = nil)
    }

    /// Where results go. Each path is written atomically; none may name an input or another output.
    public struct Outputs: Sendable {
        /// JSON Lines: the records, each with its result (nil: standard output, not resumable).
        public var output: String?
        /// The records (or files) that could not be converted, one JSON object a line; nil: each
        /// reaches the observer as ``FileMigrationEvent/failed(_:)`` only.
        public var deadLetters: String?
        /// Every record's diagnostics, one JSON object a record.
        public var diagnostics: String?
        /// With a check: a line for each record that lost something the gate counts.
        public var checkResults: String?
        /// With a check: the census as one HTML page.
        public var report: String?
        /// With a check: the census as `index.html` in this folder, the example records on pages of their own.
        public var reportFolder: String?

        public init(output: String? = nil, deadLetters: String? = nil, diagnostics: String? = nil, checkResults: String? = nil,
                    report: String? = nil, reportFolder: String? = nil) {
            self.output = output
            self.deadLetters = deadLetters
            self.diagnostics = diagnostics
            self.checkResults = checkResults
            self.report = report
            self.reportFolder = reportFolder
        }
    }

    public var source: Source
    public var outputs: Outputs
    /// Records (or files) converted at once; memory is about this many pieces.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// JSON Lines input is read in pieces of about this many bytes of whole lines.
    public var pieceBytes = 256 << 10
    /// Go on from where a stopped run of these inputs and outputs left off.
    public var resumes = false
    /// A folder run may write its tree overlapping the input tree (never over an input, and
    /// never reading an output).
    public var allowsOverlap = false
    /// The census pages' title; by default it names the inputs and the target.
    public var reportTitle: String?
    /// Lines for the census pages' run details, before the start time, inputs and target.
    public var reportDetails: [(name: String, value: String)] = []
    /// How messages name the options (`markbridge batch` names its flags).
    package var spellings = Spellings()

    public init(_ source: Source, outputs: Outputs = Outputs()) {
        self.source = source
        self.outputs = outputs
    }

    /// The conversion every record or file goes through.
    public var conversion: RecordConversion {
        switch source {
        case .jsonLines(_, let records): records.conversion
        case .folder(_, _, let conversion, _): conversion
        }
    }

    /// The option names messages use.
    package struct Spellings: Sendable {
        package var output = "output"
        package var deadLetters = "deadLetters"
        package var diagnostics = "diagnostics"
        package var checkResults = "checkResults"
        package var report = "report"
        package var trees = "the input and output folders"
        package var allowOverlap = "allowsOverlap"
        package init() {}
    }

    /// The checks made before anything is written: no two outputs on one file, no output on an
    /// input, a resumable output for `resumes`, no output tree overlapping the input tree unless
    /// allowed, and a readable target for a check. ``run(_:)`` makes them first too.
    public func validate() throws(FileMigrationError) {
        if case .folder(let input, let output, _, _) = source, !allowsOverlap, let overlap = BatchPathCheck.overlap(input: input, output: output) {
            throw FileMigrationError("\(spellings.trees) overlap: \(overlap); outputs would land among the inputs "
                                     + "(\(spellings.allowOverlap) writes beside them, never over one)")
        }
        if case .jsonLines(let inputs, _) = source, resumes {
            guard outputs.output != nil else { throw FileMigrationError("resuming needs \(spellings.output): the checkpoint lives beside the output file") }
            guard !inputs.contains("-") else { throw FileMigrationError("resuming needs input files: standard input cannot be read again") }
        }
        var named: [(option: String, path: String)] = []
        if let output = outputs.output { named += [(spellings.output, output), ("the checkpoint of \(spellings.output)", BatchCheckpoint.path(for: output))] }
        if let path = outputs.deadLetters { named.append((spellings.deadLetters, path)) }
        if let path = outputs.diagnostics { named.append((spellings.diagnostics, path)) }
        if let path = outputs.checkResults { named.append((spellings.checkResults, path)) }
        if let path = outputs.report { named.append((spellings.report, path)) }
        try BatchPathCheck.checkDistinct(outputs: named, inputs: inputPaths)
    }

    /// The input files (standard input aside); a folder run checks its files as it walks.
    package var inputPaths: [String] {
        switch source {
        case .jsonLines(let inputs, _): inputs.filter { $0 != "-" }
        case .folder: []
        }
    }

    /// Runs the migration, telling `observe` how it goes (on the caller's task, between pieces).
    /// Cancelling the task stops it within one window of records: a JSON Lines run with an
    /// output saves a checkpoint first, and this throws a ``FileMigrationError`` whose
    /// `isCancellation` is true. A run that cannot read or write (a full disk) throws, and leaves
    /// no temporary file but those a checkpoint counts on.
    nonisolated(nonsending)
    public func run(_ observe: (FileMigrationEvent) -> Void = { _ in }) async throws(FileMigrationError) -> FileMigrationResult {
        try validate()
        let started = ContinuousClock.now
        let counts: MigrationCounts?
        switch source {
        case .jsonLines(let inputs, let records): counts = try await runJSONLines(inputs, records, observe: observe)
        case .folder(let input, let output, let conversion, let only):
            counts = try await runFolder(BatchDirectory(input: input, output: output, source: only, target: conversion.target,
                                                        registry: conversion.converter.registry, resumes: resumes),
                                         observe: observe)
        }
        guard let counts else { return FileMigrationResult(counts: MigrationCounts(), elapsed: .zero, wasComplete: true) }
        let elapsed = ContinuousClock.now - started
        try writeReports(counts, elapsed: elapsed)
        return FileMigrationResult(counts: counts, elapsed: elapsed, wasComplete: false)
    }

    /// What every record goes through, gathered for the pieces.
    func recordConverter(inputNames: [String]) -> BatchRecordConverter {
        var migration: JSONLinesMigration?
        if case .jsonLines(_, let records) = source { migration = records }
        var converter = BatchRecordConverter(conversion: conversion, migration: migration, keepsDiagnostics: outputs.diagnostics != nil,
                                             inputNames: inputNames)
        converter.keepsCheckResults = outputs.checkResults != nil
        converter.keepsRecordPages = outputs.reportFolder != nil
        return converter
    }

    /// The inputs as the report names them.
    private var inputsText: String {
        switch source {
        case .jsonLines(let inputs, _): inputs.joined(separator: ", ")
        case .folder(let input, _, _, _): input
        }
    }

    /// With a check: the census page (`report`) and the census folder's index (`reportFolder`).
    private func writeReports(_ counts: MigrationCounts, elapsed: Duration) throws(FileMigrationError) {
        guard outputs.report != nil || outputs.reportFolder != nil else { return }
        let gate = conversion.check?.gate ?? .default
        let title = reportTitle ?? "Migration check: \(inputsText) to \(conversion.target.name)"
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let startedAt = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: -seconds))
        let details = reportDetails + [("Started", startedAt + String(format: " (%.1f s)", seconds)), ("Inputs", inputsText),
                                       ("Converted to", conversion.target.name)]
        if let path = outputs.report {
            try BatchCensusReport.write(counts, gate: gate, to: path, title: title, runDetails: details)
        }
        if let path = outputs.reportFolder {
            let folder = try BatchReportFolder(path: path)
            try BatchCensusReport.write(counts, gate: gate, to: folder.indexPath, title: title, runDetails: details,
                                        examplePages: folder.examplePages(counts.census))
        }
    }

    /// The options as a checkpoint records them: spelt out field by field, sets sorted, so that
    /// the same options give the same text in every process (a `Set`'s own order changes with
    /// each process's hash seed).
    package var settings: [String] {
        var settings: [String]
        switch source {
        case .jsonLines(_, let records):
            settings = [records.source.name, records.conversion.target.name, records.field, records.into, records.embedsJSONValue ? "json" : "string",
                        records.idField, "\(records.maxRecordBytes)"]
        case .folder(_, _, let conversion, let only):
            settings = [only?.name ?? "", conversion.target.name]
        }
        let check = conversion.check.map { Self.settingsKey($0.diffOptions) + ";gate=" + $0.gate.description } ?? "no check"
        return settings + [Self.settingsKey(conversion.converter.options), check]
    }

    package static func settingsKey(_ options: ConversionOptions) -> String {
        let policy = options.urlPolicy
        return [
            "offsets=\(options.offsetUnit.rawValue)", "pretty=\(options.prettyPrinted)",
            "schemes=\(policy.allowedSchemes.sorted().joined(separator: ","))", "relative=\(policy.allowsRelativeURLs)",
            "dataImages=\(policy.allowsDataImages)", "maxURL=\(policy.maxLength)", "unrestricted=\(policy.isUnrestricted)",
            "base=\(options.baseURL ?? "")", options.embedHosts.map { "embedHosts=\($0.sorted().joined(separator: ","))" } ?? "embedHosts:any",
            "standalone=\(options.standalone)", "unknown=\(options.unknownElements.rawValue)",
            "lossy=\(options.repairsInvalidUTF8)", "markdownHTML=\(options.markdownHTML.rawValue)", "limits=\(options.limits)",
        ].joined(separator: ";")
    }

    package static func settingsKey(_ options: DiffOptions) -> String {
        "check;whitespace=\(options.ignoresWhitespace);markups=\(options.ignoredMarkups.map(\.name).sorted().joined(separator: ","));"
            + "linkTargets=\(options.ignoresLinkTargets);attributes=\(options.ignoresAttributes)"
    }
}

/// What a running migration tells its observer.
public enum FileMigrationEvent: Sendable {
    /// Before the first record: what a resumed run had done already (its rates start from
    /// here), and how many input bytes there are to read, when that is known.
    case started(alreadyDone: MigrationCounts, totalBytes: Int?)
    /// After each piece of records (or each file), everything counted so far.
    case progress(MigrationCounts)
    /// A record or file that could not be converted, when there is no dead-letter file.
    case failed(FailedRecord)
}

/// One dead letter, as an observer sees it.
public struct FailedRecord: Sendable, Equatable {
    /// The input file (a folder run: the path inside the tree).
    public var file: String
    /// The record's line in its file; nil in a folder run.
    public var line: Int?
    public var code: String
    public var message: String
}

/// How a migration ended.
public struct FileMigrationResult: Sendable {
    public var counts: MigrationCounts
    public var elapsed: Duration
    /// A resumed run found its outputs complete (no checkpoint, and none older than an input):
    /// nothing was done, and `counts` are empty.
    public var wasComplete: Bool
    /// Nothing was dead-lettered and no record failed the check's gate.
    public var passes: Bool { counts.deadLettered == 0 && counts.census.failing == 0 }
}
