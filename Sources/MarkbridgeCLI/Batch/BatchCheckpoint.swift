import Foundation

/// How far a batch written to files had come, saved beside its output (`FILE.checkpoint`)
/// after the outputs were synced: `--resume` cuts the partial files back to these sizes and
/// reads on from this position, so the finished files are byte for byte those of a run that
/// was never stopped (each line's output depends on that line alone).
struct BatchCheckpoint: Codable, Equatable {
    /// The options that shape the output, so that a resume cannot mix two different batches.
    var settings: [String]
    var inputs: [Input]
    var position: BatchPosition
    var outputBytes: Int
    var deadLetterBytes: Int
    var diagnosticsBytes: Int
    var counts: BatchCounts

    struct Input: Codable, Equatable {
        var path: String
        var size: Int
    }

    static func path(for output: String) -> String { output + ".checkpoint" }

    static func inputs(_ paths: [String]) throws(BatchIOError) -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? NSNumber else { throw BatchIOError("cannot read '\(path)'") }
            inputs.append(Input(path: path, size: size.intValue))
        }
        return inputs
    }

    static func load(for output: String) throws(BatchIOError) -> BatchCheckpoint? {
        let path = path(for: output)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
              let checkpoint = try? JSONDecoder().decode(BatchCheckpoint.self, from: data) else {
            throw BatchIOError("the checkpoint '\(path)' cannot be read; remove it to start over")
        }
        return checkpoint
    }

    /// Written to a temporary file, synced, and renamed over the last one.
    func save(for output: String) throws(BatchIOError) {
        let path = Self.path(for: output)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw BatchIOError("cannot encode the checkpoint") }
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data),
              let handle = FileHandle(forWritingAtPath: temporary) else { throw BatchIOError("cannot write '\(temporary)'") }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw BatchIOError("cannot write '\(temporary)': \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else { throw BatchIOError("cannot write '\(path)': \(BatchFile.lastError())") }
    }

    static func remove(for output: String) {
        try? FileManager.default.removeItem(atPath: path(for: output))
    }
}
