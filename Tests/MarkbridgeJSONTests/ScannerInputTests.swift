import Foundation
import Testing
@testable import MarkbridgeJSON
import MarkbridgeIR
import MarkbridgeTestSupport

/// The scanner reads a `Span` of the input (see `JSONScanner`). On mutated documents, random
/// bytes and every truncation of a document, it must give the same answers, failures
/// included, and end at the same place, whether the input is an array of its own or a span
/// cut out of a larger one between bytes that would change the answers if read (an opening
/// quote and bracket before, a closing one and digits after): every read stays inside.
@Suite("JSON scanner: inside its span, wherever the span lies")
struct ScannerInputTests {
    /// Everything the scanner says about `bytes`, read value after value from the top; after a
    /// failure it moves a byte on and goes on.
    static func transcript(_ bytes: Span<UInt8>) -> [String] {
        var scanner = JSONScanner(bytes: bytes)
        var events: [String] = []
        for _ in 0..<300 {
            scanner.skipWhitespace()
            if scanner.isAtEnd { break }
            do throws(JSONScanFailure) {
                switch try scanner.peekKind(.root) {
                case .string:
                    events.append("string \(try scanner.string(.root).unicodeScalars.map(\.value))")
                case .number:
                    let read = try scanner.saturatingInteger(.root)
                    events.append("number \(read.value) \(read.saturated)")
                case .boolean, .null:
                    events.append("literal \(String(describing: try scanner.literal(.root)))")
                case .object:
                    try scanner.object(.root) { scanner, key, offset, raw throws(JSONScanFailure) in
                        events.append("key \(key.unicodeScalars.map(\.value)) at \(offset), raw \(raw != nil)")
                        try scanner.skipValue(.root, maxDepth: 6)
                    }
                    events.append("object end")
                case .array:
                    try scanner.array(.root) { scanner, index throws(JSONScanFailure) in
                        events.append("element \(index)")
                        if try scanner.peekKind(.root) == .number {
                            events.append("integer \(try scanner.integer(.root))")
                        } else {
                            try scanner.skipValue(.root, maxDepth: 6)
                        }
                    }
                    events.append("array end")
                }
            } catch {
                events.append("failure \(error.code) at \(error.offset): \(error.message)")
                scanner.position = min(bytes.count, max(scanner.position, error.offset) + 1)
            }
            events.append("at \(scanner.position)")
        }
        return events
    }

    /// Whether both transcripts agree; `events` counts what was compared.
    static func check(_ bytes: [UInt8], events: inout Int) -> Bool {
        let overArray = transcript(bytes.span)
        let padded = Array("[\"".utf8) + bytes + Array("\"]}0123".utf8)
        let overSlice = transcript(padded.span.extracting(2..<(2 + bytes.count)))
        events += overArray.count
        return overArray == overSlice
    }

    @Test("Mutated documents")
    func mutations() throws {
        var generator = DocumentGenerator(seed: 4_242, profile: .hostile)
        var random = SeededRandom(seed: 7)
        let interesting: [[UInt8]] = ["{", "}", "[", "]", "\"", "\\", "\\u", "\\ud83d\\ude00", "\\ud800", ",", ":", "-", "0", "1e9", "99999999999999999999", "tru", "null", "\u{0}", "é", "日本"].map { Array($0.utf8) } + [[0xC3], [0xE6, 0x97], [0xFF], [0xF0, 0x9F, 0x91]]
        var mismatches = 0
        var events = 0
        for _ in 0..<300 {
            var bytes = try MarkupJSONWriter().write(generator.document(blockCount: 3)).value
            for _ in 0..<(1 + random.below(6)) where !bytes.isEmpty {
                let position = random.below(bytes.count)
                switch random.below(4) {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(contentsOf: random.pick(interesting), at: position)
                default: bytes.removeSubrange(position..<min(bytes.count, position + random.below(20)))
                }
            }
            if !Self.check(bytes, events: &events) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // Keys, strings and numbers were read, not only failures.
        #expect(events > 20_000)
    }

    @Test("Random bytes, and every truncation of a document")
    func randomAndTruncated() throws {
        var random = SeededRandom(seed: 11)
        let alphabet = Array(#"{}[]":,0123456789-.eE truefalsnul\"#.utf8) + [0x00, 0x1F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
        var mismatches = 0
        var events = 0
        for _ in 0..<2_000 {
            let bytes = (0..<random.below(80)).map { _ in random.pick(alphabet) }
            if !Self.check(bytes, events: &events) { mismatches += 1 }
        }
        var generator = DocumentGenerator(seed: 12, profile: .hostile)
        let document = try MarkupJSONWriter().write(generator.document(blockCount: 2)).value
        for length in 0...document.count where !Self.check(Array(document[..<length]), events: &events) { mismatches += 1 }
        #expect(mismatches == 0)
    }
}

/// Strings are read run by run between escapes (see `JSONScanner.string`): the runs, the escapes
/// and the failures between them must read as a byte-at-a-time reading would.
@Suite("JSON scanner: strings with escapes")
struct ScannerStringTests {
    static let pieces = ["a", "Z", " ", "<a href=", "é", "日本", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\r", "\\b", "\\f",
                         "\\u00e9", "\\u65E5", "\\ud83d\\ude00", "\\u0041"]

    @Test("Random strings of runs and escapes read as Foundation's JSON parser reads them, as strings and as bytes")
    func matchesFoundation() throws {
        var random = SeededRandom(seed: 20261207)
        for round in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &random)
            let body = (0..<count).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let json = Array("\"\(body)\"".utf8)
            var scanner = JSONScanner(bytes: json.span)
            let read = try scanner.string(.root)
            let expected = try #require(JSONSerialization.jsonObject(with: Data("[\"\(body)\"]".utf8)) as? [String]).first
            #expect(read == expected, "round \(round): \(body)")
            #expect(scanner.position == json.count)
            // The bytes a batch hands its reader are the string's.
            var bytesScanner = JSONScanner(bytes: json.span)
            let bytes = try bytesScanner.stringUTF8(.root)
            #expect(bytes == expected.map { Array($0.utf8) }, "round \(round): \(body)")
            #expect(bytesScanner.position == json.count)
            if read != expected { return }
        }
    }

