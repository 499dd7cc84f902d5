import Foundation
import Markbridge
import MarkbridgeTestSupport

/// The generated corpus: one large document and many small ones, from a fixed seed.
enum Corpus {
    enum Shape: String, CaseIterable {
        /// One document of about 5 MB.
        case large
        /// 20,000 documents of about 2 KB each.
        case small
        /// One document of about 5 MB made of a given HTML file repeated (`--input FILE`): the
        /// generated corpus is a stress corpus, and this measures content as it really is.
        case file
        /// The given file as 20,000 separate documents (`--input FILE`).
        case files
        /// One ~5 MB document and 20,000 ~2 KB ones of generated prose at the density of real
        /// articles (`ProseCorpusGenerator`); the JSON and Markdown paths start from its IR.
        case prose
        case proseSmall = "prose-small"
    }

    /// The shapes measured by default: `file` and `files` need a file.
    static let generatedShapes: [Shape] = [.large, .small, .prose, .proseSmall]
    static let fileShapes: [Shape] = [.file, .files]

    static let seed: UInt64 = 20_261_129

    /// One input of the corpus: an IR document for the JSON paths and stored-content HTML for
    /// the HTML paths, each generated from the seed.
    struct Sample {
        let document: Document
        let html: String
    }

    static func samples(_ shape: Shape, scale: Double, inputFile: String? = nil) throws -> [Sample] {
        var generator = DocumentGenerator(seed: seed)
        var htmlGenerator = HTMLCorpusGenerator(seed: seed)
        switch shape {
        case .file, .files:
            guard let inputFile, let data = FileManager.default.contents(atPath: inputFile) else {
                throw CorpusError.unreadable(inputFile ?? "(no --input given)")
            }
            let piece = String(decoding: data, as: UTF8.self)
            if shape == .files {
                let document = try HTMLReader().read(Array(piece.utf8)).value
                return Array(repeating: Sample(document: document, html: piece), count: filesCount(pieceBytes: piece.utf8.count, scale: scale))
            }
            let target = Int(5_000_000 * scale)
            var html = ""
            html.reserveCapacity(target + piece.utf8.count)
            repeat { html += piece + "\n" } while html.utf8.count < target
            // The IR the JSON and Markdown paths start from is the file's own reading.
            let document = try HTMLReader().read(Array(html.utf8)).value
            return [Sample(document: document, html: html)]
        case .prose, .proseSmall:
            var prose = ProseCorpusGenerator(seed: seed)
            let (count, size) = shape == .prose ? (1, Int(5_000_000 * scale)) : (Int(20_000 * scale), 2_000)
            return try (0..<count).map { _ in
                let html = prose.fragment(approximateBytes: size)
                return Sample(document: try HTMLReader().read(Array(html.utf8)).value, html: html)
            }
        case .large:
            return [Sample(document: generator.document(approximateTextBytes: Int(4_400_000 * scale)),
                           html: htmlGenerator.fragment(approximateBytes: Int(5_000_000 * scale)))]
        case .small:
            return (0..<Int(20_000 * scale)).map { _ in
                Sample(document: generator.document(approximateTextBytes: 1_000), html: htmlGenerator.fragment(approximateBytes: 2_000))
            }
        }
    }
}

extension Corpus {
    /// How many copies of an `--input` file make the `files` corpus: 20,000 (at scale 1) of a
    /// file as small as the generated small documents, fewer of a larger one, so that the corpus
    /// is at most 40 MB (scaled down, never up) of HTML whatever the file; a 5 MB file was
    /// 20,000 copies, 100 GB of work and a 20 GB peak. `--scale 10` asks for a 50 MB `file`
    /// document, not for 400 MB of small ones held at once.
    static func filesCount(pieceBytes: Int, scale: Double) -> Int {
        let copies = max(1, Int(20_000 * min(scale, 1)))
        let bounded = Int(40_000_000 * min(scale, 1)) / max(pieceBytes, 1)
        return max(1, min(copies, bounded))
    }
}

enum CorpusError: Error, CustomStringConvertible {
    case unreadable(String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read the input file \(path)"
        }
    }
}
