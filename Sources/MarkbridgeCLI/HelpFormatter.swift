/// Help in the layout of swift-argument-parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS,
/// with labels in a 24-column gutter.
struct HelpFormatter {
    var overview: String
    var discussion: String?
    var usage: String
    var arguments: [(label: String, help: String)] = []
    var options: [(label: String, help: String)] = []
    var subcommands: [(label: String, help: String)] = []
    var footer: String?

    func render() -> String {
        var out = "OVERVIEW: \(overview)\n\n"
        if let discussion { out += "\(discussion)\n\n" }
        out += "USAGE: \(usage)\n"
        for (title, rows) in [("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands)] where !rows.isEmpty {
            out += "\n\(title):\n"
            for row in rows { out += Self.row(row.label, row.help) }
        }
        if let footer { out += "\n  \(footer)\n" }
        return out
    }

    private static let gutter = 24

    private static func row(_ label: String, _ help: String) -> String {
        let indented = "  " + label
        if indented.count < gutter {
            return indented + String(repeating: " ", count: gutter - indented.count) + help + "\n"
        }
        return indented + "\n" + String(repeating: " ", count: gutter) + help + "\n"
    }

    /// A command's usage line, made from its option table so that it cannot leave an option out:
    /// the options in table order, each by its long name (`[--to <format>]`, `[--pretty]`), those in
    /// `required` without brackets, then the optional `positional`. The help flag is left out, as
    /// swift-argument-parser leaves it out.
    static func usage(_ command: String, options specs: [OptionSpec], required: [OptionSpec] = [], positional: String,
                      positionalIsRequired: Bool = false) -> String {
        let options = specs.filter { $0.key != MarkbridgeCommandLine.helpSpec.key }.map { spec in
            spec.usage(isRequired: required.contains { $0.key == spec.key })
        }
        return ([command] + options + [positionalIsRequired ? positional : "[\(positional)]"]).joined(separator: " ")
    }

    static func optionRows(_ specs: [OptionSpec]) -> [(label: String, help: String)] {
        specs.map { spec in
            (spec.synopsis, spec.help + (spec.defaultValue.map { " (default: \($0))" } ?? ""))
        }
    }
}
