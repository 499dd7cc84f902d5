import Foundation
import Markbridge

/// The files a JSON Lines run writes: the output, and those beside it that were asked for.
struct JSONLinesOutputFiles {
    var output: BatchFile
    var deadLetters: BatchFile?
    var diagnostics: BatchFile?
    var checkResults: BatchFile?
}

extension FileMigration {
    /// The JSON Lines run: its counts, or nil when a resumed run found its outputs complete.
    nonisolated(nonsending)
    func runJSONLines(_ inputs: [String], _ records: JSONLinesMigration,
                      observe: (FileMigrationEvent) -> Void) async throws(FileMigrationError) -> MigrationCounts? {
        var checkpoint: BatchCheckpoint?
        if resumes, let outputPath = outputs.output {
            checkpoint = try BatchCheckpoint.load(for: outputPath)
            if checkpoint == nil, isFinished(inputs) { return nil }
        }
        if let checkpoint, let outputPath = outputs.output {
            guard checkpoint.settings == settings, checkpoint.inputs == (try BatchCheckpoint.inputs(inputs)),
                  (checkpoint.partials.deadLetters != nil) == outputs.deadLetters.map(BatchFile.isReplaced) ?? false,
                  (checkpoint.partials.diagnostics != nil) == outputs.diagnostics.map(BatchFile.isReplaced) ?? false,
                  (checkpoint.partials.checkResults != nil) == outputs.checkResults.map(BatchFile.isReplaced) ?? false else {
                throw FileMigrationError("the checkpoint beside '\(outputPath)' is for other inputs or options; remove it to start over")
            }
            try checkpoint.checkContent(of: inputs, output: outputPath)
        } else {
            startOver()
        }
        // Opened one by one: when one cannot be, those opened before are removed with it.
        var opened: [BatchFile] = []
        func file(_ path: String?, _ partial: String?, _ bytes: Int?) throws(FileMigrationError) -> BatchFile? {
            guard let path else { return nil }
            do throws(FileMigrationError) {
                let file = try BatchFile(path: path, resuming: partial.flatMap { name in bytes.map { (name, $0) } })
                opened.append(file)
                return file
            } catch {
                if checkpoint == nil { opened.forEach { $0.abandon() } }
                throw error
            }
        }
        let files = JSONLinesOutputFiles(
            output: try file(outputs.output, checkpoint?.partials.output, checkpoint?.outputBytes) ?? BatchFile(),
            deadLetters: try file(outputs.deadLetters, checkpoint?.partials.deadLetters, checkpoint?.deadLetterBytes),
            diagnostics: try file(outputs.diagnostics, checkpoint?.partials.diagnostics, checkpoint?.diagnosticsBytes),
            checkResults: try file(outputs.checkResults, checkpoint?.partials.checkResults, checkpoint?.checkResultsBytes ?? 0))
        var checkpointSaved = checkpoint != nil
        do throws(FileMigrationError) {
            return try await convert(inputs, records, checkpoint: checkpoint, files: files, checkpointSaved: &checkpointSaved, observe: observe)
        } catch {
            // A failed run leaves no temporary file behind, but those a checkpoint counts on for resuming.
            if !checkpointSaved { opened.forEach { $0.abandon() } }
            throw error
        }
    }

    /// Resuming with no checkpoint: when the output and every side file asked for are there,
    /// none older than an input, the run they came from finished (a run removes its checkpoint
    /// only after renaming the side files, then the output, into place), so there is nothing to
    /// do. False when something is missing or older, and the run starts over.
    private func isFinished(_ inputs: [String]) -> Bool {
        let statuses = inputs.compactMap { POSIXFiles.status($0, followingLinks: true) }
        guard statuses.count == inputs.count else { return false }
        for path in [outputs.output, outputs.deadLetters, outputs.diagnostics, outputs.checkResults].compactMap({ $0 }) {
            guard let status = POSIXFiles.status(path, followingLinks: true), status.kind == .regular,
                  statuses.allSatisfy({ status.isNotOlder(than: $0) }) else { return false }
        }
        return true
    }

    /// A run that is not resumed starts over: an earlier run's checkpoint is removed, and so
    /// are the temporary files earlier runs of these outputs left (killed, or killed before their
    /// first checkpoint): their random names would otherwise be left for good.
    private func startOver() {
        guard let outputPath = outputs.output else { return }
        BatchCheckpoint.remove(for: outputPath)
        POSIXFiles.removeTemporaries(for: BatchCheckpoint.path(for: outputPath), suffix: "tmp")
        for path in [outputs.output, outputs.deadLetters, outputs.diagnostics, outputs.checkResults].compactMap({ $0 }) where BatchFile.isReplaced(path) {
            let real = POSIXFiles.status(path)?.kind == .symbolicLink ? (POSIXFiles.realPath(path) ?? path) : path
            POSIXFiles.removeTemporaries(for: real, suffix: "partial")
        }
    }

