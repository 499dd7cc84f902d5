import MarkbridgeIR

/// The `type` spellings of markup JSON, shared by the reader and the writer so they cannot drift.
enum BlockTypeName {
    /// The name, or nil for a heading level outside 1...6 (which the IR's invariants refuse;
    /// the writer spells it out as it stands rather than change it).
    static func name(of kind: BlockKind) -> StaticString? {
        switch kind {
        case .paragraph: "P"
        case .heading(let level): (1...6).contains(level) ? headings[level - 1] : nil
        case .blockquote: "BQ"
        case .codeBlock: "PRE"
        case .unorderedListItem: "ULI"
        case .orderedListItem: "OLI"
        case .image: "IMG"
        case .horizontalRule: "HR"
        }
    }

    private static let headings: [StaticString] = ["H1", "H2", "H3", "H4", "H5", "H6"]

    /// Every block type name the format knows, for error messages.
    static let all = ["P", "H1", "H2", "H3", "H4", "H5", "H6", "BQ", "PRE", "ULI", "OLI", "IMG", "HR"]
}

/// The markup `type` spellings; the IR's ``MarkupKind/name`` is the source of truth.
enum MarkupTypeName {
    static let all = ["STRONG", "EM", "CODE", "LINK", "STRIKE", "UNDERLINE", "SUP", "SUB", "HIGHLIGHT",
                      "COLOR", "BACKGROUND", "IMAGE"]
}
