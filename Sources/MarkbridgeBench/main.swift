import Foundation
import Markbridge

// markbridge-bench: times every conversion path on a generated corpus, each path and shape in a
// child process of its own so that its peak memory is its own.
//
//   markbridge-bench [--scale S] [--path NAME]    all paths (or one), a table on standard output
//   markbridge-bench --input FILE [--path NAME]   the same over one HTML file repeated to ~5 MB,
//                                                  and as 20,000 documents (the JSON and Markdown
//                                                  paths start from its IR)
//   markbridge-bench --child PATH SHAPE --scale S [--runs N]
//                                                  one measurement, as a tab-separated line; with
//                                                  --runs, exactly N runs (for `perf stat`)

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let scale = option("--scale").flatMap(Double.init) ?? 1.0

if let index = arguments.firstIndex(of: "--child"), index + 2 < arguments.count {
    let line = Runner.measure(path: arguments[index + 1], shape: arguments[index + 2], scale: scale,
                              runs: option("--runs").flatMap(Int.init), inputFile: option("--input"))
    print(line)
    exit(line.hasPrefix("error") ? 1 : 0)
}

// `--corpus html|json|prose` writes a large corpus document to standard output, to look at it.
if let format = option("--corpus") {
    guard let sample = try? Corpus.samples(format == "prose" ? .prose : .large, scale: scale)[0] else { exit(1) }
    print(format == "json" ? String(decoding: MarkupJSONWriter().write(sample.document).value, as: UTF8.self) : sample.html)
    exit(0)
}

let only = option("--path")
let inputFile = option("--input")
print("markbridge-bench: release build required for meaningful figures; "
      + (inputFile.map { "corpus: \($0) repeated" } ?? "corpus seed \(Corpus.seed)") + ", scale \(scale)")
print(Runner.header)
var failed = false
for path in BenchmarkPath.all where only == nil || path.name == only {
    for shape in inputFile == nil ? Corpus.generatedShapes : Corpus.fileShapes {
        let line = Runner.spawn(path: path.name, shape: shape.rawValue, scale: scale, inputFile: inputFile)
        if line.hasPrefix("error") { failed = true }
        print(Runner.format(line))
    }
}
exit(failed ? 1 : 0)
