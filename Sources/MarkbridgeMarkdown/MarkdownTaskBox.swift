@_spi(InlineTraversal) import MarkbridgeIR

/// The spellings of a task list item's box in Markdown (see ``TaskState``).
enum MarkdownTaskBox {
    /// GFM, task list items: `[ ]` or `[x]` after the list marker, then whitespace.
    static func gfm(_ state: TaskState) -> [UInt8] {
        Array((state.isChecked ? "[x] " : "[ ] ").utf8)
    }

    /// The checkbox GitHub renders for a task, as inline HTML; the content follows it directly,
    /// since a space after it would be text of the item.
    static func checkbox(_ state: TaskState) -> [UInt8] {
        Array((state.isChecked ? #"<input type="checkbox" checked disabled>"# : #"<input type="checkbox" disabled>"#).utf8)
    }

    /// The box as text, escaped so that no dialect reads it as a box or a link: `\[ \]`.
    static func escapedText(_ state: TaskState, isEmpty: Bool) -> [UInt8] {
        Array((state.isChecked ? #"\[x\]"# : #"\[ \]"#).utf8) + (isEmpty ? [] : [0x20])
    }

    /// Whether written content begins as a GFM box would: `[`, a space, `x` or `X`, `]`, then
    /// whitespace or nothing (cmark-gfm wants whitespace; the end of the line is counted too,
    /// to be safe).
    static func beginsLikeBox(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 3 else { return false }
        let start = bytes.startIndex
        guard bytes[start] == UInt8(ascii: "["), [0x20, UInt8(ascii: "x"), UInt8(ascii: "X")].contains(bytes[start + 1]),
              bytes[start + 2] == UInt8(ascii: "]") else { return false }
        return bytes.count == 3 || [0x20, 0x09].contains(bytes[start + 3])
    }
}
