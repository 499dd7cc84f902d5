import Markbridge

/// `DocumentDiff` over two read documents, and `Converter.check` (read, write, read back, diff)
/// over the first. A document against itself is no change, under every option; a diff names
/// each block of either side at most once, and only blocks that exist; a check whose read-back
/// equals what was read finds no difference.
///
/// The first byte: bits 0-1 the source format (html, markdown, json, html), bits 2-3 the
/// target the check goes through (json, html, markdown, json), bits 4-7 the diff options
/// (whitespace, link targets, attributes, colours ignored). The rest: the old document, then
/// after a 0xFF byte (never in UTF-8), the new one; without it, the new is the old.
enum DiffCheckTarget {
    static let converter = Converter(options: .init(repairsInvalidUTF8: true))

    static func check(_ input: [UInt8]) {
        guard let flags = input.first else { return }
        let source = [Format.html, .markdown, .markupJSON, .html][Int(flags & 3)]
        let target = [Format.markupJSON, .html, .markdown, .markupJSON][Int(flags >> 2 & 3)]
        let options = DiffOptions(ignoresWhitespace: flags & 0x10 != 0, ignoredMarkups: flags & 0x80 != 0 ? [.color, .background] : [],
                                  ignoresLinkTargets: flags & 0x20 != 0, ignoresAttributes: flags & 0x40 != 0)
        let body = input.dropFirst()
        let parts = body.split(separator: 0xFF, maxSplits: 1, omittingEmptySubsequences: false)
        let oldBytes = Array(parts[0]), newBytes = parts.count > 1 ? Array(parts[1]) : oldBytes
        guard let old = try? converter.read(oldBytes, from: source).value else { return }
        let new = (try? converter.read(newBytes, from: source).value) ?? Document()

        for (document, name) in [(old, "old"), (new, "new")] where !DocumentDiff(document, document, options: options).isEmpty {
            finding("the \(name) document against itself is not empty under \(options)\n\(shown("\(document)"))")
        }
        checkNamesEachBlockOnce(DocumentDiff(old, new, options: options), old, new)
        if DocumentDiff(old, new).isEmpty != (old == new) {
            finding("the diff says \(old == new ? "they differ" : "no change") but the documents are \(old == new ? "equal" : "not equal")\n\(shown("\(old)"))\n\(shown("\(new)"))")
        }

        guard let check = try? converter.check(oldBytes, from: source, via: target, diffOptions: options) else { return }
        checkNamesEachBlockOnce(check.diff, check.before, check.after)
        if check.before == check.after && !check.diff.isEmpty { finding("a check whose read-back is unchanged finds \(check.diff.changes)") }
        _ = check.lossClasses
    }

    static func checkNamesEachBlockOnce(_ diff: DocumentDiff, _ old: Document, _ new: Document) {
        var oldSeen = Set<Int>(), newSeen = Set<Int>()
        func see(_ index: Int, old side: Bool) {
            let count = side ? old.blocks.count : new.blocks.count
            guard (0..<count).contains(index) else { finding("the diff names block \(index) of the \(side ? "old" : "new") side, which has \(count)") }
            guard side ? oldSeen.insert(index).inserted : newSeen.insert(index).inserted else {
                finding("the diff names block \(index) of the \(side ? "old" : "new") side twice: \(diff.changes)")
            }
        }
        for change in diff.changes {
            switch change {
            case .inserted(let index, _): see(index, old: false)
            case .deleted(let index, _): see(index, old: true)
            case .moved(let from, let to, _), .changed(let from, let to, _):
                see(from, old: true)
                see(to, old: false)
            }
        }
    }
}
