/// Scanning bytes sixteen at a time (Swift's SIMD types, which compile to SSE2, the x86-64
/// baseline) or eight at a time in a word (SWAR) for the passes readers and writers make over
/// whole texts: finding bytes, counting them, UTF-16 lengths, the end of plain ASCII. A loop
/// that looks at one byte at a time spends most of its time on bytes that cannot match.
/// Vector code here compares vectors with vectors and reduces masks through `anyLane`,
/// `firstLane` and `laneOnes`: the standard library's scalar-operand comparisons, `any(_:)` and
/// `replacing(with:where:)` go one lane at a time where they are not inlined.
///
/// Every routine reads a `Span`, and every read is bounds-checked. The operations the standard
/// library marks unsafe that remain are unsafe for a reason of type, not of memory: `load` and
/// `loadBlock` read eight or sixteen bytes at once with `RawSpan.unsafeLoadUnaligned(
/// fromByteOffset:as:)`, which checks the range (it is "unsafe" only because a type may have
/// invalid bit patterns; `UInt64` and `SIMD16<UInt8>` have none); `copy` stores them through a
/// `MutableRawSpan`, checked the same way; masks become lanes of bytes or words through
/// `unsafeBitCast`, between types of one size with no invalid patterns. A `Span` has no safe
/// wide read: with loads made of eight or sixteen checked byte reads, html-parse took 138.9 M
/// instructions instead of 98.1 M and json-to-json 235.9 M instead of 179.8 M (prose corpus).
/// `WideReadTests` compares each routine with a loop a byte at a time over random input.
@_spi(MarkbridgeBytes) public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is zero. Exact: the borrow can only make a false positive
    /// above a true zero byte, never without one.
    @inline(__always)
    @inlinable static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    /// Whether any byte of `word` equals `byte`.
    @inline(__always)
    @inlinable public static func word(_ word: UInt64, contains byte: UInt8) -> Bool {
        hasZeroByte(word ^ (ones &* UInt64(byte)))
    }

    /// Whether any byte of `word` is below `bound` (at most 128).
    @inline(__always)
    @inlinable public static func word(_ word: UInt64, hasByteBelow bound: UInt8) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highBits != 0
    }

    /// The high bit of each byte of `word` that is zero, and no other bit: exact per byte (no
    /// borrow crosses bytes), for when it matters which bytes matched, not only whether any did.
    @inline(__always)
    @inlinable public static func zeroByteFlags(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low7) &+ low7) | word) & highBits
    }

    /// The high bit of each byte of `word` that is at least 0xE0 (a lead byte of three or four
    /// bytes in UTF-8), exact per byte.
    @inline(__always)
    @inlinable public static func leadOfThreeOrMoreFlags(_ word: UInt64) -> UInt64 {
        word & (word << 1) & (word << 2) & highBits
    }

    /// The high bit of each byte of `word` that is a UTF-8 continuation byte (10xxxxxx), exact
    /// per byte.
    @inline(__always)
    @inlinable public static func continuationFlags(_ word: UInt64) -> UInt64 {
        word & ~(word << 1) & highBits
    }

    /// Per byte lane of `word`, the UTF-16 units its byte begins: 1 for a byte that is not a
    /// continuation byte, 2 for a lead of four bytes, 0 for a continuation byte.
    @inline(__always)
    @inlinable static func utf16UnitLanes(_ word: UInt64) -> UInt64 {
        ((~continuationFlags(word) & highBits) >> 7) &+ (leadOfFourFlags(word) >> 7)
    }

    /// The high bit of each byte of `word` that is at least 0xF0 (a lead byte of four bytes in
    /// UTF-8, or a byte that is never valid), exact per byte.
    @inline(__always)
    @inlinable public static func leadOfFourFlags(_ word: UInt64) -> UInt64 {
        word & (word << 1) & (word << 2) & (word << 3) & highBits
    }

    /// Whether every byte of `word` is ASCII.
    @inline(__always)
    @inlinable public static func isASCII(_ word: UInt64) -> Bool {
        word & highBits == 0
    }

    /// The eight bytes at `index` (which must have eight bytes after it; checked), in memory order.
    @inline(__always)
    @inlinable public static func load(_ bytes: Span<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: unsafe bytes.bytes.unsafeLoadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// How many bytes of `buffer` equal `byte`.
    @inlinable public static func count(of byte: UInt8, in buffer: Span<UInt8>) -> Int {
        let pattern = SIMD16<UInt8>(repeating: byte)
        let wordPattern = ones &* UInt64(byte)
        return tally(buffer, blocksPerFlush: 255,
                     block: { laneOnes($0 .== pattern) },
                     word: { (zeroByteFlags($0 ^ wordPattern) >> 7) }, byte: { $0 == byte ? 1 : 0 })
    }

    /// How many UTF-16 code units the (valid) UTF-8 in `buffer` encodes: one for every byte
    /// that is not a continuation byte, and one more for every lead of four bytes.
    @inlinable public static func utf16Count(ofUTF8 buffer: Span<UInt8>) -> Int {
        // A byte adds at most 2 to its lane, so 127 blocks fit before a flush.
        tally(buffer, blocksPerFlush: 127, block: { utf16UnitLanes($0) }, word: { utf16UnitLanes($0) },
              byte: { byte in (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0) })
    }

    /// Per lane of `block`, the UTF-16 units its byte begins: 1 for a byte that is not a
    /// continuation byte, 2 for a lead of four bytes, 0 for a continuation byte.
    @inlinable @inline(__always)
    public static func utf16UnitLanes(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
        laneOnes((block & SIMD16(repeating: 0xC0)) .!= SIMD16(repeating: 0x80)) &+ laneOnes(block .> SIMD16(repeating: 0xEF))
    }

    /// 1 in each lane `mask` sets, 0 elsewhere: a set lane is all ones (the standard library's
    /// `replacing(with:where:)` goes lane by lane where the compiler does not inline it).
    @inlinable @inline(__always)
    public static func laneOnes(_ mask: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> {
        unsafe unsafeBitCast(mask, to: SIMD16<UInt8>.self) & SIMD16(repeating: 1)
    }

    /// The sum of the lanes of `block`, whatever it is (each lane widened first): for counts
    /// gathered over many blocks, where `laneSum`'s limit would not hold.
    @inlinable @inline(__always)
    public static func wideLaneSum(_ block: SIMD16<UInt8>) -> Int {
        Int(SIMD16<UInt16>(truncatingIfNeeded: block).wrappedSum())
    }

    /// The sum of the lanes of `block`, when it is below 256.
    @inline(__always)
    @inlinable public static func laneSum(_ block: SIMD16<UInt8>) -> Int {
        let halves = unsafe unsafeBitCast(block, to: SIMD2<UInt64>.self)
        return Int((halves[0] &* ones) >> 56) + Int((halves[1] &* ones) >> 56)
    }

    /// The UTF-16 units of the whole UTF-8 sequences in `word`: its bytes that are not
    /// continuation bytes, and one more for each lead of four bytes.
    @inline(__always)
    @inlinable public static func utf16Units(inWord word: UInt64) -> Int {
        Int((utf16UnitLanes(word) &* ones) >> 56)
    }

    /// Sums a per-byte count over `buffer`, sixteen bytes at a time: `block` gives the counts
    /// of sixteen bytes as byte lanes, which add up in one vector and are summed every
    /// `blocksPerFlush` blocks, before a lane could overflow. The tail goes eight bytes at a
    /// time through `word` (lanes of a word), then through `byte`. Swift's SIMD types compile
    /// to SSE2 here, the x86-64 baseline: 3-4x fewer instructions than lanes in a word.
    @inline(__always)
    @inlinable static func tally(_ buffer: Span<UInt8>, blocksPerFlush: Int,
                              block perBlock: (SIMD16<UInt8>) -> SIMD16<UInt8>,
                              word perWord: (UInt64) -> UInt64,
                              byte perByte: (UInt8) -> Int) -> Int {
        var count = 0
        var index = 0
        while index + 16 <= buffer.count {
            var lanes = SIMD16<UInt8>()
            var blocks = 0
            while blocks < blocksPerFlush, index + 16 <= buffer.count {
                lanes &+= perBlock(loadBlock(buffer, at: index))
                index += 16
                blocks += 1
            }
            count += wideLaneSum(lanes)
        }
        if index + 8 <= buffer.count {
            count += Int((perWord(load(buffer, at: index)) &* ones) >> 56)
            index += 8
        }
        while index < buffer.count {
            count += perByte(buffer[index])
            index += 1
        }
        return count
    }

    /// Whether any lane of `mask` is set. The standard library's `any(_:)` loops over the lanes
    /// one at a time (as `min()`); two 64-bit halves OR'd together take three instructions.
    @inline(__always)
    @inlinable public static func anyLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let halves = unsafe unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
    }

    /// The first lane of `mask` that is set, or nil: from the trailing zero bits of the two
    /// 64-bit halves (a set lane is eight set bits).
    @inlinable @inline(__always)
    public static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int? {
        let halves = unsafe unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        if halves[0] != 0 { return halves[0].trailingZeroBitCount >> 3 }
        if halves[1] != 0 { return 8 + halves[1].trailingZeroBitCount >> 3 }
        return nil
    }

    /// Sixteen bytes of `buffer` from `index` (which must leave sixteen; checked).
    @inlinable @inline(__always)
    public static func loadBlock(_ buffer: Span<UInt8>, at index: Int) -> SIMD16<UInt8> {
        unsafe buffer.bytes.unsafeLoadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
    }

    /// Copies `source` into `target` from byte `offset` (which must leave room; checked):
    /// sixteen bytes a store, the last block overlapping the one before it, so that a short
    /// piece costs a store or two. The standard library has no bulk copy from a `Span` yet.
    @inlinable @inline(__always)
    public static func copy(_ source: Span<UInt8>, to target: inout MutableRawSpan, at offset: Int) {
        let count = source.count
        if count >= 16 {
            var index = 0
            while count - index > 16 {
                target.storeBytes(of: loadBlock(source, at: index), toByteOffset: offset + index, as: SIMD16<UInt8>.self)
                index += 16
            }
            target.storeBytes(of: loadBlock(source, at: count - 16), toByteOffset: offset + count - 16, as: SIMD16<UInt8>.self)
        } else if count >= 8 {
            target.storeBytes(of: load(source, at: 0).littleEndian, toByteOffset: offset, as: UInt64.self)
            target.storeBytes(of: load(source, at: count - 8).littleEndian, toByteOffset: offset + count - 8, as: UInt64.self)
        } else {
            for index in 0..<count { target.storeBytes(of: source[index], toByteOffset: offset + index, as: UInt8.self) }
        }
    }

    /// The first index at or after `start` holding `byte`, or nil.
    @inlinable public static func firstIndex(of byte: UInt8, in buffer: Span<UInt8>, from start: Int = 0) -> Int? {
        let pattern = SIMD16<UInt8>(repeating: byte)
        return firstIndex(in: buffer, from: start, whereBlock: { $0 .== pattern }, whereByte: { $0 == byte })
    }

    /// The first index at or after `start` whose byte `byte` accepts, or nil: sixteen bytes at
    /// a time through `block`, which must flag exactly the bytes `byte` accepts, then the last
    /// few one at a time. The one scan behind every "skip to the next byte that matters" loop
    /// (the tokenizer's text runs, JSON strings in and out, Markdown escaping); inlinable, so
    /// that the two predicates are compiled into each caller's loop.
    @inlinable @inline(__always)
    public static func firstIndex(in buffer: Span<UInt8>, from start: Int = 0,
                                  whereBlock block: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>,
                                  whereByte byte: (UInt8) -> Bool) -> Int? {
        var index = start
        while index + 16 <= buffer.count {
            if let lane = firstLane(block(loadBlock(buffer, at: index))) { return index + lane }
            index += 16
        }
        while index < buffer.count {
            if byte(buffer[index]) { return index }
            index += 1
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    /// Appends `bytes`, sixteen at a time (`ByteScan.copy`): the standard library's only safe
    /// way from a `Span` into an array is an `OutputSpan` a byte at a time, four instructions
    /// a byte, where this is a fill and a copy, under one a byte for long pieces.
    @_spi(MarkbridgeBytes) @inlinable
    public mutating func append(copying bytes: Span<UInt8>) {
        // Nothing to add leaves the array alone: on an empty array the standard library's
        // `append(addingCapacity:)` writes the shared empty storage's count, which two threads
        // doing so at once race on (ThreadSanitizer reports it).
        guard !bytes.isEmpty else { return }
        append(addingCapacity: bytes.count) { output in
            output.append(repeating: 0, count: bytes.count)
            var target = output.mutableSpan
            // As raw bytes: every pattern is a valid `UInt8`, all the "unsafe" warns of.
            var raw = unsafe target.mutableBytes
            ByteScan.copy(bytes, to: &raw, at: 0)
        }
    }
    /// Appends a literal's bytes: a `StaticString`'s are read through its buffer, the one way
    /// to them, which is its own and lives as long as the program.
    @_spi(MarkbridgeBytes) @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(copying: unsafe $0.span) }
    }
}
