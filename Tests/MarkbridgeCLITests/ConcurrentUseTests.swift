import Testing
import Markbridge
import MarkbridgeTestSupport

/// A service converts from many tasks at once with one shared ``Converter`` (guarantee 13: no
/// global mutable state). Each task's result must be what the same conversion gives alone, and
/// under `swift test --sanitize=thread` (`.ci/sanitizers`) this is what ThreadSanitizer watches:
/// every reader and writer, cmark included, running on several threads over shared values.
@Suite("The library from many tasks at once")
struct ConcurrentUseTests {
    /// GFM is written but not read: its reader is Debian's cmark-gfm, which a sanitized
    /// build does not load (GFMLibrary says why).
    static let formats: [Format] = [.html, .markdown, .gfm, .markupJSON]
    static let readable: [Format] = [.html, .markdown, .markupJSON]

    @Test("One Converter shared by 16 tasks: every reader and writer gives what it gives alone")
    func sharedConverter() async throws {
        var generator = DocumentGenerator(seed: 1_327, profile: .hostile)
        let converter = Converter()
        // Inputs in every readable format, from generated documents written by the library.
        var inputs: [(bytes: [UInt8], format: Format)] = []
        for _ in 0..<6 {
            let document = generator.document(blockCount: 12)
            for format in Self.readable {
                inputs.append((try converter.write(document, to: format).value, format))
            }
        }
        var alone: [[[UInt8]]] = []
        for input in inputs {
            alone.append(try Self.formats.map { try converter.convert(input.bytes, from: input.format, to: $0).value })
        }
        let snapshot = inputs, expected = alone
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<snapshot.count {
                        let index = (round + worker) % snapshot.count
                        for (targetIndex, target) in Self.formats.enumerated() {
                            let result = try? converter.convert(snapshot[index].bytes, from: snapshot[index].format, to: target).value
                            if result != expected[index][targetIndex] { mismatches += 1 }
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
