/// Why a file migration stopped or could not start: an input that cannot be read, an output
/// that cannot be written (a full disk), a checkpoint for other inputs or options, two outputs
/// on one path, or the task cancelled. The message names the file; what was written before is
/// either complete or left for `resumes`, never a torn file in an output's place.
public struct FileMigrationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The task was cancelled: a JSON Lines run saved a checkpoint to resume from.
    public let isCancellation: Bool
    /// The failed call behind it, when there was one.
    package var failure: POSIXFiles.Failure?

    package init(_ description: String, failure: POSIXFiles.Failure? = nil) {
        self.description = description
        self.failure = failure
        isCancellation = false
    }

    private init(cancelledWith description: String) {
        self.description = description
        isCancellation = true
    }

    static let cancelled = FileMigrationError(cancelledWith: "the migration was cancelled")
}
