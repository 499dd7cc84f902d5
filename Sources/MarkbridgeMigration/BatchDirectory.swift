import Foundation
import Synchronization
import Markbridge
import MarkbridgeJSON

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

    /// What a walk of the input tree found.
    struct Tree {
        /// The files to convert, in path order.
        var entries: [Entry]
        /// Files of no readable format.
        var skipped: Int
        /// Files whose output another file makes (the later, the earlier, in path order).
        var collisions: [(String, String)]
        /// Every regular file of the input tree: an output never replaces one of them.
        var inputFiles: Set<POSIXFiles.Identity>
    }

    /// The files to convert, in path order, and how many others were skipped. The output tree,
    /// when it lies inside the input tree, is not walked: its files are outputs, not inputs.
    func entries() throws(FileMigrationError) -> Tree {
        guard POSIXFiles.status(input, followingLinks: true)?.kind == .directory else {
            throw FileMigrationError("'\(input)' is not a folder")
        }
        let outputFolder = POSIXFiles.status(output, followingLinks: true).flatMap { $0.kind == .directory ? $0.identity : nil }
        var paths: [String] = []
        var inputFiles: Set<POSIXFiles.Identity> = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? input : input + "/" + relative
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                throw FileMigrationError("cannot list '\(folder)': \(error.localizedDescription)")
            }
            for name in names where name.utf8.first != UInt8(ascii: ".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let status = POSIXFiles.status(input + "/" + path) else { continue }
                switch status.kind {
                case .directory where status.identity != outputFolder: pending.append(path)
                case .regular:
                    paths.append(path)
                    inputFiles.insert(status.identity)
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
            let size = POSIXFiles.status(input + "/" + path)?.size ?? 0
            entries.append(Entry(relativeInput: path, relativeOutput: relativeOutput, format: format, size: size))
        }
        return Tree(entries: entries, skipped: skipped, collisions: collisions, inputFiles: inputFiles)
    }

    private func format(of path: String) -> Format? {
        guard let format = registry.format(forFileName: path), format.reader != nil else { return nil }
        if let source, source.name != format.name { return nil }
        return format
    }

    static func replacingExtension(of path: String, with fileExtension: String) -> String {
        let name = PathText.components(path).last.map(String.init) ?? path
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return path + "." + fileExtension }
        // Cut by bytes: the dot is ASCII, so what stands before it is whole UTF-8.
        let stem = path.utf8.dropLast(name.utf8.distance(from: dot, to: name.utf8.endIndex))
        return String(decoding: stem, as: UTF8.self) + "." + fileExtension
    }

    /// Whether `entry`'s output is there already and not older than its input (`--resume`).
    /// An output that is a link is never done: it is refused when written.
    func isDone(_ entry: Entry) -> Bool {
        guard let input = POSIXFiles.status(self.input + "/" + entry.relativeInput),
              let output = POSIXFiles.status(self.output + "/" + entry.relativeOutput), output.kind == .regular else { return false }
        return output.isNotOlder(than: input)
    }
}

/// Converts one file of a directory run: read, convert (and check), write atomically.
struct BatchFileConverter: Sendable {
    var records: BatchRecordConverter
    var inputRoot: String
    var outputRoot: String
    /// The input tree's files, which no output replaces.
    var inputFiles: Set<POSIXFiles.Identity>
    /// Set when the run has failed: the files not started yet are left alone.
    var stop: BatchStop

