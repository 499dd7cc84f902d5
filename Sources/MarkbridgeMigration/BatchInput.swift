import Markbridge
@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Foundation

/// A piece of batch input: whole lines of one file, or one line too long to hold.
enum BatchInputPiece: Sendable {
    case lines(BatchLines)
    case oversized(OversizedLine)
}

/// Consecutive whole lines of one input (the last may lack its line feed at the end of input).
package struct BatchLines: Sendable {
    var file: Int
    /// The 1-based number of the first line, and its byte offset in its input.
    var firstLine: Int
    var firstOffset: Int
    var bytes: [UInt8]
    /// The digest of this input's bytes up to the end of this piece.
    var endDigest: BatchDigest
}

/// A line longer than the record limit: it is never held, only measured, and its first bytes
/// kept for the dead letter. `length` and `prefix` are of the record, as a line held whole gives
/// it: without its line ending, or the byte-order mark of an input's first line.
struct OversizedLine: Sendable {
    var file: Int
    var line: Int
    var offset: Int
    var length: Int
    /// At least `RecordPrefix.keptBytes` of the record's first bytes (or all of it).
    var prefix: [UInt8]
    /// Where the next line starts.
    var nextOffset: Int
    /// The digest of this input's bytes up to `nextOffset`.
    var endDigest: BatchDigest
}

/// Where reading stands: the input, the byte offset in it, the number of the next line, and the
/// digest of the input's bytes before the offset.
struct BatchPosition: Codable, Hashable, Sendable {
    var file: Int
    var offset: Int
    var line: Int
    var digest = BatchDigest()
}

/// The inputs of a batch read as pieces of whole lines, about `pieceBytes` each, from a
/// position (the start, or a checkpoint's). An input is a file path, or `-` for standard input.
struct BatchInput: AsyncSequence, Sendable {
    typealias Element = BatchInputPiece

    let paths: [String]
    let start: BatchPosition
    let pieceBytes: Int
    let maxRecordBytes: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(input: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        let input: BatchInput
        var position: BatchPosition
        var handle: FileHandle?
        /// Bytes read past the last complete line.
        var pending: [UInt8] = []
        var pendingOffset = 0
        var atEnd = false
        /// The digest of the bytes of this input taken into pieces so far.
        var digest: BatchDigest

        init(input: BatchInput) {
            self.input = input
            position = input.start
            digest = input.start.digest
        }

        mutating func next() async throws -> BatchInputPiece? {
            while position.file < input.paths.count {
                if handle == nil { try open() }
                if let piece = try nextPiece() { return piece }
                // This input is done: the next one starts at its beginning.
                try? handle?.close()
                handle = nil
                position = BatchPosition(file: position.file + 1, offset: 0, line: 1)
                pending = []
                lastLineFeed = nil
                atEnd = false
                digest = BatchDigest()
            }
            return nil
        }

        private mutating func open() throws {
            let path = input.paths[position.file]
            if path == "-" {
                handle = FileHandle.standardInput
            } else {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw FileMigrationError("cannot read '\(path)'") }
                handle = opened
                if position.offset > 0 { try opened.seek(toOffset: UInt64(position.offset)) }
            }
            pendingOffset = position.offset
        }

        private mutating func readMore() throws {
            guard !atEnd, let handle else { return }
            let data: Data?
            do {
                data = try handle.read(upToCount: input.pieceBytes)
            } catch {
                throw FileMigrationError("cannot read '\(input.paths[position.file])': \(error.localizedDescription)")
            }
            guard let data, !data.isEmpty else {
                atEnd = true
                return
            }
            let searchFrom = pending.count
            pending.append(contentsOf: data)
            // Only the new bytes are searched: a long line is not scanned again on every read.
            if let found = pending[searchFrom...].lastIndex(of: 0x0A) { lastLineFeed = found }
        }

        /// The last line feed in `pending`, if any.
        var lastLineFeed: Int?

        /// The next piece of this input, or nil at its end.
        private mutating func nextPiece() throws -> BatchInputPiece? {
            while true {
                if let last = lastLineFeed, pending.count >= input.pieceBytes || atEnd {
                    return takeLines(through: last)
                }
                if atEnd {
                    guard !pending.isEmpty else { return nil }
                    return takeLines(through: pending.count - 1)
                }
                // A line that has outgrown the limit is measured, not held. Over by more than a
                // byte-order mark and a CR could make it, it is over whatever its line ending.
                if lastLineFeed == nil, pending.count > input.maxRecordBytes + 4 {
                    return try skipOversized()
                }
                try readMore()
            }
        }

        private mutating func takeLines(through last: Int) -> BatchInputPiece {
            let bytes = Array(pending[...last])
            pending.removeSubrange(...last)
            lastLineFeed = pending.lastIndex(of: 0x0A)
            var lines = ByteScan.count(of: 0x0A, in: bytes.span)
            if bytes.last != 0x0A { lines += 1 }
            digest.add(bytes)
            let piece = BatchLines(file: position.file, firstLine: position.line, firstOffset: pendingOffset, bytes: bytes, endDigest: digest)
            pendingOffset += bytes.count
            position.line += lines
            position.offset = pendingOffset
            return .lines(piece)
        }

        /// Reads on to the end of an oversized line, which begins `pending`, holding only its
        /// first bytes.
        private mutating func skipOversized() throws -> BatchInputPiece {
            let offset = pendingOffset
            let keep = RecordPrefix.keptBytes + 4
            var prefix: [UInt8] = []
            var rawLength = 0
            var lastByte: UInt8?
            var endsWithLineFeed = false
            while true {
                let lineFeed = pending.firstIndex(of: 0x0A)
                let part = pending[..<(lineFeed ?? pending.count)]
                if prefix.count < keep { prefix += part.prefix(keep - prefix.count) }
                rawLength += part.count
                lastByte = part.last ?? lastByte
                digest.add(part)
                if let lineFeed {
                    digest.add(UInt8(0x0A))
                    pending.removeSubrange(...lineFeed)
                    endsWithLineFeed = true
                    break
                }
                pending = []
                if atEnd { break }
                try readMore()
                if atEnd && pending.isEmpty { break }
            }
            // The record as convertLine would see it: no CR before the LF, no byte-order mark.
            var length = rawLength
            if endsWithLineFeed && lastByte == 0x0D {
                length -= 1
                if prefix.count > length { prefix.removeLast(prefix.count - length) }
            }
            if offset == 0, prefix.starts(with: [0xEF, 0xBB, 0xBF]) {
                prefix.removeFirst(3)
                length -= 3
            }
            lastLineFeed = pending.lastIndex(of: 0x0A)
            pendingOffset = offset + rawLength + (endsWithLineFeed ? 1 : 0)
            position.offset = pendingOffset
            let line = OversizedLine(file: position.file, line: position.line, offset: offset, length: length, prefix: prefix, nextOffset: pendingOffset,
                                     endDigest: digest)
            position.line += 1
            return .oversized(line)
        }
    }
}
