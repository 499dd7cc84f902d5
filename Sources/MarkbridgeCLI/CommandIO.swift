import Markbridge
import Foundation
import MarkbridgeMigration

/// What a command touches outside itself, as values, so that tests run commands in memory and
/// compare their whole output.
public struct CommandIO: Sendable {
    public var readStandardInput: @Sendable () throws -> [UInt8]
    public var readFile: @Sendable (String) throws -> [UInt8]
    /// Replaces a file atomically, so a reader never sees it half written.
    public var writeFile: @Sendable (String, [UInt8]) throws -> Void
    /// Whether standard output is a terminal: `--color auto` colours only then.
    public var standardOutputIsTerminal: @Sendable () -> Bool

    public init(
        readStandardInput: @escaping @Sendable () throws -> [UInt8],
        readFile: @escaping @Sendable (String) throws -> [UInt8],
        writeFile: @escaping @Sendable (String, [UInt8]) throws -> Void,
        standardOutputIsTerminal: @escaping @Sendable () -> Bool = { false }
    ) {
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.writeFile = writeFile
        self.standardOutputIsTerminal = standardOutputIsTerminal
    }

    /// The real process: standard input, and files on disk.
    public static let process = CommandIO(
        readStandardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) },
        readFile: { path in
            guard FileManager.default.fileExists(atPath: path) else { throw FileError("no such file") }
            guard let data = FileManager.default.contents(atPath: path) else { throw FileError("not readable") }
            return Array(data)
        },
        // As batch writes its outputs (`BatchFile`: a temporary file beside it renamed over it, a
        // device written in place), from the bytes themselves: `Data(bytes).write` held a copy,
        // which for 50 MB of HTML to JSON was 63 MB more at the peak.
        writeFile: { path, bytes in
            do throws(FileMigrationError) {
                let file = try BatchFile(path: path)
                do throws(FileMigrationError) {
                    try file.write(bytes)
                    try file.finish(syncing: false)
                } catch {
                    file.abandon()
                    throw error
                }
            } catch {
                throw FileError(error.failure?.description ?? error.description)
            }
        },
        standardOutputIsTerminal: { isatty(STDOUT_FILENO) == 1 }
    )
}

/// A file that could not be read or written, in words fit for an error line.
public struct FileError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// What a command produced: its exit code and everything it wrote.
public struct CommandResult: Hashable, Sendable {
    public var exitCode: Int32
    public var standardOutput: [UInt8]
    public var standardError: String

    /// `standardError` is for a terminal: any control character but a line break that
    /// reached it from the input is escaped here, whatever message carried it.
    public init(exitCode: Int32, standardOutput: [UInt8] = [], standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = TerminalText.lines(standardError)
    }

    public var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// The exit codes the README documents.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The input could not be converted, or `--strict` met a diagnostic; for `batch`, some
    /// records were dead-lettered.
    public static let conversionFailed: Int32 = 1
    /// The command line was wrong (sysexits' EX_USAGE).
    public static let usage: Int32 = 64
    /// An input could not be read or an output written (sysexits' EX_IOERR).
    public static let ioFailure: Int32 = 74
}
