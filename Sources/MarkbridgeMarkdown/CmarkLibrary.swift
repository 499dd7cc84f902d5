import CCmark

/// The linked cmark library. All cmark calls live behind this boundary: nothing outside the
/// Markdown module sees a C pointer.
public enum CmarkLibrary {
    /// The version of libcmark the binary is linked against, as cmark reports it ("0.30.2").
    public static var version: String {
        guard let pointer = cmark_version_string() else { return "unknown" }
        return String(cString: pointer)
    }
}
