import Markbridge
import MarkbridgeCLI
import Synchronization

/// Files and standard input held in memory, so command tests run without touching the disk.
final class MemoryFileSystem: Sendable {
    private let files: Mutex<[String: [UInt8]]>
    private let standardInput: [UInt8]

    init(files: [String: String] = [:], standardInput: String = "") {
        self.files = Mutex(files.mapValues { Array($0.utf8) })
        self.standardInput = Array(standardInput.utf8)
    }

    var io: CommandIO {
        CommandIO(
            readStandardInput: { self.standardInput },
            readFile: { path in
                guard let bytes = self.files.withLock({ $0[path] }) else { throw FileError("no such file") }
                return bytes
            },
            writeFile: { path, bytes in self.files.withLock { $0[path] = bytes } }
        )
    }

    func contents(_ path: String) -> String? {
        files.withLock { $0[path] }.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Runs the command line in memory.
func run(_ arguments: String..., files: MemoryFileSystem = MemoryFileSystem()) -> CommandResult {
    MarkbridgeCommandLine.run(arguments, io: files.io)
}

extension Format {
    /// A format that is written and never read (every format Markbridge ships reads now): what a
    /// check, which reads its output back, must refuse.
    static let writtenOnly = Format(name: "shout", summary: "text in capitals, never read back", fileExtensions: ["shout"], reader: nil,
                                    writer: { document, _ throws(ConversionError) in
                                        Diagnosed(Array(document.blocks.map { $0.text.uppercased() }.joined(separator: "\n").utf8))
                                    })
}
