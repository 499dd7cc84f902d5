// Markup JSON and HTML files shown as a native client would: each read and written as an
// AttributedString off the main thread, all at once, then each one's paragraphs printed with
// the attributes on their runs. `swift run AttributedStringSample FILE...` from a package that
// depends on Markbridge (see README.md); .ci/service-check builds and runs it.
import Foundation
import Markbridge
import MarkbridgeAttributedString

/// A file's document as an AttributedString: markup JSON by its extension, else HTML.
func attributedString(atPath path: String) throws -> AttributedString {
    guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
    let bytes = [UInt8](data)
    if path.hasSuffix(".json") { return try AttributedStringWriter().write(markupJSON: bytes).value }
    return try AttributedStringWriter().write(try HTMLReader().read(bytes).value)
}

/// One run as its text and the Markbridge attributes set on it.
func describe(_ run: AttributedString.Runs.Run, in string: AttributedString) -> String {
    var parts: [String] = []
    if run.strong == true { parts.append("strong") }
    if run.emphasis == true { parts.append("emphasis") }
    if run.code == true { parts.append("code") }
    if let href = run.linkHref { parts.append("link \(href)") }
    if let color = run.textColor { parts.append("color \(color)") }
    if let image = run.image { parts.append("image \(image.src)") }
    let text = String(string[run.range].characters).replacingOccurrences(of: "\n", with: "⏎")
    return "  \(run.blockKind?.rawValue ?? "?") depth \(run.depth ?? 0) quote \(run.quoteDepth ?? 0): \(text.prefix(40).debugDescription)"
        + (parts.isEmpty ? "" : " [" + parts.joined(separator: ", ") + "]")
}

let paths = CommandLine.arguments.dropFirst()
guard !paths.isEmpty else {
    print("usage: AttributedStringSample FILE...  (markup JSON or HTML)")
    exit(64)
}
// Every file at once, each on a task of the pool: nothing here needs the main thread.
let strings = try await withThrowingTaskGroup(of: (Int, AttributedString).self) { group in
    for (index, path) in paths.enumerated() {
        group.addTask { (index, try attributedString(atPath: path)) }
    }
    var strings = [AttributedString?](repeating: nil, count: paths.count)
    for try await (index, string) in group { strings[index] = string }
    return strings.compactMap { $0 }
}
for (path, string) in zip(paths, strings) {
    let runs = Array(string.runs)
    print("\(path): \(string.characters.count) characters, \(runs.count) runs")
    for run in runs.prefix(12) { print(describe(run, in: string)) }
    if runs.count > 12 { print("  … \(runs.count - 12) more runs") }
    guard !runs.isEmpty else { fatalError("\(path) gave an empty AttributedString") }
}
