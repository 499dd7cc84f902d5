/// One option a command accepts: its spellings, the name of its value (nil for a flag), its
/// help line, the default shown in help, and whether it may be given more than once.
struct OptionSpec {
    let names: [String]
    let valueName: String?
    let help: String
    let defaultValue: String?
    /// A value option that collects every value given (`--arg a=1 --arg b=2`), in order.
    let isRepeatable: Bool

    init(_ names: [String], value: String? = nil, help: String, default defaultValue: String? = nil, repeatable isRepeatable: Bool = false) {
        self.names = names
        self.valueName = value
        self.help = help
        self.defaultValue = defaultValue
        self.isRepeatable = isRepeatable
    }

    /// The long spelling, which is the key parsed values are stored under.
    var key: String { names.last ?? "" }

    /// As help lines and errors spell it: `-o, --output <file>`.
    var synopsis: String {
        names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "")
    }

    /// As a usage line spells it, by the long name: `[--output <file>]`, or `--output <file>` when
    /// the command requires it; a repeatable one as `[--arg <name=value> ...]`.
    func usage(isRequired: Bool) -> String {
        let option = key + (valueName.map { " <\($0)>" } ?? "") + (isRepeatable ? " ..." : "")
        return isRequired ? option : "[\(option)]"
    }
}

/// A command line that is wrong, with the message that says how.
struct UsageError: Error, Equatable {
    let message: String
}

/// The options and positional arguments of one command line, parsed against a list of specs:
/// `--name value`, `--name=value`, flags, and `--` to end options. A lone `-` is a positional.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var repeatedValues: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = specs.first(where: { $0.names.contains(name) }) else {
                throw UsageError(message: "Unknown option '\(name)'")
            }
            guard spec.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "Option '\(name)' takes no value") }
                flags.insert(spec.key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "Missing value for '\(spec.synopsis)'")
            }
            if spec.isRepeatable {
                repeatedValues[spec.key, default: []].append(value)
                continue
            }
            // A second value would silently win over the first: which one was meant is the
            // caller's to say.
            if let earlier = values[spec.key] {
                throw UsageError(message: "Option '\(spec.key)' given twice ('\(earlier)', then '\(value)'); give it once")
            }
            values[spec.key] = value
        }
    }

    func value(_ spec: OptionSpec) -> String? { values[spec.key] }
    /// Every value of a repeatable option, in the order given.
    func values(_ spec: OptionSpec) -> [String] { repeatedValues[spec.key] ?? [] }
    func isSet(_ spec: OptionSpec) -> Bool { flags.contains(spec.key) }
}
