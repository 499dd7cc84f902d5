import Foundation
import Testing
import MarkbridgeTestSupport
@testable import MarkbridgeMigration

@Suite("The batch input's digest, which --resume checks")
struct BatchDigestTests {
    private func digest(_ bytes: [UInt8], from start: BatchDigest = BatchDigest()) -> BatchDigest {
        var digest = start
        digest.add(bytes)
        return digest
    }

    private func encoded(_ digest: BatchDigest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(digest), as: UTF8.self)
    }

    private func decoded(_ json: String) throws -> BatchDigest {
        try JSONDecoder().decode(BatchDigest.self, from: Data(json.utf8))
    }

    @Test("the same bytes give the same digest however they are split: pieces, slices and single bytes")
    func splitAnywhere() {
        var random = SeededRandom(seed: 0xD16E57)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var split = BatchDigest(), index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + Int.random(in: 0...19, using: &random))
                switch Int.random(in: 0..<3, using: &random) {
                case 0: split.add(Array(bytes[index..<end]))
                case 1: split.add(bytes[index..<end])
                default: for byte in bytes[index..<end] { split.add(byte) }
                }
                index = end
            }
            #expect(split == digest(bytes), "\(bytes)")
        }
    }

    @Test("one changed byte, one byte more or one fewer always changes the digest")
    func editsAreSeen() {
        var random = SeededRandom(seed: 0xED175)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 1...70, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var changed = bytes
            changed[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            #expect(digest(changed) != digest(bytes))
            #expect(digest(Array(bytes.dropLast())) != digest(bytes))
            #expect(digest(bytes + [UInt8.random(in: 0...255, using: &random)]) != digest(bytes))
            // Zero bytes at the end are counted, not taken for the empty tail.
            #expect(digest(bytes + [0]) != digest(bytes))
        }
    }

    @Test("the function is pinned: a saved checkpoint's digest must mean the same to the next build")
    func pinned() throws {
        // The values as an independent reading of the function (Python, eight bytes little-endian
        // a word) gives them.
        #expect(try encoded(BatchDigest()) == #"{"count":0,"function":"words-1","state":11400714819323198485,"tail":0}"#)
        #expect(try encoded(digest(Array(0..<20))) == #"{"count":20,"function":"words-1","state":12582815478183954832,"tail":319951120}"#)
        let saved = digest(Array("{\"id\":1}\n".utf8))
        #expect(try decoded(encoded(saved)) == saved)
    }

    @Test("a checkpoint saved by the byte-at-a-time build (FNV-1a) decodes as FNV-1a, goes on as FNV-1a and is saved as it was")
    func legacyFNV1a() throws {
        // FNV-1a's published 64-bit values for "", "a" and "foobar".
        #expect(try encoded(BatchDigest.legacyFNV1a()) == #"{"value":14695981039346656037}"#)
        #expect(try encoded(digest(Array("a".utf8), from: .legacyFNV1a())) == #"{"value":\#(UInt64(0xaf63_dc4c_8601_ec8c))}"#)
        let foobar = digest(Array("foobar".utf8), from: .legacyFNV1a())
        #expect(try encoded(foobar) == #"{"value":\#(UInt64(0x8594_4171_f739_67e8))}"#)
        var resumed = try decoded(#"{"value":\#(UInt64(0xaf63_dc4c_8601_ec8c))}"#)
        #expect(resumed == digest(Array("a".utf8), from: .legacyFNV1a()))
        resumed.add(Array("ooba".utf8))
        resumed.add(UInt8(ascii: "r"))
        #expect(try encoded(resumed) == #"{"value":27916084410503379}"#)
        #expect(resumed == digest(Array("aoobar".utf8), from: .legacyFNV1a()))
        #expect(resumed != digest(Array("aoobar".utf8)))
    }

    @Test("a saved digest of an unknown function, or whose tail holds more bytes than its count, is refused")
    func malformed() {
        #expect(throws: DecodingError.self) { try decoded(#"{"count":0,"function":"words-2","state":1,"tail":0}"#) }
        #expect(throws: DecodingError.self) { try decoded(#"{"count":9,"function":"words-1","state":1,"tail":65536}"#) }
        #expect(throws: DecodingError.self) { try decoded(#"{"count":-8,"function":"words-1","state":1,"tail":0}"#) }
        #expect(throws: DecodingError.self) { try decoded(#"{"state":1}"#) }
    }

    @Test("a file's digest read again is the digest it was read with: whole, a prefix, or nil past its end, by the saved digest's function")
    func readAgain() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var random = SeededRandom(seed: 0xF11E)
        let bytes = (0..<3_000_001).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try BatchDigest.of(path, firstBytes: nil) == digest(bytes))
        #expect(try BatchDigest.of(path, firstBytes: 1_048_581) == digest(Array(bytes[..<1_048_581])))
        #expect(try BatchDigest.of(path, firstBytes: 3_000_002) == nil)
        let legacy = digest(Array(bytes[..<77]), from: .legacyFNV1a())
        #expect(try BatchDigest.of(path, firstBytes: 77, like: legacy) == legacy)
    }
}
