import MarkbridgeIR

/// The plain text a reader sees (the "strip HTML" use): blocks separated by blank lines, list
/// items one a line with a bullet or their number, indented two spaces a level, hard breaks
/// kept, images as their alt text, formatting gone.
public struct PlainTextWriter: Sendable {
    public init() {}

    public func write(_ document: Document) -> Diagnosed<[UInt8]> {
        var out = ""
        var previousWasListItem = false
        for block in document.blocks {
            let isListItem: Bool
            switch block.kind {
            case .unorderedListItem, .orderedListItem: isListItem = true
            default: isListItem = false
            }
            let text = Self.visibleText(block)
            if case .image = block.kind, text.isEmpty { continue }
            if !out.isEmpty { out += isListItem && previousWasListItem ? "\n" : "\n\n" }
            previousWasListItem = isListItem
            let indent = String(repeating: "  ", count: block.depth)
            let marker: String
            switch block.kind {
            case .unorderedListItem: marker = "• "
            case .orderedListItem(let number): marker = "\(number). "
            default: marker = ""
            }
            let hanging = indent + String(repeating: " ", count: marker.count)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { out += "\n" }
                out += index == 0 ? indent + marker : hanging
                out += line
            }
        }
        if !out.isEmpty { out += "\n" }
        return Diagnosed(Array(out.utf8))
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
