import Foundation

/// Wall-clock timing and memory readings from the kernel.
enum Measurement {
    static func now() -> Double {
        var spec = timespec()
        unsafe clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// CPU time of this process (user and system, all threads): what a shared machine's other
    /// processes do not inflate, unlike the wall clock.
    static func cpuNow() -> Double {
        var spec = timespec()
        unsafe clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Page faults this process has taken that needed no disk (minor faults): each a page the
    /// system zeroed and mapped, so a conversion that takes them every run pays for memory it
    /// had, gave back, and touches again.
    static func minorFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        unsafe getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        unsafe getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_minflt
    }

    /// A field of `/proc/self/status` in bytes (`VmHWM`, the peak resident set; `VmRSS`, the current).
    static func statusBytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return digits * 1024
        }
        return 0
    }

    /// Resets the kernel's peak-RSS mark to the current RSS (Linux: `5` into `clear_refs`), so the
    /// peak that follows belongs to the conversion, not to generating the corpus.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}
