import Foundation

/// A test case written as data, in the manner of cmark's spec.txt: a sentence saying the rule,
/// the input, and the expected output.
public struct Fixture: Sendable {
    public var title: String
    public var input: String
    public var expected: String
    /// The file and line the fixture starts at, so a failure names it.
    public var origin: String

    public var testDescription: String { "\(title) (\(origin))" }
}

public enum FixtureFile {
    /// Parses a fixture file: cases separated by lines of `====`; in each, a `## title` line,
    /// the input, a line `----`, then the expected output. Lines starting `#` before the first
    /// case are commentary.
    public static func load(_ path: String) -> [Fixture] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let name = (path as NSString).lastPathComponent
        var fixtures: [Fixture] = []
        var lineNumber = 0
        for chunk in text.components(separatedBy: "\n====\n") {
            let startLine = lineNumber + 1
            lineNumber += chunk.components(separatedBy: "\n").count + 1
            let lines = chunk.components(separatedBy: "\n")
            guard let titleIndex = lines.firstIndex(where: { $0.hasPrefix("## ") }),
                  let separator = lines.firstIndex(of: "----"), separator > titleIndex else { continue }
            let title = String(lines[titleIndex].dropFirst(3))
            let input = lines[(titleIndex + 1)..<separator].joined(separator: "\n")
            var expectedLines = Array(lines[(separator + 1)...])
            while expectedLines.last == "" { expectedLines.removeLast() }
            fixtures.append(Fixture(title: title, input: input, expected: expectedLines.joined(separator: "\n"),
                                    origin: "\(name):\(startLine + titleIndex)"))
        }
        return fixtures
    }
}

/// Where the repository and the shared test data are, found from this file's own path.
public enum TestPaths {
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `../shared/data` beside the repository; tests that need it skip visibly when it is absent.
    public static let sharedData = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent()
        .appendingPathComponent("shared/data").path

    public static func sharedData(_ relative: String) -> String {
        sharedData + "/" + relative
    }

    public static var hasSharedData: Bool {
        FileManager.default.fileExists(atPath: sharedData)
    }

    /// A file under `Tests/`, for fixtures.
    public static func tests(_ relative: String) -> String {
        repositoryRoot + "/Tests/" + relative
    }
}
