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

    static func documents(_ shape: Shape, scale: Double) -> [Document] {
        var generator = DocumentGenerator(seed: seed)
        switch shape {
        case .large:
            return [generator.document(approximateTextBytes: Int(4_400_000 * scale))]
        case .small:
            return (0..<Int(20_000 * scale)).map { _ in generator.document(approximateTextBytes: 1_000) }
        }
    }
}
