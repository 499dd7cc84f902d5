import MarkbridgeTestSupport

enum GeneratedDocuments {
    static func hostile(seed: UInt64) -> DocumentGenerator {
        DocumentGenerator(seed: seed, profile: .hostile)
    }
}
