import Foundation
import Markbridge

// markbridge-bench: times every conversion path on a generated corpus, each path and shape in a
// child process of its own so that its peak memory is its own.
//
//   markbridge-bench [--scale S] [--path NAME]    all paths (or one), a table on standard output
//   markbridge-bench --input FILE [--path NAME]   the same over one HTML file repeated to ~5 MB,
//                                                  and as 20,000 documents (the JSON and Markdown
//                                                  paths start from its IR)
//   markbridge-bench --input FILE --peers [--rounds N]
//                                                  Markbridge beside lexbor, html-to-markdown
//                                                  and cmark on that input: MB/s and ratios
//   markbridge-bench --pathological               cmark's pathological Markdown, each read in
//                                                  under 4 s or refused in under 0.5 s
//   markbridge-bench --child PATH SHAPE --scale S [--runs N]
//                                                  one measurement, as a tab-separated line; with
//                                                  --runs, exactly N runs (for `perf stat`)

let arguments = Array(CommandLine.arguments.dropFirst())

let usage = """
    usage: markbridge-bench [--scale S] [--path NAME]
           markbridge-bench --input FILE [--path NAME] [--shape file|files] [--scale S]
           markbridge-bench --input FILE --peers [--rounds N] [--scale S]
           markbridge-bench --child PATH SHAPE [--scale S] [--runs N] [--input FILE]
           markbridge-bench --corpus html|json|prose|jsonl [--scale S] [--record-bytes N]
           markbridge-bench --pathological
    paths: \((BenchmarkPath.all.map(\.name) + BatchBenchmark.names).joined(separator: ", "))
    shapes: \(Corpus.Shape.allCases.map(\.rawValue).joined(separator: ", "))
    """

if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}

/// Refuses what it does not know, so that a mistyped option never runs the whole bench.
func refuse(_ message: String) -> Never {
    FileHandle.standardError.write(Data("markbridge-bench: \(message)\n\(usage)\n".utf8))
    exit(2)
}

let valuedOptions: Set = ["--scale", "--path", "--input", "--runs", "--rounds", "--shape", "--corpus", "--batch-child", "--batch-input", "--record-bytes"]
var argumentIndex = 0
while argumentIndex < arguments.count {
    let argument = arguments[argumentIndex]
    if argument == "--child" {
        argumentIndex += 3
    } else if argument == "--pathological" || argument == "--peers" {
        argumentIndex += 1
    } else if valuedOptions.contains(argument) {
        guard argumentIndex + 1 < arguments.count else { refuse("\(argument) needs a value") }
        argumentIndex += 2
    } else {
        refuse("unknown argument '\(argument)'")
    }
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if let text = option("--scale"), Double(text).map({ $0 > 0 }) != true { refuse("--scale needs a positive number, not '\(text)'") }
if let text = option("--runs"), Int(text).map({ $0 > 0 }) != true { refuse("--runs needs a positive whole number, not '\(text)'") }
if let name = option("--path"), !BenchmarkPath.all.contains(where: { $0.name == name }), !BatchBenchmark.names.contains(name) {
    refuse("unknown path '\(name)'")
}
if let text = option("--record-bytes"), Int(text).map({ $0 > 0 }) != true { refuse("--record-bytes needs a positive whole number, not '\(text)'") }
if let text = option("--rounds"), Int(text).map({ $0 > 0 }) != true { refuse("--rounds needs a positive whole number, not '\(text)'") }
if let name = option("--shape"), Corpus.Shape(rawValue: name) == nil { refuse("unknown shape '\(name)'") }
if arguments.contains("--peers"), option("--input") == nil { refuse("--peers needs --input FILE (e.g. ../shared/data/samples/article-ru.html)") }
if let file = option("--input"), !FileManager.default.isReadableFile(atPath: file) { refuse("cannot read '\(file)'") }

let scale = option("--scale").flatMap(Double.init) ?? 1.0

if arguments.contains("--pathological") {
    exit(PathologicalMarkdown.runAll() ? 0 : 1)
}

if let index = arguments.firstIndex(of: "--child"), index + 2 < arguments.count {
    let line = Runner.measure(path: arguments[index + 1], shape: arguments[index + 2], scale: scale,
                              runs: option("--runs").flatMap(Int.init), inputFile: option("--input"))
    print(line)
    exit(line.hasPrefix("error") ? 1 : 0)
}

// `--batch-child N` runs batch case N in this process's own child, for its peak memory.
if let text = option("--batch-child"), let index = Int(text), let input = option("--batch-input") {
    let cases = BatchBenchmark.cases(scale: scale)
    guard cases.indices.contains(index) else { refuse("unknown batch case \(index)") }
    print(BatchBenchmark.measure(cases[index], input: input))
    exit(0)
}

// `--corpus html|json|prose` writes a large corpus document to standard output, to look at it.
if option("--corpus") == "jsonl" {
    let recordBytes = option("--record-bytes").flatMap(Int.init) ?? BatchBenchmark.defaultRecordBytes
    FileHandle.standardOutput.write(Data(BatchBenchmark.corpus(records: max(1, Int(20_000 * scale)), recordBytes: recordBytes)))
    exit(0)
}
if let format = option("--corpus") {
    guard let sample = try? Corpus.samples(format == "prose" ? .prose : .large, scale: scale)[0] else { exit(1) }
    print(format == "json" ? String(decoding: try MarkupJSONWriter().write(sample.document).value, as: UTF8.self) : sample.html)
    exit(0)
}

if arguments.contains("--peers"), let inputFile = option("--input") {
    print("markbridge-bench --peers: release build required for meaningful figures; scale \(scale)")
    exit(Peers.run(inputFile: inputFile, scale: scale, rounds: option("--rounds").flatMap(Int.init) ?? 3) ? 0 : 1)
}

let only = option("--path")
let onlyShape = option("--shape")
let inputFile = option("--input")
print("markbridge-bench: release build required for meaningful figures; "
      + (inputFile.map { "corpus: \($0) repeated" } ?? "corpus seed \(Corpus.seed)") + ", scale \(scale)")
print(Runner.header)
var failed = false
for path in BenchmarkPath.all where only == nil || path.name == only {
    for shape in inputFile == nil ? Corpus.generatedShapes : Corpus.fileShapes where onlyShape == nil || shape.rawValue == onlyShape {
        let line = Runner.spawn(path: path.name, shape: shape.rawValue, scale: scale, inputFile: inputFile)
        if line.hasPrefix("error") { failed = true }
        print(Runner.format(line))
    }
}
// The batch command, whole process, unless one path or an input file was asked for.
if only == nil && inputFile == nil || only?.hasPrefix("batch") == true {
    print(BatchBenchmark.header)
    let batch = BatchBenchmark.runAll(only: only, scale: scale)
    batch.lines.forEach { print($0) }
    if batch.failed { failed = true }
}
exit(failed ? 1 : 0)
