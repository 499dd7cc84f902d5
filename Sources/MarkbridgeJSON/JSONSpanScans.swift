@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// The scanner's wide scans, sixteen bytes at a time.
enum JSONSpanScans {
    @inline(__always)
    static func endOfPlainRun(_ input: Span<UInt8>, from start: Int) -> Int {
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C), space = SIMD16<UInt8>(repeating: 0x20)
        return ByteScan.firstIndex(in: input, from: start,
                                   whereBlock: { ($0 .== quote) .| ($0 .== backslash) .| ($0 .< space) },
                                   whereByte: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) ?? input.count
    }

    @inline(__always)
    static func checkedString(_ input: Span<UInt8>) -> String? {
        guard let valid = try? UTF8Span(validating: input) else { return nil }
        return String(copying: valid)
    }
}
