/// Checks of a batch command line's paths, made before anything is written: no two outputs on
/// one file, no output on an input, and no output tree overlapping the input tree unless asked.
package enum BatchPathCheck {
    /// One place on disk: its resolved path, and its device and inode when it exists.
    private struct Place {
        var resolved: String
        var identity: POSIXFiles.Identity?
        /// A character device (`/dev/null`, a terminal) may take several streams.
        var isSharable: Bool

        init(_ path: String) {
            resolved = POSIXFiles.resolvedPath(path)
            let status = POSIXFiles.status(path, followingLinks: true)
            identity = status?.identity
            isSharable = status?.kind == .characterDevice
        }

        func isSame(as other: Place) -> Bool {
            resolved == other.resolved || (identity != nil && identity == other.identity)
        }
    }

    /// Refuses two of `outputs` (option name, path) on one file, and an output on one of `inputs`.
    package static func checkDistinct(outputs: [(option: String, path: String)], inputs: [String]) throws(FileMigrationError) {
        let places = outputs.map { ($0.option, $0.path, Place($0.path)) }
        for (index, (option, path, place)) in places.enumerated() where !place.isSharable {
            for (otherOption, _, other) in places[..<index] where place.isSame(as: other) {
                throw FileMigrationError("\(otherOption) and \(option) name one file ('\(path)'): each output needs a path of its own")
            }
            for input in inputs where place.isSame(as: Place(input)) {
                throw FileMigrationError("\(option) names the input '\(input)': an output never replaces an input")
            }
        }
    }

    /// How the trees overlap, if they do: one folder, or one inside the other (real paths compared,
    /// so links and `..` cannot hide it).
    package static func overlap(input: String, output: String) -> String? {
        guard let inputReal = POSIXFiles.realPath(input) else { return nil }
        let outputReal = POSIXFiles.resolvedPath(output)
        if PathText.isSame(inputReal, outputReal) { return "they are one folder ('\(inputReal)')" }
        if PathText.isInside(outputReal, inputReal) { return "the output folder '\(outputReal)' is inside the input folder '\(inputReal)'" }
        if PathText.isInside(inputReal, outputReal) { return "the input folder '\(inputReal)' is inside the output folder '\(outputReal)'" }
        return nil
    }
}
