import Foundation
import MarkbridgeCLI

let result = MarkbridgeCommandLine.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.standardOutput))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode)