    @Test("A bad byte put between random runs and escapes fails where it is, with its code, read as a string or as bytes")
    func randomFailures() throws {
        var random = SeededRandom(seed: 20261208)
        let bad: [(bytes: [UInt8], code: String)] = [([0xFF], "invalid-utf8"), ([0x80], "invalid-utf8"), ([0xE6, 0x97], "invalid-utf8"),
                                                     ([0xC3], "invalid-utf8"), ([0x01], "invalid-json"), ([0x1F], "invalid-json")]
        for round in 0..<2_000 {
            let before = (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let after = (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let wrong = bad.randomElement(using: &random)!
            let json = Array("\"\(before)".utf8) + wrong.bytes + Array("\(after)\"".utf8)
            let offset = 1 + before.utf8.count
            var scanner = JSONScanner(bytes: json.span), bytesScanner = JSONScanner(bytes: json.span)
            var failures: [String] = []
            do throws(JSONScanFailure) { _ = try scanner.string(.root) } catch { failures.append("\(error.code) at \(error.offset)") }
            do throws(JSONScanFailure) { _ = try bytesScanner.stringUTF8(.root) } catch { failures.append("\(error.code) at \(error.offset)") }
            #expect(failures == Array(repeating: "\(wrong.code) at \(offset)", count: 2), "round \(round): \(before)")
            if failures.count != 2 || failures[0] != "\(wrong.code) at \(offset)" { return }
        }
    }

    @Test("Invalid UTF-8 or a control character after an escape fails at its byte, read as a string or as bytes")
    func failuresAfterEscapes() throws {
        func failure(_ bytes: [UInt8]) -> (String, Int)? {
            var scanner = JSONScanner(bytes: bytes.span), bytesScanner = JSONScanner(bytes: bytes.span)
            var failures: [(String, Int)?] = []
            do throws(JSONScanFailure) {
                _ = try scanner.string(.root)
                failures.append(nil)
            } catch {
                failures.append((error.code, error.offset))
            }
            do throws(JSONScanFailure) {
                _ = try bytesScanner.stringUTF8(.root)
                failures.append(nil)
            } catch {
                failures.append((error.code, error.offset))
            }
            // Read as a string or as bytes, the same failure at the same byte.
            #expect(failures[0]?.0 == failures[1]?.0 && failures[0]?.1 == failures[1]?.1)
            return failures[0]
        }
        // `"a\nb` then the byte, then `c"`: the byte is at offset 5.
        let head = Array("\"a\\nb".utf8), tail = Array("c\"".utf8)
        #expect(try #require(failure(head + [0xFF] + tail)) == ("invalid-utf8", 5))
        #expect(try #require(failure(head + [0xE6, 0x97] + tail)) == ("invalid-utf8", 5))
        #expect(try #require(failure(head + [0x01] + tail)) == ("invalid-json", 5))
        #expect(try #require(failure(head + Array("\\n\\t".utf8) + [0xC3] + tail)) == ("invalid-utf8", 9))
        #expect(try #require(failure(head)) == ("invalid-json", 5))
        // Deep in a long run, past the blocks the check skips whole: 20 two-byte characters
        // after the escape, then the byte, at 5 + 40.
        let long = head + Array(String(repeating: "é", count: 20).utf8)
        #expect(try #require(failure(long + [0xFF] + tail)) == ("invalid-utf8", 45))
        // Escapes back to back, then a bad byte: the run after them begins at offset 17.
        #expect(try #require(failure(head + Array("\\u041f\\u0440".utf8) + [0x80] + tail)) == ("invalid-utf8", 17))
    }
}
