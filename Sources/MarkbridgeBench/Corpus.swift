import Markbridge
import MarkbridgeTestSupport

/// The generated corpus: one large document and many small ones, from a fixed seed.
enum Corpus {
    enum Shape: String, CaseIterable {
        /// One document of about 5 MB.
        case large
        /// 20,000 documents of about 2 KB each.
        case small
    }

    static let seed: UInt64 = 20_261_129

    /// One input of the corpus: an IR document for the JSON paths and stored-content HTML for
    /// the HTML paths, each generated from the seed.
    struct Sample {
        let document: Document
        let html: String
    }

    static func samples(_ shape: Shape, scale: Double) -> [Sample] {
        var generator = DocumentGenerator(seed: seed)
        var htmlGenerator = HTMLCorpusGenerator(seed: seed)
        switch shape {
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
