import Foundation
import Synchronization

/// `--timeout-per-record`: a conversion run on a thread of its own, waited for at most so long.
///
/// A conversion cannot be stopped part way (readers and writers run to the end of their input),
/// but each is linear in its input and bounded by the limits, so one that overruns finishes in
/// the background and its result is dropped; the record is a dead letter and the batch goes on.
/// At most `maxOverrunning` overrunning conversions run at once; past that, a new record waits
/// for one to end before it starts, so a run of slow records cannot take every core and memory.
enum RecordDeadline {
    static let maxOverrunning = 8

    private static let overrunning = Atomic<Int>(0)

    /// `work`'s result, or nil when it took longer than `seconds`.
    static func run<Value: Sendable>(within seconds: Double, _ work: @escaping @Sendable () -> Value) -> Value? {
        while overrunning.load(ordering: .relaxed) >= maxOverrunning { usleep(1_000) }
        let result = Mutex<Value?>(nil)
        let finished = DispatchSemaphore(value: 0)
        // Who gets there first: the conversion finishing (running to done), or the wait giving up
        // (running to abandoned). The loser of the exchange knows what the winner did.
        let state = Atomic<Int>(State.running)
        let thread = Thread {
            let value = work()
            result.withLock { $0 = value }
            if !state.compareExchange(expected: State.running, desired: State.done, ordering: .acquiringAndReleasing).exchanged {
                overrunning.subtract(1, ordering: .relaxed)
            }
            finished.signal()
        }
        // The readers' nesting limits are sized for a thread with a full-size stack.
        thread.stackSize = 8 << 20
        thread.start()
        _ = finished.wait(timeout: .now() + seconds)
        if state.compareExchange(expected: State.running, desired: State.abandoned, ordering: .acquiringAndReleasing).exchanged {
            overrunning.add(1, ordering: .relaxed)
            return nil
        }
        return result.withLock { $0 }
    }

    private enum State {
        static let running = 0, done = 1, abandoned = 2
    }
}
