import Foundation
import MarkbridgeIR

extension EntityDetection {
    /// `document` with the entities found in its text marked up, and a warning for each web
    /// address or entity link the URL policy refused (its text stays, unlinked).
    public func apply(to document: Document, urlPolicy: URLPolicy = .default) -> Diagnosed<Document> {
        guard !kinds.isEmpty else { return Diagnosed(document, diagnostics: []) }
        var policy = urlPolicy
        if !policy.isUnrestricted { policy.allowedSchemes.formUnion(linkSchemes) }
        var result = document
        var diagnostics: [Diagnostic] = []
        for index in result.blocks.indices {
            if case .codeBlock = result.blocks[index].kind { continue }
            let block = result.blocks[index]
            guard !block.text.isEmpty else { continue }
            let added = markups(in: block, blockIndex: index, policy: policy, diagnostics: &diagnostics)
            if !added.isEmpty { result.blocks[index].markups += added }
        }
        result.canonicalize()
        return Diagnosed(result, diagnostics: diagnostics)
    }

    private func markups(in block: Block, blockIndex: Int, policy: URLPolicy, diagnostics: inout [Diagnostic]) -> [Markup] {
        let scalars = Array(block.text.unicodeScalars)
        // The UTF-16 offset of each scalar, and of the end.
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += scalar.utf16.count
        }
        offsets.append(offset)
        let open = openScalars(of: block, offsets: offsets)
        let scanner = EntityScanner(scalars: scalars, open: open)
        var added: [Markup] = []
        for entity in scanner.entities(kinds) {
            let range = TextRange(start: offsets[entity.start], end: offsets[entity.end])
            switch entity.found {
            case .hashtag(let tag):
                let normalized = tag.precomposedStringWithCanonicalMapping
                added.append(Markup(.hashtag(normalized), range))
                if let hashtagLink { link(hashtagLink.url(for: normalized), range, "hashtag link", blockIndex, policy, &added, &diagnostics) }
            case .mention(let name):
                added.append(Markup(.mention(name), range))
                if let mentionLink { link(mentionLink.url(for: name), range, "mention link", blockIndex, policy, &added, &diagnostics) }
            case .url(let href):
                link(href, range, "web address", blockIndex, policy, &added, &diagnostics)
            }
        }
        return added
    }

    private func link(_ href: String, _ range: TextRange, _ what: String, _ blockIndex: Int, _ policy: URLPolicy,
                      _ added: inout [Markup], _ diagnostics: inout [Diagnostic]) {
        switch policy.check(href, for: .link) {
        case .allowed(let checked), .linkOnly(let checked, _):
            added.append(Markup(.link(LinkTarget(href: checked)), range))
        case .rejected(let reason):
            diagnostics.append(.warning("unsafe-url", "\(what) \(range) in block \(blockIndex) not linked: \(reason)", block: blockIndex))
        }
    }

    /// Which scalars an entity may use: none inside code, a link, a hashtag or a mention
    /// already there, and (in a table row) none outside its cells.
    private func openScalars(of block: Block, offsets: [Int]) -> [Bool] {
        let count = offsets.count - 1
        var closed: [TextRange] = block.markups.compactMap { markup in
            switch markup.kind {
            case .code, .link, .hashtag, .mention: markup.range
            case .strong, .emphasis, .strike, .underline, .superscript, .subscript, .highlight, .color, .background, .image: nil
            }
        }
        if case .tableRow(let row) = block.kind {
            var position = 0
            for cell in row.cells.sorted(by: { $0.range.start < $1.range.start }) {
                if cell.range.start > position { closed.append(TextRange(start: position, end: cell.range.start)) }
                position = max(position, cell.range.end)
            }
            closed.append(TextRange(start: position, end: offsets[count]))
        }
        var open = [Bool](repeating: true, count: count)
        guard !closed.isEmpty else { return open }
        // Each range marked from the first scalar at or after its start, found by binary search.
        for range in closed where !range.isEmpty {
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] < range.start { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < count, offsets[index] < range.end {
                open[index] = false
                index += 1
            }
        }
        return open
    }
}
