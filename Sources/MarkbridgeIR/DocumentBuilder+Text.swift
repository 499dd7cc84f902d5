@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// Text into the block being built: appended as given, collapsible whitespace noted and
/// written only between words, line breaks.
extension DocumentBuilder {
    /// Appends text to the current block, starting a paragraph if none is open.
    public mutating func append(_ piece: String) {
        if !isInBlock { startBlock(.paragraph) }
        writePendingSpace()
        utf16Length += ByteScan.utf16Count(ofUTF8: piece.utf8.span)
        text.append(piece)
    }

    /// Appends text given as UTF-8. The bytes should be valid UTF-8 (readers pass text from
    /// validated input); an invalid sequence is replaced with U+FFFD when the block ends, and
    /// the block's markups are then clamped to its text rather than trusted.
    public mutating func appendUTF8(_ bytes: Span<UInt8>) {
        appendBytes(bytes, isReaderText: false)
    }

    /// Appends bytes that this package's HTML reader takes from its validated input: the
    /// block's string is made from them without a second check (see `String(htmlReaderText:)`).
    package mutating func appendValidUTF8(_ bytes: Span<UInt8>) {
        appendBytes(bytes, isReaderText: true)
    }

    /// The same, with the bytes' length in UTF-16 units already known (a reader that scanned
    /// them anyway counted it on the way, saving a pass over the text).
    package mutating func appendValidUTF8(_ bytes: Span<UInt8>, utf16Count: Int) {
        assert(utf16Count == ByteScan.utf16Count(ofUTF8: bytes), "a wrong UTF-16 length would shift every markup after it")
        appendBytes(bytes, isReaderText: true, utf16Count: utf16Count)
    }

    mutating func appendBytes(_ bytes: Span<UInt8>, isReaderText: Bool, utf16Count: Int? = nil) {
        if !isInBlock { startBlock(.paragraph) }
        writePendingSpace()
        text.append(bytes, isReaderText: isReaderText)
        utf16Length += utf16Count ?? ByteScan.utf16Count(ofUTF8: bytes)
    }

    /// Appends text given as UTF-8 (see the span form).
    public mutating func appendUTF8(_ bytes: ArraySlice<UInt8>) {
        appendUTF8(bytes.span)
    }

    mutating func writePendingSpace() {
        guard pendingSpace else { return }
        pendingSpace = false
        guard utf16Length > cellStart else {
            closedBeforePendingSpace.removeAll()
            return
        }
        for entry in open where entry.id > pendingSpaceMark && markups[entry.slot].range.start == utf16Length {
            markups[entry.slot].range.start += 1
            markupBytes[entry.slot].start += 1
        }
        for slot in closedBeforePendingSpace where markups[slot].range.end == utf16Length {
            markups[slot].range.end += 1
            markupBytes[slot].end += 1
        }
        closedBeforePendingSpace.removeAll()
        text.appendSpace()
        utf16Length += 1
    }

    /// Whitespace pending is not written: at a block's or cell's edge, before a line break.
    mutating func dropPendingSpace() {
        pendingSpace = false
        closedBeforePendingSpace.removeAll()
    }

    /// Notes collapsible whitespace: one space between words, none at the start or end of a
    /// block or right after a line break. Readers that collapse whitespace (HTML outside `pre`,
    /// Markdown soft breaks) call this instead of appending spaces.
    public mutating func appendCollapsibleSpace() {
        guard isInBlock, utf16Length > cellStart, text.lastByte != 0x0A else { return }
        if !pendingSpace { pendingSpaceMark = nextID }
        pendingSpace = true
    }

    /// Appends a hard line break; whitespace pending before it is dropped.
    public mutating func appendLineBreak() {
        dropPendingSpace()
        append("\n")
    }

    /// A line break between blocks flattened into the open block's text (a paragraph inside a
    /// heading): none at the block's start or right after another.
    public mutating func breakLine() {
        guard isInBlock, !isInCell, utf16Length > 0, text.lastByte != 0x0A else { return }
        appendLineBreak()
    }

    /// Removes a line break that ends the current block, as a browser does not render a
    /// `<br>` that ends a block. Returns whether there was one.
    @discardableResult
    public mutating func removeTrailingLineBreak() -> Bool {
        guard text.lastByte == 0x0A else { return false }
        text.removeLastLineFeed()
        utf16Length -= 1
        dropPendingSpace()
        return true
    }
}
