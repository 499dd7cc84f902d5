@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// Markups opened and closed around the text, and inline images.
extension DocumentBuilder {
    /// Appends an inline image: U+FFFC in the text with an IMAGE markup over it.
    public mutating func appendImage(_ image: ImageSource) {
        append("")
        let start = utf16Length
        let startByte = text.byteCount
        append("\u{FFFC}")
        markups.append(Markup(.image(image), start: start, end: utf16Length))
        markupBytes.append((startByte, text.byteCount))
    }

    /// Opens a markup at the current position.
    public mutating func openMarkup(_ kind: MarkupKind) -> OpenMarkup {
        nextID += 1
        if let slot = touchingClosedSlot(of: kind) {
            open.append((nextID, slot))
        } else {
            open.append((nextID, markups.count))
            markups.append(Markup(kind, start: utf16Length, end: utf16Length))
            markupBytes.append((text.byteCount, text.byteCount))
        }
        return OpenMarkup(id: nextID)
    }

    /// A closed markup of `kind` that ends right here, which canonical form would merge with
    /// one opened here (`<i>a</i><i>b</i>`, or what the adoption agency makes of
    /// `<b>x<i>y</b>z</i>`): it is reopened instead, so the block stays canonical without a
    /// sort. Looks only a few slots back; farther ones are merged by canonicalization.
    func touchingClosedSlot(of kind: MarkupKind) -> Int? {
        guard !pendingSpace, utf16Length > 0, kind.mergesWhenTouching else { return nil }
        var slot = markups.count - 1
        while slot >= max(0, markups.count - 4) {
            if markups[slot].range.end == utf16Length, markups[slot].kind == kind,
               !open.contains(where: { $0.slot == slot }) {
                return slot
            }
            slot -= 1
        }
        return nil
    }

    /// Closes a markup at the current position. Closing one already closed does nothing.
    public mutating func closeMarkup(_ handle: OpenMarkup) {
        guard let index = open.lastIndex(where: { $0.id == handle.id }) else { return }
        let entry = open.remove(at: index)
        markups[entry.slot].range.end = utf16Length
        markupBytes[entry.slot].end = text.byteCount
        if pendingSpace, entry.id <= pendingSpaceMark, !markups[entry.slot].kind.trimsWhitespaceEdges {
            closedBeforePendingSpace.append(entry.slot)
        }
    }
}
