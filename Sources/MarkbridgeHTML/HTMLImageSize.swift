@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// An `<img>`'s size in whole CSS pixels, read as a browser lays the image out: from CSS
/// `width` and `height` in its `style`, which win over the attributes of the same name (an
/// author's style overrides presentational hints), else from the `width` and `height`
/// attributes. What is not whole pixels is dropped, each loss said; shared by the HTML reader
/// and by Markdown's inline HTML, so that both read an image tag alike.
struct HTMLImageSize {
    var width: Int?
    var height: Int?
    /// The attributes dropped, with why, for the reader to report.
    var dropped: [Dropped] = []

    struct Dropped: Equatable {
        /// `width` or `height`.
        var attribute: String
        var value: String
        var reason: Reason

        /// What the reader says, with the count of such losses in the document.
        func message(count: Int? = nil) -> String {
            let counted = count.map { " (\($0)×)" } ?? ""
            let first = count.map { $0 > 1 ? "the first " : "" } ?? ""
            let written = "\(first)\(attribute)=\"\(value)\""
            return switch reason {
            case .percentage:
                "image size given as a percentage (\(written)) dropped: the IR keeps an image's width and height in whole CSS pixels only\(counted)"
            case .notPixels:
                "image size not in whole CSS pixels (\(written)) dropped: HTML's is a non-negative integer, optionally followed by px\(counted)"
            case .tooLarge:
                "image size over \(Embed.maxDimension) pixels (\(written)) dropped: larger is not a size a page shows\(counted)"
            }
        }
    }

    enum Reason: String, Equatable {
        /// `50%`: a share of the container, not pixels.
        case percentage
        /// Another unit (`10em`), a fraction (`100.5`), a sign, or no number at all.
        case notPixels
        /// Past ``Embed/maxDimension``.
        case tooLarge
    }

    /// A length as written, read as whole CSS pixels.
    enum Length: Equatable {
        case pixels(Int)
        case dropped(Reason)
    }

    /// The size of an image element: `attribute` looks its attributes up, `style` is its
    /// parsed `style` (read for an image, see ``CSSStyle/imageWidth``).
    init(attribute: (String) -> String?, style: CSSStyle) {
        for name in ["width", "height"] {
            let value: Int?
            if let fromStyle = name == "width" ? style.imageWidth : style.imageHeight {
                // The style wins, whatever its value: CSS reported what it could not keep.
                if case .pixels(let pixels) = fromStyle { value = pixels } else { value = nil }
            } else if let written = attribute(name), !written.trimmingASCIIWhitespace().isEmpty {
                switch Self.attributeLength(written) {
                case .pixels(let pixels): value = pixels
                case .dropped(let reason):
                    dropped.append(Dropped(attribute: name, value: written, reason: reason))
                    value = nil
                }
            } else {
                value = nil
            }
            if name == "width" { width = value } else { height = value }
        }
    }

    /// HTML's rule for an image's `width` and `height` (a valid non-negative integer), with the
    /// `px` browsers also accept (ASCII case-insensitive): `640`, ` 640 `, `640px`. A percentage
    /// is a share of the container; anything else (`10em`, `100.5`, `+5`, `abc`) is not pixels.
    static func attributeLength(_ text: String) -> Length {
        length(text.trimmingASCIIWhitespace(), unitRequired: false)
    }

    /// CSS's `width` and `height` in whole pixels: a whole number followed by `px` (ASCII
    /// case-insensitive), or a bare `0`. A percentage, another unit (`em`, `vw`), a fraction or
    /// a function (`calc()`) is not whole pixels.
    static func cssLength(_ value: String) -> Length {
        value == "0" ? .pixels(0) : length(value, unitRequired: true)
    }

    private static func length(_ text: String, unitRequired: Bool) -> Length {
        let bytes = Array(text.utf8)
        let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        let rest = bytes[digits...]
        if rest.last == UInt8(ascii: "%"), digits > 0 || rest.first == UInt8(ascii: ".") { return .dropped(.percentage) }
        guard digits > 0 else { return .dropped(.notPixels) }
        let isPixels = rest.count == 2 && rest.first.map { $0 | 0x20 } == UInt8(ascii: "p") && rest.last.map { $0 | 0x20 } == UInt8(ascii: "x")
        guard isPixels || (rest.isEmpty && !unitRequired) else { return .dropped(.notPixels) }
        // Leading zeros are read through; more digits than the limit has are past it.
        let significant = bytes[..<digits].drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 6 else { return .dropped(.tooLarge) }
        let value = significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return value <= Embed.maxDimension ? .pixels(value) : .dropped(.tooLarge)
    }
}
