import Foundation

/// Linear time by ratio, never by absolute time: the best of three runs on a small and a large
/// input. At n and 2n a quadratic step makes the ratio near 4 and a linear one near 2; at n and
/// 4n, 16 and 4. Tests that run beside other suites get a few tries, since a busy machine can
/// disturb one measurement.
public enum LinearTime {
    /// The ratios measured, stopping at the first under `limit`.
    public static func ratios(small: [UInt8], large: [UInt8], limit: Double = 2.5, tries: Int = 3, run: ([UInt8]) -> Void) -> [Double] {
        func seconds(_ input: [UInt8]) -> Double {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                run(input)
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
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
}
