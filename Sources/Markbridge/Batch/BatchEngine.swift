import Foundation

/// One document of a batch: its bytes and an identifier the results carry back.
public struct BatchRecord: Sendable, Hashable {
    public var id: String
    public var bytes: [UInt8]

    public init(id: String, bytes: [UInt8]) {
        self.id = id
        self.bytes = bytes
    }
}

/// What became of one record: its output and diagnostics, or the error that stopped it.
public struct BatchResult: Sendable {
    public var id: String
    public var outcome: Result<Diagnosed<[UInt8]>, ConversionError>

    public init(id: String, outcome: Result<Diagnosed<[UInt8]>, ConversionError>) {
        self.id = id
        self.outcome = outcome
    }
}

/// Converts many records with bounded concurrency, yielding results in input order: a service's
/// migration loop, on the same ordered window as `markbridge batch`. A value, safe to share.
///
/// `window` records are converted at once (one per core by default); a record is taken from
/// the source only when one of them is done, so memory is bounded by the window and the
/// largest records, not by the length of the stream. A record that fails is a result like
/// any other: the batch goes on.
///
/// Cancelling the task that reads the results stops the batch within one window: the
/// conversions in flight stop at their next check (``ConversionDeadline``), no more records are
/// taken, and the iteration throws `CancellationError`. Breaking out of the loop does the same.
public struct BatchEngine: Sendable {
    public var converter: Converter
    public let source: Format
    public let target: Format
    public var window: Int

    /// Throws `unknown-format` when `source` cannot be read or `target` cannot be written, before
    /// any record is taken.
    public init(converter: Converter = Converter(), from source: Format, to target: Format,
                window: Int = ProcessInfo.processInfo.activeProcessorCount) throws(ConversionError) {
        guard source.reader != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(source.name)' cannot be read")
        }
        guard target.writer != nil else {
            throw ConversionError(code: "unknown-format", message: "format '\(target.name)' cannot be written")
        }
        self.converter = converter
        self.source = source
        self.target = target
        self.window = Swift.max(1, window)
    }

    /// One record, converted on the calling thread.
    public func convert(_ record: BatchRecord) -> BatchResult {
        do throws(ConversionError) {
            return BatchResult(id: record.id, outcome: .success(try converter.convert(record.bytes, from: source, to: target)))
        } catch {
            return BatchResult(id: record.id, outcome: .failure(error))
        }
    }

    /// The results for `records`, in their order, `window` converted at a time.
    public func results<Records: AsyncSequence & Sendable>(for records: Records) -> BatchResults<Records>
    where Records.Element == BatchRecord {
        BatchResults(map: OrderedConcurrentMap(records, window: window) { [self] record in convert(record) })
    }
}

/// The results of ``BatchEngine/results(for:)``, an asynchronous sequence in input order.
public struct BatchResults<Records: AsyncSequence & Sendable>: AsyncSequence, Sendable where Records.Element == BatchRecord {
    public typealias Element = BatchResult
    let map: OrderedConcurrentMap<Records, BatchResult>

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: map.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: OrderedConcurrentMap<Records, BatchResult>.Iterator

        public mutating func next() async throws -> BatchResult? {
            try await base.next()
        }
    }
}
