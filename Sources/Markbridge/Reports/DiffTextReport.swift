
/// A diff for people, in the manner of `git diff --word-diff`: one hunk a changed block,
/// headed `@@ block 3 -> 4 (P) @@` (indices from 0, as in markup JSON's `/paragraphs/3`), its
/// text with `[-removed-]` and `{+added+}` inline, then its markup and attribute changes, one a
/// line. Colour, when asked for, is added to the brackets, never put in their place.
package struct DiffTextReport {
    package var usesColor: Bool

    package init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    package func render(_ diff: DocumentDiff, oldName: String, newName: String) -> String {
        guard !diff.isEmpty else { return "" }
        var out = paint("--- \(TerminalText.line(oldName))\n+++ \(TerminalText.line(newName))\n", .bold)
        for change in diff.changes {
            switch change {
            case .inserted(let index, let block):
                out += hunk("block \(index) (\(Self.typeName(block))) inserted")
                if !block.text.isEmpty { out += paint("{+" + Self.shown(block.text) + "+}", .added) + "\n" }
                out += attributeLines(block)
            case .deleted(let index, let block):
                out += hunk("block \(index) (\(Self.typeName(block))) deleted")
                if !block.text.isEmpty { out += paint("[-" + Self.shown(block.text) + "-]", .removed) + "\n" }
                out += attributeLines(block)
            case .moved(let from, let to, let block):
                out += hunk("block \(from) -> \(to) (\(Self.typeName(block))) moved")
                if !block.text.isEmpty { out += Self.shown(block.text) + "\n" }
                out += attributeLines(block)
            case .changed(let from, let to, let details):
                let types = Self.typeName(details.old) == Self.typeName(details.new) ? Self.typeName(details.new)
                    : "\(Self.typeName(details.old)) -> \(Self.typeName(details.new))"
                out += hunk("block \(from) -> \(to) (\(types))" + (details.isMoved ? " moved" : ""))
                out += inlineText(details) + "\n"
                for attribute in details.attributes {
                    out += "  \(attribute.name): \(Self.value(attribute.old)) -> \(Self.value(attribute.new))\n"
                }
                for markup in details.markups { out += "  " + describe(markup) + "\n" }
            }
        }
        out += summary(diff) + "\n"
        return out
    }

    /// A whole block's attributes, one a line (`  src: https://…`): what an image or an embed is.
    private func attributeLines(_ block: Block) -> String {
        DocumentDiff.attributes(of: block).map { "  \($0.name): \(Self.value($0.value))\n" }.joined()
    }

    /// `3 changes: 1 changed, 1 inserted, 1 moved`.
    package func summary(_ diff: DocumentDiff) -> String {
        let counts = DiffCounts(diff)
        let parts = [("changed", counts.changed), ("inserted", counts.inserted), ("deleted", counts.deleted), ("moved", counts.moved)]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        let total = diff.changes.count
        return "\(total) block\(total == 1 ? "" : "s") differ\(total == 1 ? "s" : ""): " + parts.joined(separator: ", ")
    }

    /// The new text with the old text's edits shown where they are.
    private func inlineText(_ details: BlockDifferences) -> String {
        let newText = Array(details.new.text.utf16)
        var out = ""
        var position = 0
        func kept(upTo end: Int) {
            guard end > position else { return }
            out += Self.shown(String(decoding: newText[position..<end], as: UTF16.self))
            position = end
        }
        for edit in details.text {
            kept(upTo: edit.new.start)
            if !edit.removed.isEmpty { out += paint("[-" + Self.shown(edit.removed) + "-]", .removed) }
            if !edit.added.isEmpty { out += paint("{+" + Self.shown(edit.added) + "+}", .added) }
            position = max(position, edit.new.end)
        }
        kept(upTo: newText.count)
        return out
    }

    /// `STRONG "bold, and I" removed`, `LINK "here" href: https://a/ -> https://b/`.
    private func describe(_ markup: MarkupChange) -> String {
        let subject = "\(markup.name) \(Self.quoted(markup.text))"
        switch markup.kind {
        case .removed: return paint(subject + " removed", .removed)
        case .added: return paint(subject + " added", .added)
        case .changed:
            let attribute = markup.attribute ?? "value"
            let old = attribute == "range" ? Self.quoted(markup.oldValue ?? "") : Self.value(markup.oldValue ?? "")
            let new = attribute == "range" ? Self.quoted(markup.newValue ?? "") : Self.value(markup.newValue ?? "")
            return "\(subject) \(attribute): \(paint(old, .removed)) -> \(paint(new, .added))"
        }
    }

    private func hunk(_ title: String) -> String {
        paint("@@ \(title) @@", .hunk) + "\n"
    }

    /// The markup JSON type of a block (`P`, `H2`, `OLI`).
    package static func typeName(_ block: Block) -> String {
        block.kind.tag?.rawValue ?? "?"
    }

    /// Block text on the terminal: line breaks kept, every other control escaped.
    package static func shown(_ text: String) -> String {
        TerminalText.lines(text)
    }

    private static func quoted(_ text: String) -> String {
        "\"" + TerminalText.line(text) + "\""
    }

    /// An attribute value; an absent one shows as `(none)`.
    private static func value(_ text: String) -> String {
        text.isEmpty ? "(none)" : TerminalText.line(text)
    }

    private enum Paint: String {
        case added = "32", removed = "31", hunk = "36", bold = "1"
    }

    private func paint(_ text: String, _ paint: Paint) -> String {
        usesColor ? "\u{1B}[\(paint.rawValue)m\(text)\u{1B}[m" : text
    }
}

/// How many blocks each kind of change touches; a block that moved and changed counts as moved.
package struct DiffCounts {
    package var changed = 0, inserted = 0, deleted = 0, moved = 0

    package init(_ diff: DocumentDiff) {
        for change in diff.changes {
            switch change {
            case .changed(_, _, let details) where details.isMoved: moved += 1
            case .changed: changed += 1
            case .inserted: inserted += 1
            case .deleted: deleted += 1
            case .moved: moved += 1
            }
        }
    }
}
