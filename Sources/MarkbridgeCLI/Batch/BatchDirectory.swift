import Foundation
import Markbridge
@_spi(Internals) import MarkbridgeJSON

/// `batch --input-dir IN --output-dir OUT`: every file of a tree converted into a mirror tree,
/// its extension changed to the target format's, on every core, with the isolation, resume and
/// summary of the JSON Lines mode.
///
/// The rules:
/// - files are taken in the order of their paths (bytewise), so runs are repeatable; folders and
///   files whose names start with `.` are skipped, and symbolic links are not followed (a link
///   out of the tree, or a loop, cannot be walked into);
/// - a file is converted when its extension names a readable format (with `--from`, that format's
///   extensions only); other files are counted as skipped, not copied;
/// - each output is written to a temporary file beside it and renamed into place, so an output
///   under its final name is always whole; with `--resume`, a file whose output is already there
///   and not older than it is not converted again;
/// - two inputs that would make the same output (`a.htm` and `a.html` to `a.md`) are a failure
///   for the second, in path order; a file that cannot be read, converted or written is a dead
///   letter (`{"file","code","message"}`), and the run goes on.
struct BatchDirectory {
    var input: String
    var output: String
    /// With `--from`: the one format read; otherwise each file's extension says.
    var source: Format?
    var target: Format
    var registry: FormatRegistry
    var resumes: Bool

    /// One file to convert: its path relative to both trees, and its format.
    struct Entry: Sendable {
        var relativeInput: String
        var relativeOutput: String
        var format: Format
        var size: Int
    }

    /// The files to convert, in path order, and how many others were skipped.
    func entries() throws(BatchIOError) -> (entries: [Entry], skipped: Int, collisions: [(String, String)]) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue else {
            throw BatchIOError("'\(input)' is not a folder")
        }
        var paths: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? input : input + "/" + relative
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                throw BatchIOError("cannot list '\(folder)': \(error.localizedDescription)")
            }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(input + "/" + path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: paths.append(path)
                default: break
                }
            }
        }
        paths.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var entries: [Entry] = []
        var skipped = 0
        var outputs: [String: String] = [:]
        var collisions: [(String, String)] = []
        for path in paths {
            guard let format = format(of: path) else {
                skipped += 1
                continue
            }
            let relativeOutput = Self.replacingExtension(of: path, with: target.fileExtensions.first ?? target.name)
            if let earlier = outputs[relativeOutput] {
                collisions.append((path, earlier))
                continue
            }
            outputs[relativeOutput] = path
            var status = stat()
            let size = stat(input + "/" + path, &status) == 0 ? Int(status.st_size) : 0
            entries.append(Entry(relativeInput: path, relativeOutput: relativeOutput, format: format, size: size))
        }
        return (entries, skipped, collisions)
    }

    private func format(of path: String) -> Format? {
        guard let format = registry.format(forFileName: path), format.reader != nil else { return nil }
        if let source, source.name != format.name { return nil }
        return format
    }

    static func replacingExtension(of path: String, with fileExtension: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "." + fileExtension }
        let stem = path.dropLast(name.distance(from: dot, to: name.endIndex))
        return stem + "." + fileExtension
    }

    /// Whether `entry`'s output is there already and not older than its input (`--resume`).
    func isDone(_ entry: Entry) -> Bool {
        var input = stat(), output = stat()
        guard stat(self.input + "/" + entry.relativeInput, &input) == 0, stat(self.output + "/" + entry.relativeOutput, &output) == 0 else { return false }
        return output.st_mtim.tv_sec > input.st_mtim.tv_sec
            || (output.st_mtim.tv_sec == input.st_mtim.tv_sec && output.st_mtim.tv_nsec >= input.st_mtim.tv_nsec)
    }
}

/// Converts one file of a directory run: read, convert (and check), write atomically.
struct BatchFileConverter: Sendable {
    var records: BatchRecordConverter
    var inputRoot: String
    var outputRoot: String

    func convert(_ entry: BatchDirectory.Entry) -> BatchPieceResult {
        var result = BatchPieceResult(end: BatchPosition(file: 0, offset: 0, line: 0))
        result.counts.records = 1
        result.counts.inputBytes = entry.size
        let source = inputRoot + "/" + entry.relativeInput
        guard let data = FileManager.default.contents(atPath: source) else {
            deadLetter(entry, "unreadable", "cannot read '\(source)'", into: &result)
            return result
        }
        let converted: Diagnosed<[UInt8]>
        switch records.converted(Array(data), from: entry.format.name, id: JSONStringLiteral.encode(entry.relativeInput), census: &result.counts.census) {
        case .success(let value): converted = value
        case .failure(let error):
            let place = error.location.map { "at \($0.line):\($0.column): " } ?? ""
            deadLetter(entry, error.code, "does not convert: \(place)\(error.message)", into: &result)
            return result
        }
        let destination = outputRoot + "/" + entry.relativeOutput
        do {
            let folder = (destination as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = try BatchFile(path: destination)
            try file.write(converted.value)
            try file.finish()
        } catch let error as BatchIOError {
            deadLetter(entry, "unwritable", error.description, into: &result)
            return result
        } catch {
            deadLetter(entry, "unwritable", "cannot write '\(destination)': \(error.localizedDescription)", into: &result)
            return result
        }
        result.counts.converted = 1
        for diagnostic in converted.diagnostics { result.counts.diagnostics[diagnostic.code, default: 0] += 1 }
        if records.keepsDiagnostics && !converted.diagnostics.isEmpty {
            let entries = converted.diagnostics.map { DiagnosticStyle.jsonObject($0, fileName: entry.relativeInput) }
            result.diagnostics += #"{"file":\#(JSONStringLiteral.encode(entry.relativeInput)),"diagnostics":[\#(entries.joined(separator: ","))]}"#.utf8
            result.diagnostics.append(0x0A)
        }
        return result
    }

    func deadLetter(_ entry: BatchDirectory.Entry, _ code: String, _ message: String, into result: inout BatchPieceResult) {
        deadLetter(path: entry.relativeInput, code, message, into: &result)
    }

    func deadLetter(path: String, _ code: String, _ message: String, into result: inout BatchPieceResult) {
        result.counts.deadLettered += 1
        result.counts.failures[code, default: 0] += 1
        let quote = JSONStringLiteral.encode
        result.deadLetters += #"{"file":\#(quote(path)),"code":\#(quote(code)),"message":\#(quote(message))}"#.utf8
        result.deadLetters.append(0x0A)
    }
}

/// The entries of a directory run as the asynchronous sequence the concurrent map pulls from.
struct BatchEntries: AsyncSequence, Sendable {
    typealias Element = BatchDirectory.Entry
    var entries: [BatchDirectory.Entry]

    func makeAsyncIterator() -> Iterator { Iterator(entries: entries) }

    struct Iterator: AsyncIteratorProtocol {
        var entries: [BatchDirectory.Entry]
        var next = 0

        mutating func next() async -> BatchDirectory.Entry? {
            guard next < entries.count else { return nil }
            defer { next += 1 }
            return entries[next]
        }
    }
}
