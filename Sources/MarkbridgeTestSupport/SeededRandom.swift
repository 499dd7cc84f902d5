/// SplitMix64: a tiny, fast generator with a fixed seed, so generated corpora are the same on
/// every machine and every run. Or, for a fuzzer, one that draws from the fuzzer's bytes first.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// The bytes drawn first, one a draw: a fuzzer's input, so that a mutated byte changes one
    /// decision of the generator and no other (structure-aware fuzzing).
    private let entropy: [UInt8]
    private var position = 0

    public init(seed: UInt64) {
        state = seed
        entropy = []
    }

    /// A generator whose draws are `entropy`'s bytes, each repeated across the word so that
    /// `below` sees all of it, then zeros once they are used up (as libFuzzer's
    /// FuzzedDataProvider does), so that a short input makes a small document. Only for
    /// `below`, `chance` and `pick`: the standard library's `random(in:using:)` rejects a zero
    /// draw and would draw forever.
    public init(entropy: [UInt8]) {
        state = 0
        self.entropy = entropy
    }

    /// Whether the draws are a fuzzer's bytes rather than SplitMix64's.
    private var drawsEntropy: Bool { !entropy.isEmpty }

    public mutating func next() -> UInt64 {
        if drawsEntropy {
            guard position < entropy.count else { return 0 }
            position += 1
            return UInt64(entropy[position - 1]) &* 0x0101_0101_0101_0101
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
