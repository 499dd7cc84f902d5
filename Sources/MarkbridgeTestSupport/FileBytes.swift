import Foundation

public enum FileBytes {
    /// The bytes of a file, or nil where it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
