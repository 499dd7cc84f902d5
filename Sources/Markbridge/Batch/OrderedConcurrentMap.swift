/// Maps an asynchronous sequence with a transform run on up to `window` elements at once, and
/// yields the results in the order of the elements: what the batch engine and command are
/// built on. Pull-driven: an element is taken from the source only when a place in the window
/// is free, so memory is bounded by the window, whatever the length of the source.
package struct OrderedConcurrentMap<Source: AsyncSequence & Sendable, Output: Sendable>: AsyncSequence, Sendable
where Source.Element: Sendable {
    package typealias Element = Output

    let source: Source
    let window: Int
    let transform: @Sendable (Source.Element) -> Output

    package init(_ source: Source, window: Int, transform: @escaping @Sendable (Source.Element) -> Output) {
        self.source = source
        self.window = Swift.max(1, window)
        self.transform = transform
    }

    package func makeAsyncIterator() -> Iterator {
        Iterator(source: source.makeAsyncIterator(), window: window, transform: transform)
    }

    package struct Iterator: AsyncIteratorProtocol {
        var source: Source.AsyncIterator
        let window: Int
        let transform: @Sendable (Source.Element) -> Output
        /// The elements in flight, oldest first (`head` is the next to yield).
        let flight = Flight()
        var head = 0
        var sourceEnded = false

        /// The next output in order. When the consuming task is cancelled, the elements in
        /// flight are cancelled too (a conversion stops at its next check, see
        /// ``ConversionDeadline``), no more are taken from the source, and this throws
        /// `CancellationError`; an iterator dropped part way cancels those in flight the same way.
        package mutating func next() async throws -> Output? {
            if Task.isCancelled {
                flight.cancelAll()
                throw CancellationError()
            }
            while !sourceEnded && flight.tasks.count - head < window {
                guard let element = try await source.next() else {
                    sourceEnded = true
                    break
                }
                let transform = self.transform
                // Detached: the caller may be on the main actor, which would run them one at a time.
                flight.tasks.append(Task.detached { transform(element) })
            }
            guard head < flight.tasks.count else { return nil }
            let task = flight.tasks[head]
            let pending = Array(flight.tasks[head...])
            let output = await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                for task in pending { task.cancel() }
            }
            if Task.isCancelled {
                flight.cancelAll()
                throw CancellationError()
            }
            head += 1
            // Drop the finished tasks now and then, so the array stays as small as the window.
            if head >= 64 && head * 2 >= flight.tasks.count {
                flight.tasks.removeSubrange(..<head)
                head = 0
            }
            return output
        }
    }

    /// The tasks an iterator started, cancelled when it is dropped: a consumer that stops
    /// reading leaves nothing converting.
    final class Flight {
        var tasks: [Task<Output, Never>] = []

        func cancelAll() {
            for task in tasks { task.cancel() }
        }

        deinit { cancelAll() }
    }
}
