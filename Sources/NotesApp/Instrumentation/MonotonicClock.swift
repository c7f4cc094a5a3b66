import Foundation

/// CLOCK_MONOTONIC in seconds: the clock the benchmarks read too (Python's time.monotonic()).
nonisolated enum MonotonicClock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
