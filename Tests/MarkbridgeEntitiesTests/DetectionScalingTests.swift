import Markbridge
import MarkbridgeTestSupport
import Testing

/// Detection is one pass over each block's scalars: no shape makes it rescan. Each shape is a
/// block that tempts a backtracking matcher (long runs of what almost makes an entity), at n and
/// 4n; linear is 4x the time, quadratic 16x.
@Suite("Entity detection: linear time")
struct DetectionScalingTests {
    static let shapes: [(String, @Sendable (Int) -> String)] = [
        ("hashtags side by side", { String(repeating: "#tag ", count: $0) }),
        ("one long tag", { "#" + String(repeating: "é", count: $0) }),
        ("# after letters, never a tag", { String(repeating: "a#", count: $0) }),
        ("a web address of brackets", { "https://x.y/" + String(repeating: "(", count: $0) + String(repeating: ")", count: $0 + 1) }),
        ("closing brackets to trim", { "https://x.y/a" + String(repeating: ")", count: $0) }),
        ("trailing punctuation to trim", { "www.x.y" + String(repeating: ".,", count: $0) }),
        ("mentions of dots", { "@a" + String(repeating: ".b", count: $0) }),
        ("@ after @", { String(repeating: "@", count: $0) + "a" }),
        ("prefixes that never finish", { String(repeating: "http:/ www ", count: $0) }),
    ]

    @Test("Four times the input at most", arguments: shapes.indices)
    func linear(shape: Int) {
        let (name, make) = Self.shapes[shape]
        let detection = EntityDetection(kinds: [.hashtags, .mentions, .urls])
        func document(_ n: Int) -> Document { Document(blocks: [Block(.paragraph, text: make(n))]) }
        let small = document(5_000), large = document(20_000)
        let ratios = LinearTime.ratios(small: [0], large: [1], limit: LinearTime.fourTimesBound, runs: 2) { which in
            _ = detection.apply(to: which[0] == 0 ? small : large)
        }
        #expect(ratios.contains { $0 < LinearTime.fourTimesBound }, "\(name): \(ratios)")
    }
}
