import Markbridge

/// `--fail-on` and `--ignore`, as `check`, `diff` and `batch --check` take them: severities,
/// diagnostic codes and classes alike. `--ignore`'s `whitespace`, `attributes`, `link-targets`
/// and `markup:TYPE` change what the diff compares; everything else it names is compared and
/// shown but not counted.
enum GateOptions {
    static func failOn(default value: String) -> OptionSpec {
        OptionSpec(["--fail-on"], value: "classes",
                   help: "What fails (exit 1), comma-separated: severities (content, structure, style, info), diagnostic codes, "
                       + "classes (text-changed, markup-link-removed, markup:COLOR), warnings, diff, or none.",
                   default: value)
    }

    static let ignore = OptionSpec(["--ignore"], value: "classes",
                                   help: "Not compared: whitespace, attributes, link-targets, markup:<TYPE>. Compared but not counted: "
                                       + "severities, diagnostic codes and classes, as --fail-on takes them.")

    /// The gate that content and structure fail: check's and batch --check's default.
    static let defaultFailOn = "content,structure"

    /// The diff options and the gate spelt by `--ignore` and `--fail-on` (`failOnDefault` when absent).
    static func parse(ignore: String?, failOn: String?, failOnDefault: String) throws(UsageError) -> (DiffOptions, LossGate) {
        var options = DiffOptions()
        var counted: [String] = []
        for item in (ignore ?? "").split(separator: ",", omittingEmptySubsequences: true).map({ $0.trimmingSpaces() }) {
            switch item {
            case "whitespace": options.ignoresWhitespace = true
            case "attributes": options.ignoresAttributes = true
            case "link-targets": options.ignoresLinkTargets = true
            default:
                if item.hasPrefix("markup:"), let tag = MarkupKind.Tag(name: String(item.dropFirst("markup:".count)).uppercased()) {
                    options.ignoredMarkups.insert(tag)
                } else {
                    counted.append(item)
                }
            }
        }
        do {
            let gate = try LossGate(failOn: failOn ?? failOnDefault, ignoring: counted.isEmpty ? nil : counted.joined(separator: ","))
            return (options, gate)
        } catch {
            throw UsageError(message: error.message)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