    func convert(_ entry: BatchDirectory.Entry) -> BatchPieceResult {
        var result = BatchPieceResult(end: BatchPosition(file: 0, offset: 0, line: 0))
        guard !stop.isSet else { return result }
        result.counts.records = 1
        result.counts.inputBytes = entry.size
        let source = inputRoot + "/" + entry.relativeInput
        let data: [UInt8]
        do throws(FileMigrationError) {
            guard let read = try POSIXFiles.readRegularFile(source) else { throw FileMigrationError("cannot read '\(source)': it is gone") }
            data = read
        } catch {
            deadLetter(entry, "unreadable", error.description, into: &result)
            return result
        }
        let converted: Diagnosed<[UInt8]>
        switch records.converted(data, from: entry.format.name) {
        case .success(let value):
            converted = value.output
            if let check = value.check {
                let file = JSONStringLiteral.encode(entry.relativeInput)
                records.recordCheck(check, id: file, name: entry.relativeInput, place: #""file":\#(file)"#, into: &result)
            }
        case .failure(let error):
            let place = error.location.map { "at \($0.line):\($0.column): " } ?? ""
            deadLetter(entry, error.code, "does not convert: \(place)\(error.message)", into: &result)
            return result
        }
        switch write(converted.value, to: entry.relativeOutput) {
        case .written: break
        case .refused(let code, let message):
            deadLetter(entry, code, message, into: &result)
            return result
        case .failed(let error):
            // The disk failed: the run stops, and this file counts as neither converted nor failed.
            result = BatchPieceResult(end: result.end)
            result.failure = error
            stop.set()
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

    enum WriteOutcome {
        case written
        /// Not written, for this file's own reason: a dead letter.
        case refused(code: String, message: String)
        /// Not written because writing failed (a full disk): the run stops.
        case failed(FileMigrationError)
    }

    /// Writes `bytes` as `relative` under the output root: into a temporary file created
    /// exclusively in its folder, renamed into place. Never through a symbolic link inside the
    /// tree, and never over a file of the input tree.
    func write(_ bytes: [UInt8], to relative: String) -> WriteOutcome {
        let folderPath = PathText.hasSlash(relative) ? POSIXFiles.folder(of: relative) : ""
        let name = POSIXFiles.name(of: relative)
        let folder: Int32
        do throws(POSIXFiles.TreeRefusal) {
            folder = try POSIXFiles.openFolder(folderPath, under: outputRoot, creating: true)
        } catch {
            switch error {
            case .symbolicLink(let path):
                return .refused(code: "output-is-link", message: "'\(path)' in the output tree is a symbolic link; not written through it")
            case .failed(let message, let failure):
                return failure.isDeviceFailure ? .failed(FileMigrationError(message, failure: failure)) : .refused(code: "unwritable", message: message)
            }
        }
        defer { POSIXFiles.close(folder) }
        let destination = POSIXFiles.join(POSIXFiles.join(outputRoot, folderPath), name)
        if let existing = POSIXFiles.status(in: folder, name) {
            if existing.kind == .symbolicLink {
                return .refused(code: "output-is-link", message: "'\(destination)' is a symbolic link; not written through it")
            }
            if inputFiles.contains(existing.identity) {
                return .refused(code: "would-overwrite-input", message: "'\(destination)' is a file of the input tree; not overwritten")
            }
            if existing.kind != .regular {
                return .refused(code: "unwritable", message: "'\(destination)' is not a regular file; not replaced")
            }
        }
        let descriptor: Int32, temporary: String
        do throws(FileMigrationError) {
            (descriptor, temporary) = try POSIXFiles.createTemporary(for: name, suffix: "partial", in: folder, folderPath: POSIXFiles.join(outputRoot, folderPath))
        } catch {
            return error.failure?.isDeviceFailure == false ? .refused(code: "unwritable", message: error.description) : .failed(error)
        }
        let failure = POSIXFiles.write(bytes, to: descriptor) ?? POSIXFiles.sync(descriptor)
        POSIXFiles.close(descriptor)
        if let failure = failure ?? POSIXFiles.rename(temporary, to: name, in: folder) {
            POSIXFiles.remove(temporary, in: folder)
            return .failed(FileMigrationError("cannot write '\(destination)': \(failure)", failure: failure))
        }
        POSIXFiles.syncFolder(folder)
        return .written
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

/// Set once by the first conversion that fails to write, read by every other: a flag shared by
/// the tasks of a directory run.
final class BatchStop: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
