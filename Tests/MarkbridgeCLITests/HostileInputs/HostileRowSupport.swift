import Markbridge

/// What the row tests of HOSTILE-INPUTS.md look at: a conversion's output as text and its
/// diagnostics' codes, or the error it threw.
enum HostileRow {
    static func convert(_ input: String, from source: Format = .html, to target: Format = .markupJSON,
                        options: ConversionOptions = .default) throws -> (output: String, codes: [String]) {
        let result = try Converter(options: options).convert(input, from: source, to: target)
        return (result.value, result.diagnostics.map(\.code))
    }

    static func convert(bytes: [UInt8], from source: Format = .html, to target: Format = .markupJSON,
                        options: ConversionOptions = .default) throws(ConversionError) -> (output: String, codes: [String]) {
        let result = try Converter(options: options).convert(bytes, from: source, to: target)
        return (String(decoding: result.value, as: UTF8.self), result.diagnostics.map(\.code))
    }

    /// A markup JSON document of one paragraph, as the writer spells it.
    static func json(_ text: String, _ markups: String? = nil) -> String {
        #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":""# + text + "\""
            + (markups.map { #","markups":["# + $0 + "]" } ?? "") + "}]}\n"
    }
}
