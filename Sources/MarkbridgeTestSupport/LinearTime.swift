import Foundation

/// Linear time by ratio, never by absolute time: the best of three runs on a small and a large
/// input. At n and 2n a quadratic step makes the ratio near 4 and a linear one near 2; at n and
/// 4n, 16 and 4. Time is the calling thread's CPU time, not the wall clock: suites run side by
/// side (a batch test keeps both cores busy for seconds), and another thread's work would be
/// counted as this one's. A few tries remain for what CPU time does not hide (caches).
public enum LinearTime {
    /// The bound on the time ratio for four times the input: linear is 4x, quadratic 16x. Debug
    /// builds beside other suites on two cores reach 6.0 to 6.9x on shapes that are well under
    /// 4x alone and in release (cmark's emphasis and strike delimiters), so the line is 8x.
    public static let fourTimesBound = 8.0

    /// The ratios measured, stopping at the first under `limit`.
    /// `runs` is how many times each input is run for its best time (fewer for large inputs).
    public static func ratios(small: [UInt8], large: [UInt8], limit: Double = 2.5, tries: Int = 3, runs: Int = 3, run: ([UInt8]) -> Void) -> [Double] {
        func seconds(_ input: [UInt8]) -> Double {
            var best = Double.infinity
            for _ in 0..<max(runs, 1) {
                let start = threadSeconds()
                run(input)
                best = min(best, threadSeconds() - start)
            }
            return best
        }
        var ratios: [Double] = []
        for _ in 0..<tries {
            let ratio = seconds(large) / max(seconds(small), 1e-6)
            ratios.append(ratio)
            if ratio < limit { break }
        }
        return ratios
    }

    /// The calling thread's CPU time, in seconds.
    public static func threadSeconds() -> Double {
        var time = timespec()
        unsafe clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
