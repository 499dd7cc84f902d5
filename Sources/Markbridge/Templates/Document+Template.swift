extension Document {
    /// The document with its placeholders replaced by values, read as a template after any
    /// reader has read it: so a value is always plain text (`<b>`, `**`, `&amp;`, `{x}` and
    /// `%@` in a value stay those characters), and markups keep covering what they covered.
    ///
    /// Placeholders, found in each block's text, code included (never in a URL, an alt text or
    /// a title):
    /// - `%@` takes the next of `values` in order; `%d` and `%i` take one that is a whole number
    ///   (written back as Swift writes it: `+07` is `7`), `%u` one of 0 or more; `%ld`, `%lld`,
    ///   `%qd`, `%zd` (and the same before `i` and `u`) are the same;
    /// - `%2$@`, `%2$d`, `%2$i`, `%2$u` take `values[1]`: positions count from 1, in any order
    ///   and as often as wanted;
    /// - `{name}` takes `named["name"]`: a letter or `_`, then letters, digits or `_`;
    /// - `%%` is a percent sign. A `{` that begins no `{name}` is text.
    ///
    /// Sequential placeholders count on across blocks, in document order. A markup covers a
    /// value when it covers its whole placeholder (`<b>{name}</b>`, `<b>Hi {name}</b>`); a
    /// markup that covers only part of one (`{na<b>me}</b>`) keeps the rest of what it covered
    /// and leaves the value out, with a `placeholder-split` warning. Table cells stretch around
    /// their values the same way. A URL is never substituted: a link to `/users/{id}` keeps
    /// those characters, with a `placeholder-in-url` warning, so no value can make a URL (nor a
    /// `javascript:` one). Markups come out in canonical order and merged; edges are not moved
    /// off whitespace, so a value's spaces stay under its markups.
    ///
    /// Throws, naming the placeholder and where it is (the block's index, 0-based, and the
    /// placeholder's UTF-16 offset in the template's text):
    /// - `invalid-placeholder`: any other `%` (`%x`, `%5d`, `%f`, a lone `%`), a position 0, or
    ///   positional and sequential placeholders in one template (as `String(format:)` forbids);
    /// - `missing-argument`: a placeholder with no value;
    /// - `invalid-argument`: a value that is not the whole number `%d`, `%i` or `%u` asks for;
    /// - `unused-argument`: a value no placeholder takes.
    ///
    /// A pure function of its inputs, safe from any task. Time: linear in the template and the
    /// output, and a binary search among its block's placeholders for each markup edge.
    public func substitutingPlaceholders(_ values: [String] = [], named: [String: String] = [:]) throws(ConversionError) -> Diagnosed<Document> {
        // Scanned first, all of them: a template that is wrong says so before any value is looked at.
        let templates = try blocks.indices.map { (index) throws(ConversionError) in
            let units = Array(blocks[index].text.utf16)
            let placeholders = try TemplatePlaceholder.scan(units, block: index)
            // Only a block with placeholders keeps its units, for the substitution.
            return (units: placeholders.isEmpty ? [] : units, placeholders: placeholders)
        }
        try Self.checkOneStyle(templates.lazy.flatMap(\.placeholders))
        var arguments = TemplateArguments(positional: values, named: named)
        var diagnostics: [Diagnostic] = []
        var result = self
        for index in blocks.indices {
            diagnostics += Self.placeholdersInURLs(of: blocks[index], at: index, noting: &arguments)
            let template = templates[index]
            guard !template.placeholders.isEmpty else { continue }
            var substitution = TemplateBlockSubstitution()
            try substitution.substitute(template.placeholders, in: template.units, with: &arguments)
            diagnostics += substitution.apply(to: &result.blocks[index], placeholders: template.placeholders)
        }
        try arguments.checkAllUsed()
        return Diagnosed(result, diagnostics: diagnostics)
    }

    /// Throws when positional (`%1$@`) and sequential (`%@`) placeholders meet in one template,
    /// naming the later of the first of each.
    private static func checkOneStyle(_ placeholders: some Sequence<TemplatePlaceholder>) throws(ConversionError) {
        var firstSequential: TemplatePlaceholder?, firstPositional: TemplatePlaceholder?
        for placeholder in placeholders {
            switch placeholder.reference {
            case .sequential: if firstSequential == nil { firstSequential = placeholder }
            case .positional: if firstPositional == nil { firstPositional = placeholder }
            case .named, .percentSign: break
            }
            if let sequential = firstSequential, let positional = firstPositional {
                let (later, earlier) = placeholder == sequential ? (sequential, positional) : (positional, sequential)
                throw ConversionError(code: "invalid-placeholder",
                                      message: "'\(later.spelling)' (\(later.place)) after '\(earlier.spelling)' (\(earlier.place)): "
                                          + "a template's placeholders are all positional (%1$@) or all sequential (%@)")
            }
        }
    }

    /// A warning for each link or image URL of `block` that holds what reads as `{name}`,
    /// which stays as written; the names noted, for the message of a value left unused.
    private static func placeholdersInURLs(of block: Block, at index: Int, noting arguments: inout TemplateArguments) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for markup in block.markups {
            guard let url = markup.kind.url?.value, url.contains("{") else { continue }
            let names = TemplatePlaceholder.names(in: Array(url.utf16))
            guard let first = names.first else { continue }
            arguments.namesInURLs.formUnion(names)
            diagnostics.append(.warning("placeholder-in-url",
                                        "\(markup.kind.name) URL '\(url)' keeps '{\(first)}' as written: values never enter URLs (block \(index))",
                                        block: index))
        }
        return diagnostics
    }
}
