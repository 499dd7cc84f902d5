import Foundation

/// How far a batch written to files had come, saved beside its output (`FILE.checkpoint`)
/// after the outputs were synced: `--resume` cuts the partial files back to these sizes and
/// reads on from this position, so the finished files are byte for byte those of a run that
/// was never stopped (each line's output depends on that line alone).
struct BatchCheckpoint: Codable, Equatable {
    /// The options that shape the output, so that a resume cannot mix two different batches.
    var settings: [String]
    var inputs: [Input]
    /// The digests of the inputs read to their end before `position.file`'s; `position` holds
    /// that of the one being read, up to its offset.
    var finishedDigests: [BatchDigest]
    var position: BatchPosition
    var outputBytes: Int
    var deadLetterBytes: Int
    var diagnosticsBytes: Int
    /// Absent in a checkpoint written without `--check-results`.
    var checkResultsBytes: Int?
    /// The names of the temporary files these sizes are of, beside each output.
    var partials: Partials
    var counts: MigrationCounts

    struct Partials: Codable, Equatable {
        var output: String
        var deadLetters: String?
        var diagnostics: String?
        var checkResults: String?
    }

    struct Input: Codable, Equatable {
        var path: String
        var size: Int
    }

    static func path(for output: String) -> String { output + ".checkpoint" }

    static func inputs(_ paths: [String]) throws(FileMigrationError) -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? NSNumber else { throw FileMigrationError("cannot read '\(path)'") }
            inputs.append(Input(path: path, size: size.intValue))
        }
        return inputs
    }

    /// Refuses to resume unless the bytes the checkpoint's run consumed are the inputs' bytes
    /// now: a same-size edit would otherwise leave the stale records in the output. Reads those
    /// bytes once.
    func checkContent(of paths: [String], output: String) throws(FileMigrationError) {
        for (index, path) in paths.enumerated() where index <= position.file && path != "-" {
            let isFinished = index < position.file
            let expected = isFinished ? (index < finishedDigests.count ? finishedDigests[index] : nil) : position.digest
            let actual = try BatchDigest.of(path, firstBytes: isFinished ? nil : position.offset, like: expected ?? BatchDigest())
            guard let expected, actual == expected else {
                let extent = isFinished ? "its bytes" : "its first \(position.offset) bytes"
                throw FileMigrationError("the input '\(path)' is not what the checkpoint beside '\(output)' was made from (\(extent) changed); remove the checkpoint to start over")
            }
        }
    }

    static func load(for output: String) throws(FileMigrationError) -> BatchCheckpoint? {
        let path = path(for: output)
        guard let data = try POSIXFiles.readRegularFile(path) else { return nil }
        guard let checkpoint = try? JSONDecoder().decode(BatchCheckpoint.self, from: Data(data)) else {
            throw FileMigrationError("the checkpoint '\(path)' cannot be read; remove it to start over")
        }
        return checkpoint
    }

    /// Written to a temporary file created exclusively beside it, synced, and renamed over the
    /// last one: a link planted at either name is replaced, never written through.
    func save(for output: String) throws(FileMigrationError) {
        let path = Self.path(for: output)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw FileMigrationError("cannot encode the checkpoint") }
        let folder = POSIXFiles.folder(of: path)
        let (descriptor, name) = try POSIXFiles.createTemporary(for: POSIXFiles.name(of: path), suffix: "tmp", folderPath: folder)
        let temporary = POSIXFiles.join(folder, name)
        let error = POSIXFiles.write(Array(data), to: descriptor) ?? POSIXFiles.sync(descriptor)
        POSIXFiles.close(descriptor)
        if let error = error ?? POSIXFiles.rename(temporary, to: path) {
            POSIXFiles.remove(temporary)
            throw FileMigrationError("cannot write '\(path)': \(error)")
        }
    }

    static func remove(for output: String) {
        POSIXFiles.remove(path(for: output))
    }
}
