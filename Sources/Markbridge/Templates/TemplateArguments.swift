/// The values given to a template, handed out to its placeholders and checked as they go:
/// each value is the kind its placeholder asks for, and, at the end, every value was taken.
struct TemplateArguments {
    private let positional: [String]
    private let named: [String: String]
    private var isPositionUsed: [Bool]
    private var usedNames: Set<String> = []
    /// The position the next sequential placeholder (`%@`) takes.
    private var nextSequential = 1
    /// Names whose placeholders appear in a link's or image's URL, which is not substituted:
    /// an unused value says so.
    var namesInURLs: Set<String> = []

    init(positional: [String], named: [String: String]) {
        self.positional = positional
        self.named = named
        isPositionUsed = Array(repeating: false, count: positional.count)
    }

    /// The text that replaces `placeholder`: its value as given, a whole number written the
    /// way Swift writes it (`+07` is `7`), or a percent sign.
    mutating func text(for placeholder: TemplatePlaceholder) throws(ConversionError) -> String {
        switch placeholder.reference {
        case .percentSign:
            return "%"
        case .named(let name):
            guard let value = named[name] else {
                throw ConversionError(code: "missing-argument", message: "no argument for '\(placeholder.spelling)' (\(placeholder.place))")
            }
            usedNames.insert(name)
            return value
        case .sequential(let conversion):
            defer { nextSequential += 1 }
            return try value(at: nextSequential, as: conversion, for: placeholder)
        case .positional(let position, let conversion):
            return try value(at: position, as: conversion, for: placeholder)
        }
    }

    private mutating func value(at position: Int, as conversion: TemplatePlaceholder.Conversion,
                                for placeholder: TemplatePlaceholder) throws(ConversionError) -> String {
        guard position <= positional.count else {
            let given = positional.count == 1 ? "1 was given" : "\(positional.count) were given"
            throw ConversionError(code: "missing-argument",
                                  message: "no argument for '\(placeholder.spelling)' (\(placeholder.place)): it takes argument \(position), and \(given)")
        }
        isPositionUsed[position - 1] = true
        let value = positional[position - 1]
        switch conversion {
        case .text:
            return value
        case .integer:
            guard let number = Int(value) else {
                throw ConversionError(code: "invalid-argument",
                                      message: "'\(placeholder.spelling)' (\(placeholder.place)) takes a whole number, not '\(value)' (argument \(position))")
            }
            return String(number)
        case .unsignedInteger:
            guard let number = UInt(value) else {
                throw ConversionError(code: "invalid-argument",
                                      message: "'\(placeholder.spelling)' (\(placeholder.place)) takes a whole number of 0 or more, not '\(value)' (argument \(position))")
            }
            return String(number)
        }
    }

    /// Throws `unused-argument` for the first value no placeholder took: positions first, then
    /// names in alphabetical order.
    func checkAllUsed() throws(ConversionError) {
        if let unused = isPositionUsed.firstIndex(of: false) {
            throw ConversionError(code: "unused-argument",
                                  message: "argument \(unused + 1) ('\(positional[unused])') is taken by no placeholder")
        }
        if let unused = named.keys.filter({ !usedNames.contains($0) }).min() {
            let reason = namesInURLs.contains(unused) ? " (its placeholder in a URL is not substituted: values never enter URLs)" : ""
            throw ConversionError(code: "unused-argument", message: "argument '\(unused)' is taken by no placeholder\(reason)")
        }
    }
}
