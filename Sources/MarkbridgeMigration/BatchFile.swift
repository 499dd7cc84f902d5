/// Where a batch writes one stream of bytes: standard output, or a file that is written as a
/// temporary file beside it (`.FILE.<random>.partial`, created exclusively: see `POSIXFiles`) and
/// renamed into place only when complete (after fsync of the file and its folder), so that a
/// file under its final name is always whole and nothing planted beside it is written through.
/// A path that names something other than a regular file (`/dev/stderr`, a FIFO, a symbolic
/// link to `/dev/null`) is written to directly: renaming over it would replace the device with
/// a file. A symbolic link to a regular file stays a link; the file it points to is the one
/// replaced: the named output is the one link followed.
package final class BatchFile {
    /// The final path (a link's target), or nil for standard output.
    let path: String?
    /// The temporary file's name, in `path`'s folder; nil when written in place.
    let partialName: String?
    private var descriptor: Int32
    /// Bytes written so far (with a resumed file, those it held already).
    private(set) var written = 0
    /// Renamed into place: nothing is left to abandon.
    private var finished = false

    /// Standard output.
    init() {
        path = nil
        partialName = nil
        descriptor = 1
    }

    /// A new temporary file for `path`, or `path` itself when it is not a regular file.
    package convenience init(path given: String) throws(FileMigrationError) {
        try self.init(path: given, resuming: nil)
    }

    /// `path`'s temporary file: new, or (resuming) the one a checkpoint named, cut back to the
    /// bytes it counted. A run that was killed while renaming its files into place left some
    /// renamed and its last checkpoint (taken at the end, every byte counted) behind: a partial
    /// that is gone, with the file under its final name holding exactly the bytes counted, was
    /// renamed already, and is finished as it is.
    init(path given: String, resuming: (partialName: String, keeping: Int)?) throws(FileMigrationError) {
        if let status = POSIXFiles.status(given, followingLinks: true), status.kind != .regular {
            guard resuming == nil else { throw FileMigrationError("cannot resume into '\(given)': it is not a regular file") }
            path = given
            partialName = nil
            descriptor = try POSIXFiles.openForWritingInPlace(given)
            return
        }
        let path = Self.resolvingLinks(given)
        self.path = path
        let folder = POSIXFiles.folder(of: path), name = POSIXFiles.name(of: path)
        if let resuming {
            guard POSIXFiles.isTemporaryName(resuming.partialName, for: name, suffix: "partial") else {
                throw FileMigrationError("the checkpoint for '\(given)' names '\(resuming.partialName)', which is not its partial file; remove the checkpoint to start over")
            }
            partialName = resuming.partialName
            let partial = POSIXFiles.join(folder, resuming.partialName)
            if POSIXFiles.status(partial) == nil, let final = POSIXFiles.status(path), final.kind == .regular, final.size == resuming.keeping {
                descriptor = -1
                written = resuming.keeping
                finished = true
                return
            }
            descriptor = try POSIXFiles.openRegularForWriting(partial)
            if let error = POSIXFiles.truncate(descriptor, to: resuming.keeping) { throw FileMigrationError("cannot resume '\(partial)': \(error)") }
            written = resuming.keeping
        } else {
            (descriptor, partialName) = try POSIXFiles.createTemporary(for: name, suffix: "partial", folderPath: folder)
        }
    }

    /// Whether `path` is written through a temporary file renamed over it (it is a regular file,
    /// a link to one, or nothing yet), not in place.
    static func isReplaced(_ path: String) -> Bool {
        POSIXFiles.status(path, followingLinks: true).map { $0.kind == .regular } ?? true
    }

    /// The file a symbolic link points to, so that renaming replaces the file, not the link.
    private static func resolvingLinks(_ path: String) -> String {
        guard POSIXFiles.status(path)?.kind == .symbolicLink, let resolved = POSIXFiles.realPath(path) else { return path }
        return resolved
    }

    private var partialPath: String? {
        guard let path, let partialName else { return nil }
        return POSIXFiles.join(POSIXFiles.folder(of: path), partialName)
    }

    package func write(_ bytes: [UInt8]) throws(FileMigrationError) {
        guard !bytes.isEmpty else { return }
        guard !finished else { throw FileMigrationError("cannot write '\(path ?? "")': it was finished already (the checkpoint beside it is stale; remove it to start over)") }
        if let error = POSIXFiles.write(bytes, to: descriptor) {
            throw FileMigrationError("cannot write \(path.map { "'\($0)'" } ?? "standard output"): \(error)")
        }
        written += bytes.count
    }

    /// Forces what was written to disk, for a checkpoint to count on it.
    func sync() throws(FileMigrationError) {
        guard let path, partialName != nil, !finished else { return }
        if let error = POSIXFiles.sync(descriptor) { throw FileMigrationError("cannot write '\(path)': \(error)") }
    }

    /// Syncs, closes and renames the temporary file into place, then syncs its folder; without
    /// `syncing`, as `convert -o` replaces a file, the rename alone (as Foundation's atomic write).
    package func finish(syncing: Bool = true) throws(FileMigrationError) {
        guard !finished else { return }
        guard let path, let partialPath else {
            if descriptor > 2 { POSIXFiles.close(descriptor) }
            descriptor = -1
            return
        }
        if syncing { try sync() }
        POSIXFiles.close(descriptor)
        descriptor = -1
        if let error = POSIXFiles.rename(partialPath, to: path) { throw FileMigrationError("cannot rename '\(partialPath)' to '\(path)': \(error)") }
        finished = true
        if syncing { POSIXFiles.syncFolder(of: path) }
    }

    /// Closes and removes the temporary file: the run failed, and nothing it wrote is kept.
    package func abandon() {
        if descriptor > 2 { POSIXFiles.close(descriptor) }
        descriptor = -1
        if let partialPath, !finished { POSIXFiles.remove(partialPath) }
    }

    deinit {
        if descriptor > 2 { POSIXFiles.close(descriptor) }
    }
}
