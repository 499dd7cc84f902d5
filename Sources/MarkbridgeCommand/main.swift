import Foundation
import MarkbridgeCLI

// A closed pipe is an error a command reports (exit 74), not a signal that kills it.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
if let status = await MarkbridgeCommandLine.runStreaming(arguments) { exit(status) }
let result = MarkbridgeCommandLine.run(arguments)
FileHandle.standardOutput.write(Data(result.standardOutput))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode)
