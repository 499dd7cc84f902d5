#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a batch writes one stream of bytes: standard output, or a file that is written as
/// `FILE.partial` and renamed into place only when complete (after fsync of the file and its
/// folder), so that a file under its final name is always whole. A path that names something
/// other than a regular file (`/dev/stderr`, a FIFO, a symbolic link to `/dev/null`) is written
/// to directly: renaming over it would replace the device with a file. A symbolic link to a
/// regular file stays a link; the file it points to is the one replaced.
final class BatchFile {
    let path: String?
    private let partialPath: String?
    private var descriptor: Int32
    /// Bytes written so far (with a resumed file, those it held already).
    private(set) var written = 0

    /// Standard output.
    init() {
        path = nil
        partialPath = nil
        descriptor = 1
    }

    /// `path`'s partial file, new, or (resuming) cut back to the `keeping` bytes a checkpoint counted.
    init(path given: String, keeping: Int? = nil) throws(BatchIOError) {
        var status = stat()
        if stat(given, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
            guard keeping == nil else { throw BatchIOError("cannot resume into '\(given)': it is not a regular file") }
            path = given
            partialPath = nil
            descriptor = open(given, O_WRONLY)
            guard descriptor >= 0 else { throw BatchIOError("cannot write '\(given)': \(Self.lastError())") }
            return
        }
        let path = Self.resolvingLinks(given)
        self.path = path
        let partial = path + ".partial"
        partialPath = partial
        descriptor = open(partial, O_WRONLY | O_CREAT | (keeping == nil ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw BatchIOError("cannot write '\(partial)': \(Self.lastError())") }
        if let keeping {
            guard ftruncate(descriptor, off_t(keeping)) == 0, lseek(descriptor, off_t(keeping), SEEK_SET) >= 0 else {
                throw BatchIOError("cannot resume '\(partial)': \(Self.lastError())")
            }
            written = keeping
        }
    }

    /// The partial file of `path`, if one is there (a run that did not finish).
    static func partialExists(for path: String) -> Bool {
        access(resolvingLinks(path) + ".partial", F_OK) == 0
    }

    /// The file a symbolic link points to, so that renaming replaces the file, not the link.
    private static func resolvingLinks(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func write(_ bytes: [UInt8]) throws(BatchIOError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBufferPointer { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw BatchIOError("cannot write \(path.map { "'\($0)'" } ?? "standard output"): \(Self.lastError())")
            }
            offset += count
        }
        written += bytes.count
    }

    /// Forces what was written to disk, for a checkpoint to count on it.
    func sync() throws(BatchIOError) {
        guard partialPath != nil else { return }
        guard fsync(descriptor) == 0 else { throw BatchIOError("cannot write '\(partialPath ?? "")': \(Self.lastError())") }
    }

    /// Syncs, closes and renames the partial file into place, then syncs its folder.
    func finish() throws(BatchIOError) {
        guard let path, let partialPath else {
            if descriptor > 2 { close(descriptor) }
            descriptor = -1
            return
        }
        try sync()
        close(descriptor)
        descriptor = -1
        guard rename(partialPath, path) == 0 else { throw BatchIOError("cannot rename '\(partialPath)' to '\(path)': \(Self.lastError())") }
        Self.syncFolder(of: path)
    }

    deinit {
        if descriptor > 2 { close(descriptor) }
    }

    static func syncFolder(of path: String) {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let handle = open(folder.isEmpty ? "/" : folder, O_RDONLY)
        if handle >= 0 {
            fsync(handle)
            close(handle)
        }
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
