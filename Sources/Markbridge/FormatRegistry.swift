@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The formats a converter knows, by name and by file extension, in the manner of pandoc's
/// reader and writer tables. Services may build their own registry; ``standard`` has them all.
public struct FormatRegistry: Sendable {
    public private(set) var formats: [Format]

    public init(_ formats: [Format]) {
        self.formats = formats
    }

    /// Every format Markbridge ships.
    public static let standard = FormatRegistry([.markupJSON, .html, .markdown, .gfm, .plainText])

    /// The format called `name`, or whose file extension it is: `--to md` and `--from htm` mean
    /// what people who type them mean.
    public func format(named name: String) -> Format? {
        let lowered = name.asciiLowercased()
        return formats.first { $0.name == lowered } ?? formats.first { $0.fileExtensions.contains(lowered) }
    }

    /// The format a file name implies by its extension, if any.
    public func format(forFileName fileName: String) -> Format? {
        // By bytes: a dot or slash that a combining mark follows is one character with it.
        let bytes = fileName.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")) else { return nil }
        let fileExtension = String(decoding: bytes[bytes.index(after: dot)...], as: UTF8.self).asciiLowercased()
        return formats.first { $0.fileExtensions.contains(fileExtension) }
    }

    /// Names of the formats that can be read.
    public var readableNames: [String] { formats.filter { $0.reader != nil }.map(\.name) }

    /// Names of the formats that can be written.
    public var writableNames: [String] { formats.filter { $0.writer != nil }.map(\.name) }
}
