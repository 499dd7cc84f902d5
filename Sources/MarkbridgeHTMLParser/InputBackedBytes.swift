/// Bytes the tokenizer is collecting (a character run, a tag name) that are usually one
/// stretch of the input as it stands: kept as a range of the input until something else joins
/// them (a decoded reference, a lower-cased letter), and only then copied into a buffer.
struct InputBackedBytes {
    private var run: Range<Int>?
    private var buffer: [UInt8] = []

    var isEmpty: Bool { run == nil && buffer.isEmpty }

    /// The bytes' range in the input, while they are one (nothing else has joined them).
    var inputRange: Range<Int>? { run }

    /// The bytes, valid until the next change.
    func bytes(in input: [UInt8]) -> ArraySlice<UInt8> {
        if let run { return input[run] }
        return buffer[...]
    }

    /// Calls `body` with the bytes, borrowed: no slice is made (nor retained) for them.
    func withBytes<Result>(in input: [UInt8], _ body: (Span<UInt8>) -> Result) -> Result {
        if let run { return body(input.span.extracting(run)) }
        return body(buffer.span)
    }

    mutating func removeAll() {
        run = nil
        if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
    }

    /// Adds input bytes: still a range when they continue the range so far.
    mutating func append(_ range: Range<Int>, of input: [UInt8]) {
        if isEmpty {
            run = range
        } else if let current = run, current.upperBound == range.lowerBound {
            run = current.lowerBound..<range.upperBound
        } else {
            copyRun(of: input)
            buffer.append(contentsOf: input[range])
        }
    }

    /// Adds bytes from elsewhere: from here on the bytes are a copy.
    mutating func append(_ byte: UInt8, of input: [UInt8]) {
        copyRun(of: input)
        buffer.append(byte)
    }

    mutating func append(contentsOf bytes: some Collection<UInt8>, of input: [UInt8]) {
        copyRun(of: input)
        buffer.append(contentsOf: bytes)
    }

    private mutating func copyRun(of input: [UInt8]) {
        guard let current = run else { return }
        buffer.append(contentsOf: input[current])
        run = nil
    }
}
