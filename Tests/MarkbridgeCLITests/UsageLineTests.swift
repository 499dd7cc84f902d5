import Testing
@testable import MarkbridgeCLI

/// Usage lines are made from each command's option table, so an option added to the table shows
/// up in the usage line, and an option removed from it leaves.
@Suite("Usage lines, from the option tables")
struct UsageLineTests {
    static let commands = [
        (name: ConvertCommand.name, usage: ConvertCommand.usage, specs: ConvertCommand.specs),
        (name: DumpCommand.name, usage: DumpCommand.usage, specs: DumpCommand.specs),
        (name: BatchCommand.name, usage: BatchCommand.usage, specs: BatchCommand.specs),
        (name: DiffCommand.name, usage: DiffCommand.usage, specs: DiffCommand.specs),
        (name: CheckCommand.name, usage: CheckCommand.usage, specs: CheckCommand.specs),
    ]

    @Test("Every option but --help is in its command's usage line, with its value name, and nothing else is",
          arguments: commands.indices)
    func everyOption(command: Int) {
        let (name, usage, specs) = Self.commands[command]
        let words = usage.split(separator: " ").map { String($0.filter { $0 != "[" && $0 != "]" }) }
        #expect(words.prefix(2) == ["markbridge", name])
        #expect([" [<file>]", " [<file>...]", " <file>", " <a> <b>"].contains { usage.hasSuffix($0) }, "\(name): the positional comes last")
        for spec in specs where spec.key != "--help" {
            guard let index = words.firstIndex(where: spec.names.contains) else {
                Issue.record("\(name): '\(spec.synopsis)' is missing from the usage line '\(usage)'")
                continue
            }
            if let valueName = spec.valueName {
                #expect(words.dropFirst(index + 1).first == "<\(valueName)>", "\(name): '\(spec.key)' without its <\(valueName)>")
            }
        }
        for word in words where word.hasPrefix("-") {
            #expect(specs.contains { $0.names.contains(word) && $0.key != "--help" }, "\(name): '\(word)' is not an option it accepts")
        }
    }

    @Test("Value options and flags in table order, required ones unbracketed, help left out, the positional last")
    func layout() {
        let specs = [
            OptionSpec(["--mode"], help: "A required flag."),
            OptionSpec(["-o", "--output"], value: "file", help: "A value with a short spelling."),
            MarkbridgeCommandLine.helpSpec,
            OptionSpec(["--quiet"], help: "A flag."),
            OptionSpec(["--level"], value: "n", help: "A required value."),
        ]
        let usage = HelpFormatter.usage("markbridge example", options: specs, required: [specs[0], specs[4]], positional: "<file>")
        #expect(usage == "markbridge example --mode [--output <file>] [--quiet] --level <n> [<file>]")
    }
}
