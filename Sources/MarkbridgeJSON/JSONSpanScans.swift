@_spi(MarkbridgeBytes) import MarkbridgeBytes

/// What the scanner reads: bytes indexed from 0, and the scans that read them as a `Span`
/// (each input's own, so that no closure stands between the scanner and the loop).
protocol JSONScannerInput: RandomAccessCollection where Element == UInt8, Index == Int {
    /// A key's bytes in the form `DistinctNames` takes.
    associatedtype KeyBytes
    func keyBytes(_ range: Range<Int>) -> KeyBytes
    /// The first quote, backslash or control character from `start`, or the end.
    func endOfPlainRun(from start: Int) -> Int
    /// The bytes in `range` as a string if they are valid UTF-8, by the standard library's check.
    func checkedString(_ range: Range<Int>) -> String?
    /// Where the first invalid UTF-8 sequence in `range` begins, from the range's start.
    func firstInvalidUTF8(in range: Range<Int>) -> Int?
    func utf8SequenceLength(at index: Int) -> Int
    /// Appends the bytes in `range` to `array`.
    func append(_ range: Range<Int>, to array: inout [UInt8])
}

/// The scans, over either input's span.
enum JSONSpanScans {
    @inline(__always)
    static func endOfPlainRun(_ input: Span<UInt8>, from start: Int) -> Int {
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C), space = SIMD16<UInt8>(repeating: 0x20)
        return ByteScan.firstIndex(in: input, from: start,
                                   whereBlock: { ($0 .== quote) .| ($0 .== backslash) .| ($0 .< space) },
                                   whereByte: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) ?? input.count
    }

    @inline(__always)
    static func checkedString(_ input: Span<UInt8>) -> String? {
        guard let valid = try? UTF8Span(validating: input) else { return nil }
        return String(copying: valid)
    }
}

extension UnsafeBufferPointer: JSONScannerInput where Element == UInt8 {
    @inline(__always)
    func keyBytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[range])
    }

    @inline(__always)
    func endOfPlainRun(from start: Int) -> Int {
        JSONSpanScans.endOfPlainRun(unsafe span, from: start)
    }

    @inline(__always)
    func checkedString(_ range: Range<Int>) -> String? {
        JSONSpanScans.checkedString(unsafe span.extracting(range))
    }

    @inline(__always)
    func firstInvalidUTF8(in range: Range<Int>) -> Int? {
        UTF8Validation.firstInvalidOffset(unsafe span.extracting(range))
    }

    @inline(__always)
    func utf8SequenceLength(at index: Int) -> Int {
        UTF8Validation.sequenceLength(unsafe span, at: index)
    }

    @inline(__always)
    func append(_ range: Range<Int>, to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(rebasing: self[range]))
    }
}

extension Array: JSONScannerInput where Element == UInt8 {
    @inline(__always)
    func keyBytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        self[range]
    }

    @inline(__always)
    func endOfPlainRun(from start: Int) -> Int {
        JSONSpanScans.endOfPlainRun(span, from: start)
    }

    @inline(__always)
    func checkedString(_ range: Range<Int>) -> String? {
        JSONSpanScans.checkedString(span.extracting(range))
    }

    @inline(__always)
    func firstInvalidUTF8(in range: Range<Int>) -> Int? {
        UTF8Validation.firstInvalidOffset(span.extracting(range))
    }

    @inline(__always)
    func utf8SequenceLength(at index: Int) -> Int {
        UTF8Validation.sequenceLength(span, at: index)
    }

    @inline(__always)
    func append(_ range: Range<Int>, to array: inout [UInt8]) {
        array.append(contentsOf: self[range])
    }
}
