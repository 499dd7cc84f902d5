import MarkbridgeIR

/// The plain text a reader sees (the "strip HTML" use): blocks separated by blank lines, list
/// items one a line with a bullet or their number, indented two spaces a level, hard breaks
/// kept, images as their alt text, formatting gone.
public struct PlainTextWriter: Sendable {
    public init() {}

    public func write(_ document: Document) -> Diagnosed<[UInt8]> {
        // Built over bytes: splitting a `String` at "\n" walks grapheme clusters and compares
        // `Character`s, which cost three quarters of HTML -> text on real content.
        var out: [UInt8] = []
        out.reserveCapacity(document.blocks.reduce(1) { $0 + $1.text.utf8.count + 2 * $1.depth + 8 })
        var previousWasListItem = false
        for block in document.blocks {
            let isListItem: Bool
            switch block.kind {
            case .unorderedListItem, .orderedListItem: isListItem = true
            default: isListItem = false
            }
            let text = Self.visibleText(block)
            if case .image = block.kind, text.isEmpty { continue }
            if !out.isEmpty { out.append(contentsOf: isListItem && previousWasListItem ? [0x0A] : [0x0A, 0x0A]) }
            previousWasListItem = isListItem
            let indent = [UInt8](repeating: 0x20, count: 2 * block.depth)
            let marker: String
            switch block.kind {
            case .unorderedListItem: marker = "• "
            case .orderedListItem(let number): marker = "\(number). "
            default: marker = ""
            }
            // Continuation lines hang under the text, one space per character of the marker.
            let hanging = indent + [UInt8](repeating: 0x20, count: marker.count)
            out.append(contentsOf: indent)
            out.append(contentsOf: marker.utf8)
            var contiguous = text
            contiguous.withUTF8 { Self.appendLines($0, hanging: hanging, to: &out) }
        }
        if !out.isEmpty { out.append(0x0A) }
        return Diagnosed(out)
    }

    /// Appends `bytes`, starting each line after the first with `hanging`. A line ends at a line
    /// feed that is not part of a CR LF pair (a CR LF is one character and stays in the line).
    private static func appendLines(_ bytes: UnsafeBufferPointer<UInt8>, hanging: [UInt8], to out: inout [UInt8]) {
        var lineStart = 0
        for index in bytes.indices where bytes[index] == 0x0A && (index == 0 || bytes[index - 1] != 0x0D) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<index]))
            out.append(0x0A)
            out.append(contentsOf: hanging)
            lineStart = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart...]))
    }

    /// The block's text with inline images replaced by their alt text, and a rule as `* * *`.
    static func visibleText(_ block: Block) -> String {
        switch block.kind {
        case .horizontalRule: return "* * *"
        case .image(let image): return block.text.isEmpty ? (image.alt ?? "") : block.text
        default: break
        }
        let images = block.markups.compactMap { markup -> (Int, String)? in
            if case .image(let image) = markup.kind { return (markup.range.start, image.alt ?? "") }
            return nil
        }
        guard !images.isEmpty else { return block.text }
        let alts = Dictionary(images, uniquingKeysWith: { first, _ in first })
        var out = ""
        var offset = 0
        for scalar in block.text.unicodeScalars {
            if scalar == "\u{FFFC}", let alt = alts[offset] { out += alt } else { out.unicodeScalars.append(scalar) }
            offset += scalar.value > 0xFFFF ? 2 : 1
        }
        return out
    }
}
