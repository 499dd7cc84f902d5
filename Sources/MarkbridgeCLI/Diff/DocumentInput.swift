import Markbridge

/// A document named on the command line (a file, or `-` for standard input), with the format it
/// is read as: given, or inferred from its extension.
struct DocumentInput {
    var path: String
    var format: Format

    /// How the input is named in messages and reports.
    var displayName: String { path == "-" ? "<stdin>" : path }

    init(path: String, formatName: String?, option: String, registry: FormatRegistry) throws(UsageError) {
        self.path = path
        if let name = formatName {
            guard let format = registry.format(named: name), format.reader != nil else {
                throw UsageError(message: "Unknown input format '\(name)' for \(option) (expected one of: \(registry.readableNames.joined(separator: ", ")))")
            }
            self.format = format
        } else if path == "-" {
            throw UsageError(message: "Cannot infer the format of standard input; pass \(option)")
        } else if let format = registry.format(forFileName: path), format.reader != nil {
            self.format = format
        } else {
            throw UsageError(message: "Cannot infer the format of '\(path)' from its extension; pass \(option)")
        }
    }

    /// The input's bytes, or the error line saying why there are none.
    func bytes(_ io: CommandIO) -> Result<[UInt8], InputFailure> {
        do {
            return .success(path == "-" ? try io.readStandardInput() : try io.readFile(path))
        } catch {
            return .failure(InputFailure(message: "Error: cannot read '\(displayName)': \(error)\n"))
        }
    }

    /// The input read into the IR, or the error line saying why it could not be.
    func read(_ io: CommandIO, converter: Converter) -> Result<(bytes: [UInt8], document: Diagnosed<Document>), InputFailure> {
        let bytes: [UInt8]
        switch self.bytes(io) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(failure)
        }
        do {
            return .success((bytes, try converter.read(bytes, from: format)))
        } catch {
            return .failure(InputFailure(message: "Error: \(ConvertCommand.describe(error, in: displayName))\n"))
        }
    }
}

/// An input that could not be read or converted: the line that says so.
struct InputFailure: Error {
    var message: String
}
