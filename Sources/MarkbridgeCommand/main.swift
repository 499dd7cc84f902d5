import Foundation
import MarkbridgeCLI

// A closed pipe is an error a command reports, not a signal that kills it.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
if let status = await MarkbridgeCommandLine.runStreaming(arguments) { exit(status) }
let result = MarkbridgeCommandLine.run(arguments)
do {
    try FileHandle.standardOutput.write(contentsOf: result.standardOutput)
} catch {
    // The reader went away (`markbridge diff a b | head`): what it did not read is not an error
    // worth a message, but the output is incomplete, which the status says (EX_IOERR).
    try? FileHandle.standardError.write(contentsOf: Data(result.standardError.utf8))
    exit(74)
}
try? FileHandle.standardError.write(contentsOf: Data(result.standardError.utf8))
exit(result.exitCode)
