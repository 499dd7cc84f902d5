import Foundation
import Markbridge

extension FileMigration {
    /// The folder run: the files of the tree, in path order, on every core. A failure to write
    /// (a full disk) or the task's cancellation stops the run once the files in flight are done,
    /// and no temporary file is left: each conversion removes its own, and the run the rest.
    nonisolated(nonsending)
    func runFolder(_ directory: BatchDirectory, observe: (FileMigrationEvent) -> Void) async throws(FileMigrationError) -> MigrationCounts {
        let tree = try directory.entries()
        do {
            try FileManager.default.createDirectory(atPath: directory.output, withIntermediateDirectories: true)
        } catch {
            throw FileMigrationError("cannot make the folder '\(directory.output)': \(error.localizedDescription)")
        }
        var opened: [BatchFile] = []
        func open(_ path: String?) throws(FileMigrationError) -> BatchFile? {
            guard let path else { return nil }
            do throws(FileMigrationError) {
                let file = try BatchFile(path: path)
                opened.append(file)
                return file
            } catch {
                opened.forEach { $0.abandon() }
                throw error
            }
        }
        let deadLetters = try open(outputs.deadLetters), diagnostics = try open(outputs.diagnostics), checkResults = try open(outputs.checkResults)
        let reportFolder: BatchReportFolder?
        do throws(FileMigrationError) {
            reportFolder = try outputs.reportFolder.map { path throws(FileMigrationError) in try BatchReportFolder(path: path) }
        } catch {
            opened.forEach { $0.abandon() }
            throw error
        }
        var counts = MigrationCounts()
        counts.skippedFiles = tree.skipped
        var failure: FileMigrationError?
        let stop = BatchStop()
        let converter = BatchFileConverter(records: recordConverter(inputNames: []), inputRoot: directory.input, outputRoot: directory.output,
                                           inputFiles: tree.inputFiles, stop: stop)
        do throws(FileMigrationError) {
            for (path, earlier) in tree.collisions {
                var result = BatchPieceResult(end: BatchPosition(file: 0, offset: 0, line: 0))
                result.counts.records = 1
                converter.deadLetter(path: path, "output-collision", "'\(path)' would be written where '\(earlier)' is; not converted", into: &result)
                if let deadLetters { try deadLetters.write(result.deadLetters) } else { Self.tell(result.deadLetters, observe) }
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
        observe(.started(alreadyDone: MigrationCounts(), totalBytes: pending.reduce(0) { $0 + $1.size }))
        // Every result is taken, even after a failure or a cancellation, so that no conversion is
        // still writing when the run ends: those not started yet see the stop and do nothing.
        let results = OrderedConcurrentMap(BatchEntries(entries: pending), window: jobs, transform: { converter.convert($0) })
        var iterator = results.makeAsyncIterator()
        while true {
            let next: BatchPieceResult?
            do {
                next = try await iterator.next()
            } catch {
                if failure == nil { failure = .cancelled }
                stop.set()
                break
            }
            guard let result = next else { break }
            if let error = result.failure, failure == nil { failure = error }
            guard failure == nil else { continue }
            do throws(FileMigrationError) {
                if let deadLetters { try deadLetters.write(result.deadLetters) } else { Self.tell(result.deadLetters, observe) }
                try diagnostics?.write(result.diagnostics)
                try checkResults?.write(result.checkResults)
                counts.add(result.counts)
                try reportFolder?.write(result.recordPages, census: counts.census)
            } catch {
                failure = error
                stop.set()
                continue
            }
            observe(.progress(counts))
        }
        do throws(FileMigrationError) {
            if let failure { throw failure }
            try deadLetters?.finish()
            try diagnostics?.finish()
            try checkResults?.finish()
        } catch {
            opened.forEach { $0.abandon() }
            throw error
        }
        return counts
    }
}
