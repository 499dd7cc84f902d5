import MarkbridgeIR

/// A document edited as a person edits one, deterministically: a word replaced here and there, a
/// markup taken off, paragraphs inserted, deleted and moved. The diff benchmark and the diff's
/// property tests compare a document with its edited copy, knowing what was done.
public struct DocumentEdits: Sendable {
    /// The edited copy.
    public var document: Document
    /// How many blocks had their text or markups changed in place.
    public var changed = 0
    public var inserted = 0
    public var deleted = 0
    /// Blocks moved unchanged.
    public var moved = 0

    /// Every `every`-th block gets an edit, the kind of edit turning in order over the five.
    public init(of original: Document, every: Int = 97) {
        var blocks: [Block] = []
        var movedAway: [(block: Block, landing: Int)] = []
        var editNumber = 0
        for (index, block) in original.blocks.enumerated() {
            while let pending = movedAway.first, pending.landing <= index {
                blocks.append(pending.block)
                movedAway.removeFirst()
            }
            guard index % every == every / 2, index + 8 < original.blocks.count else {
                blocks.append(block)
                continue
            }
            editNumber += 1
            switch editNumber % 5 {
            case 0 where Self.replacingFirstWord(block) != nil:
                blocks.append(Self.replacingFirstWord(block)!)
                changed += 1
            case 1 where !block.markups.isEmpty:
                var edited = block
                edited.markups.removeFirst()
                blocks.append(edited)
                changed += 1
            case 2:
                blocks.append(block)
                blocks.append(Block(.paragraph, text: "An inserted paragraph, number \(editNumber), says something new."))
                inserted += 1
            case 3 where Self.isDistinct(block, in: original, at: index):
                deleted += 1
            case 4 where Self.isDistinct(block, in: original, at: index):
                movedAway.append((block, index + 6))
                moved += 1
            default:
                blocks.append(block)
            }
        }
        blocks += movedAway.map(\.block)
        document = Document(blocks: blocks)
    }

    /// The block with its first word (letters only, no markup touching it) replaced.
    private static func replacingFirstWord(_ block: Block) -> Block? {
        let utf16 = Array(block.text.utf16)
        guard let end = utf16.firstIndex(of: 0x20), end > 0, utf16[0..<end].allSatisfy({ (0x61...0x7A).contains($0) }),
              !block.markups.contains(where: { $0.range.start < end }) else { return nil }
        var edited = block
        let replacement = "edited"
        edited.text = replacement + String(decoding: utf16[end...], as: UTF16.self)
        let shift = replacement.utf16.count - end
        edited.markups = block.markups.map { Markup($0.kind, start: $0.range.start + shift, end: $0.range.end + shift) }
        return edited
    }

    /// Whether no other block near it says the same: deleting or moving one of two equal
    /// neighbours is ambiguous to any diff.
    private static func isDistinct(_ block: Block, in document: Document, at index: Int) -> Bool {
        let window = max(0, index - 12)..<min(document.blocks.count, index + 13)
        return !block.text.isEmpty && window.allSatisfy { $0 == index || document.blocks[$0] != block }
    }
}