    nonisolated(nonsending)
    private func convert(_ inputs: [String], _ records: JSONLinesMigration, checkpoint: BatchCheckpoint?, files: JSONLinesOutputFiles,
                         checkpointSaved: inout Bool, observe: (FileMigrationEvent) -> Void) async throws(FileMigrationError) -> MigrationCounts {
        let reportFolder = try outputs.reportFolder.map { path throws(FileMigrationError) in try BatchReportFolder(path: path) }
        var counts = checkpoint?.counts ?? MigrationCounts()
        let start = checkpoint?.position ?? BatchPosition(file: 0, offset: 0, line: 1)
        let inputIdentity = outputs.output == nil ? [] : try BatchCheckpoint.inputs(inputs.filter { $0 != "-" })
        let totalBytes = inputs.contains("-") || outputs.output == nil ? nil : inputIdentity.reduce(0) { $0 + $1.size }
        let input = BatchInput(paths: inputs, start: start, pieceBytes: pieceBytes, maxRecordBytes: records.maxRecordBytes)
        let converter = recordConverter(inputNames: inputs.map { $0 == "-" ? "<stdin>" : $0 })
        observe(.started(alreadyDone: counts, totalBytes: totalBytes))
        var lastCheckpoint = ContinuousClock.now
        var finishedDigests = checkpoint?.finishedDigests ?? []
        var reached = start
        do {
            for try await piece in OrderedConcurrentMap(input, window: jobs, transform: { converter.convert($0) }) {
                // A piece of a later input: those before it were read to their end (or were empty).
                while reached.file < piece.end.file {
                    finishedDigests.append(reached.digest)
                    reached = BatchPosition(file: reached.file + 1, offset: 0, line: 1)
                }
                reached = piece.end
                try files.output.write(piece.output)
                if let deadLetters = files.deadLetters { try deadLetters.write(piece.deadLetters) } else { Self.tell(piece.deadLetters, observe) }
                try files.diagnostics?.write(piece.diagnostics)
                try files.checkResults?.write(piece.checkResults)
                counts.add(piece.counts)
                try reportFolder?.write(piece.recordPages, census: counts.census)
                observe(.progress(counts))
                if let outputPath = outputs.output, ContinuousClock.now - lastCheckpoint > .milliseconds(500) {
                    try save(checkpointAt: piece.end, finishedDigests: finishedDigests, counts: counts, inputs: inputIdentity, outputPath: outputPath, files: files)
                    checkpointSaved = true
                    lastCheckpoint = .now
                }
            }
        } catch let error as FileMigrationError {
            throw error
        } catch is CancellationError {
            // Every piece taken so far is written: a checkpoint there lets a resumed run go on.
            if let outputPath = outputs.output {
                try save(checkpointAt: reached, finishedDigests: finishedDigests, counts: counts, inputs: inputIdentity, outputPath: outputPath, files: files)
                checkpointSaved = files.output.partialName != nil
            }
            throw .cancelled
        } catch {
            throw FileMigrationError("\(error)")
        }
        // A last checkpoint, every byte counted, then the side files renamed into place, then
        // the checkpoint removed, then the output renamed. A kill among the side files resumes
        // to a finished run (a file renamed already is taken as it is); a kill after the
        // checkpoint went starts over; a finished output means a finished run.
        if let outputPath = outputs.output {
            try save(checkpointAt: reached, finishedDigests: finishedDigests, counts: counts, inputs: inputIdentity, outputPath: outputPath, files: files)
            checkpointSaved = files.output.partialName != nil
        }
        try files.deadLetters?.finish()
        try files.diagnostics?.finish()
        try files.checkResults?.finish()
        if let outputPath = outputs.output { BatchCheckpoint.remove(for: outputPath) }
        try files.output.finish()
        return counts
    }

    private func save(checkpointAt position: BatchPosition, finishedDigests: [BatchDigest], counts: MigrationCounts, inputs: [BatchCheckpoint.Input],
                      outputPath: String, files: JSONLinesOutputFiles) throws(FileMigrationError) {
        // Written in place (a device): there is nothing to resume.
        guard let outputPartial = files.output.partialName else { return }
        try files.output.sync()
        try files.deadLetters?.sync()
        try files.diagnostics?.sync()
        try files.checkResults?.sync()
        let partials = BatchCheckpoint.Partials(output: outputPartial, deadLetters: files.deadLetters?.partialName,
                                                diagnostics: files.diagnostics?.partialName, checkResults: files.checkResults?.partialName)
        try BatchCheckpoint(settings: settings, inputs: inputs, finishedDigests: finishedDigests, position: position, outputBytes: files.output.written,
                            deadLetterBytes: files.deadLetters?.written ?? 0, diagnosticsBytes: files.diagnostics?.written ?? 0,
                            checkResultsBytes: files.checkResults?.written,
                            partials: partials, counts: counts).save(for: outputPath)
    }

    /// Dead letters with no file to go to: each to the observer.
    static func tell(_ lines: [UInt8], _ observe: (FileMigrationEvent) -> Void) {
        guard !lines.isEmpty else { return }
        for line in lines.split(separator: 0x0A) {
            guard let letter = try? JSONDecoder().decode(DeadLetterLine.self, from: Data(line)) else { continue }
            observe(.failed(FailedRecord(file: letter.file, line: letter.line, code: letter.code, message: letter.message)))
        }
    }

    private struct DeadLetterLine: Decodable {
        var file: String
        var line: Int?
        var code: String
        var message: String
    }
}
