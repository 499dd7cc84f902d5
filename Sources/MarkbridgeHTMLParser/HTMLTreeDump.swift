/// The html5lib test format of a tree: one node a line, `| ` then two spaces a level;
/// `<tag>` (with `svg `/`math ` for foreign elements), attributes sorted under their element,
/// `"text"`, `<!-- comment -->`, `<!DOCTYPE ...>`, and `content` for template contents.
/// What `markbridge dump --html-tree` prints and what the conformance tests compare.
extension HTMLTree {
    public func html5libDump() -> String {
        var lines: [String] = []
        // Iterative depth-first walk: (node, depth), children pushed in reverse.
        var stack: [(Int32, Int)] = []
        var child = lastChildIndex(contentRootIndex)
        while child >= 0 {
            stack.append((child, 0))
            child = previousSiblingIndex(child)
        }
        while let (index, depth) = stack.popLast() {
            let node = nodes[Int(index)]
            let indent = String(repeating: "  ", count: depth)
            switch node.kind {
            case .element:
                let prefix = node.namespace == .svg ? "svg " : node.namespace == .mathml ? "math " : ""
                lines.append("| \(indent)<\(prefix)\(nodeName(index))>")
                let attributes = storedAttributes(of: index).map { attribute -> String in
                    let name = attribute.prefix.map { "\($0) \(attribute.name)" } ?? attribute.name
                    return "\(name)=\"\(attribute.value)\""
                }.sorted()
                for attribute in attributes { lines.append("| \(indent)  \(attribute)") }
            case .text:
                lines.append("| \(indent)\"\(text(of: HTMLNodeID(index)))\"")
            case .comment:
                lines.append("| \(indent)<!-- \(text(of: HTMLNodeID(index))) -->")
            case .doctype:
                let (publicID, systemID) = doctypeIdentifiers(of: HTMLNodeID(index))
                if publicID == nil && systemID == nil {
                    lines.append("| \(indent)<!DOCTYPE \(nodeName(index))>")
                } else {
                    lines.append("| \(indent)<!DOCTYPE \(nodeName(index)) \"\(publicID ?? "")\" \"\(systemID ?? "")\">")
                }
            case .templateContents:
                lines.append("| \(indent)content")
            case .document, .fragment:
                break
            }
            var child = lastChildIndex(index)
            while child >= 0 {
                stack.append((child, depth + 1))
                child = previousSiblingIndex(child)
            }
        }
        return lines.joined(separator: "\n")
    }
}
