import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every POSIX file call of `markbridge batch`, in one place, so that the rules that keep a run
/// from being turned against the files around it hold everywhere:
/// - a temporary file is created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`) under a name no
///   one can guess ahead (`.NAME.<random>.partial`), so a link or file planted where it goes is
///   never opened, followed or truncated: the create fails and another name is drawn;
/// - a final name is only ever reached by `rename`, which replaces a directory entry (a planted
///   link included) and never writes through it;
/// - in a tree, folders are walked one component at a time with `O_NOFOLLOW`, so a symbolic
///   link inside the tree is refused, not followed.
package enum POSIXFiles {
    /// What `lstat` (or `stat`, following links) says about a path.
    package struct Status: Hashable, Sendable {
        package enum Kind: Sendable { case regular, directory, symbolicLink, characterDevice, other }
        package var kind: Kind
        var identity: Identity
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int

        init(_ status: stat) {
            switch status.st_mode & S_IFMT {
            case S_IFREG: kind = .regular
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            case S_IFCHR: kind = .characterDevice
            default: kind = .other
            }
            identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            size = Int(status.st_size)
            modifiedSeconds = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        }

        /// Whether this was modified at or after `other`.
        func isNotOlder(than other: Status) -> Bool {
            (modifiedSeconds, modifiedNanoseconds) >= (other.modifiedSeconds, other.modifiedNanoseconds)
        }
    }

    /// A file's device and inode: the same file whatever path, link or bind mount reaches it.
    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    package static func status(_ path: String, followingLinks: Bool = false) -> Status? {
        var result = stat()
        let code = unsafe followingLinks ? stat(path, &result) : lstat(path, &result)
        return code == 0 ? Status(result) : nil
    }

    /// The entry `name` of an open folder, not following a link it may be.
    static func status(in folder: Int32, _ name: String) -> Status? {
        var result = stat()
        return unsafe fstatat(folder, name, &result, AT_SYMLINK_NOFOLLOW) == 0 ? Status(result) : nil
    }

    static func status(of descriptor: Int32) -> Status? {
        var result = stat()
        return unsafe fstat(descriptor, &result) == 0 ? Status(result) : nil
    }

    /// The path with every link and `.`/`..` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = unsafe realpath(path, nil) else { return nil }
        defer { unsafe free(resolved) }
        return unsafe String(cString: resolved)
    }

    /// Where `path` is or would be: the real path of its deepest existing ancestor, then the rest
    /// of it (with `.` and `..` applied), so two spellings of one place compare equal before either
    /// exists.
    static func resolvedPath(_ path: String) -> String {
        if let real = realPath(path) { return real }
        var missing: [Substring] = []
        var ancestor = Substring(path)
        while true {
            while ancestor.utf8.count > 1 && PathText.endsWithSlash(ancestor) { ancestor = Substring(ancestor.unicodeScalars.dropLast()) }
            guard let slash = PathText.lastSlash(in: ancestor) else {
                missing.insert(ancestor, at: 0)
                ancestor = "."
                break
            }
            let (before, after) = PathText.split(ancestor, at: slash)
            missing.insert(after, at: 0)
            ancestor = slash == ancestor.startIndex ? "/" : before
            if realPath(String(ancestor)) != nil { break }
        }
        var components = PathText.components(realPath(String(ancestor)) ?? String(ancestor))
        for part in missing where !part.isEmpty && part != "." {
            if part == ".." { _ = components.popLast() } else { components.append(part) }
        }
        return "/" + components.joined(separator: "/")
    }

    /// A name no one can guess ahead: 16 hex digits from the system's random source.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The temporary name for `name`: `.NAME.<random>.SUFFIX`, hidden, beside it.
    static func temporaryName(for name: String, suffix: String) -> String {
        "." + name + "." + randomToken() + "." + suffix
    }

    /// Whether `candidate` is a temporary name `temporaryName(for: name, suffix:)` could have made:
    /// a checkpoint names its partial files, and only such a name is opened on its word.
    static func isTemporaryName(_ candidate: String, for name: String, suffix: String) -> Bool {
        let head = "." + name + ".", tail = "." + suffix
        guard candidate.hasPrefix(head), candidate.hasSuffix(tail), !PathText.hasSlash(candidate) else { return false }
        let token = candidate.dropFirst(head.count).dropLast(tail.count)
        return token.count == 16 && token.allSatisfy(\.isHexDigit)
    }

    /// Removes the temporary files of `path` (`temporaryName(for:suffix:)`'s names beside it);
    /// a link of such a name is removed, not what it points to.
    static func removeTemporaries(for path: String, suffix: String) {
        let folder = folder(of: path), name = name(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for candidate in names where isTemporaryName(candidate, for: name, suffix: suffix) {
            remove(join(folder, candidate))
        }
    }

    /// Creates a new file exclusively in `folder` (a path, or an open folder's descriptor) under a
    /// fresh temporary name for `name`; its descriptor and name. A name already taken (by chance,
    /// or by something planted) is passed over for another.
    static func createTemporary(for name: String, suffix: String, in folder: Int32 = AT_FDCWD, folderPath: String) throws(FileMigrationError) -> (descriptor: Int32, name: String) {
        for _ in 0..<16 {
            let temporary = temporaryName(for: name, suffix: suffix)
            let path = folder == AT_FDCWD ? join(folderPath, temporary) : temporary
            let descriptor = unsafe openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (descriptor, temporary) }
            if errno != EEXIST { throw FileMigrationError("cannot write '\(join(folderPath, name))': \(lastError())", failure: .last()) }
        }
        throw FileMigrationError("cannot write '\(join(folderPath, name))': no free temporary name beside it")
    }

    /// Opens an existing regular file for writing, never through a link.
    static func openRegularForWriting(_ path: String) throws(FileMigrationError) -> Int32 {
        let descriptor = unsafe open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileMigrationError("cannot write '\(path)': \(lastError())") }
        guard status(of: descriptor)?.kind == .regular else {
            close(descriptor)
            throw FileMigrationError("cannot write '\(path)': it is not a regular file")
        }
        return descriptor
    }

    /// Opens what `path` names for writing, through a link if it is one: for a named output that
    /// is a device or a FIFO, which is written in place.
    static func openForWritingInPlace(_ path: String) throws(FileMigrationError) -> Int32 {
        let descriptor = unsafe open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileMigrationError("cannot write '\(path)': \(lastError())") }
        return descriptor
    }

    /// The whole of a regular file, not read through a link; nil when there is no such file.
    static func readRegularFile(_ path: String) throws(FileMigrationError) -> [UInt8]? {
        let descriptor = unsafe open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileMigrationError("cannot read '\(path)': \(errno == ELOOP ? "it is a symbolic link" : lastError())")
        }
        defer { close(descriptor) }
        guard status(of: descriptor)?.kind == .regular else { throw FileMigrationError("cannot read '\(path)': it is not a regular file") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = unsafe buffer.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileMigrationError("cannot read '\(path)': \(lastError())")
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// A file read from its start, in chunks.
    final class Reader {
        private let descriptor: Int32
        private let path: String

        init(_ path: String) throws(FileMigrationError) {
            self.path = path
            descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FileMigrationError("cannot read '\(path)': \(lastError())") }
        }

        /// Up to `count` bytes; none at the end.
        func read(_ count: Int) throws(FileMigrationError) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            while true {
                let got = unsafe buffer.withUnsafeMutableBytes { unsafe Glibc.read(descriptor, $0.baseAddress, count) }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw FileMigrationError("cannot read '\(path)': \(lastError())")
                }
                return Array(buffer[..<got])
            }
        }

        deinit { _ = Glibc.close(descriptor) }
    }

    /// Writes all of `bytes`; the failure, if any.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            let count = unsafe bytes.withUnsafeBufferPointer { buffer in
                unsafe Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .last()
            }
            offset += count
        }
        return nil
    }

    static func sync(_ descriptor: Int32) -> Failure? {
        fsync(descriptor) == 0 ? nil : .last()
    }

    static func truncate(_ descriptor: Int32, to size: Int) -> Failure? {
        ftruncate(descriptor, off_t(size)) == 0 && lseek(descriptor, off_t(size), SEEK_SET) >= 0 ? nil : .last()
    }

    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Renames within one folder (a path, or an open folder's descriptor).
    static func rename(_ from: String, to: String, in folder: Int32 = AT_FDCWD) -> Failure? {
        unsafe renameat(folder, from, folder, to) == 0 ? nil : .last()
    }

    static func remove(_ name: String, in folder: Int32 = AT_FDCWD) {
        _ = unsafe unlinkat(folder, name, 0)
    }

    /// Syncs a folder, so that a rename in it is on disk.
    static func syncFolder(_ folder: Int32) {
        _ = fsync(folder)
    }

    static func syncFolder(of path: String) {
        let handle = unsafe open(folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if handle >= 0 {
            _ = fsync(handle)
            _ = Glibc.close(handle)
        }
    }

    /// Opens the folder `relative` under the open folder `root`, making what is missing, one
    /// component at a time and never through a symbolic link; its descriptor. `rootPath` is for
    /// messages.
    static func openFolder(_ relative: String, under rootPath: String, creating: Bool) throws(TreeRefusal) -> Int32 {
        var current = unsafe open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw .failed("cannot open '\(rootPath)': \(lastError())", .last()) }
        var walked = rootPath
        for component in PathText.components(relative) {
            let name = String(component)
            walked = join(walked, name)
            if creating, unsafe mkdirat(current, name, 0o755) != 0, errno != EEXIST {
                let failure = Failure.last()
                _ = Glibc.close(current)
                throw .failed("cannot make the folder '\(walked)': \(failure)", failure)
            }
            if status(in: current, name)?.kind == .symbolicLink {
                _ = Glibc.close(current)
                throw .symbolicLink(walked)
            }
            let next = unsafe openat(current, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = Failure.last()
            _ = Glibc.close(current)
            guard next >= 0 else { throw failure.code == ELOOP ? .symbolicLink(walked) : .failed("cannot open the folder '\(walked)': \(failure)", failure) }
            current = next
        }
        return current
    }

    /// Why a tree's file was not written.
    enum TreeRefusal: Error {
        /// A symbolic link where a folder or the file goes: not written through.
        case symbolicLink(String)
        case failed(String, Failure)
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : PathText.endsWithSlash(folder) ? folder + name : folder + "/" + name
    }

    static func folder(of path: String) -> String {
        guard let slash = PathText.lastSlash(in: Substring(path)) else { return "." }
        return slash == path.startIndex ? "/" : String(PathText.split(Substring(path), at: slash).before)
    }

    static func name(of path: String) -> String {
        PathText.lastSlash(in: Substring(path)).map { String(PathText.split(Substring(path), at: $0).after) } ?? path
    }

    static func lastError() -> String {
        unsafe String(cString: strerror(errno))
    }

    /// A failed call's error number and text.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        var code: Int32
        package var description: String

        static func last() -> Failure { Failure(code: errno, description: lastError()) }

        /// The disk, not the one file: full, over quota, read-only or failing. A run cannot go on
        /// past it (exit 74), where a file it cannot write for its own reasons is a dead letter.
        var isDeviceFailure: Bool { [ENOSPC, EDQUOT, EIO, EROFS, EFBIG].contains(code) }
    }
}
