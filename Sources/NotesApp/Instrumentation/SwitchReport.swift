import Foundation

/// For `make bench`: with NOTULA_BENCH_SWITCHES=N (and NOTULA_REPORT_SEARCH, which says when
/// the library is ready), the app measures what switching notes costs. Once the index is
/// ready it first sits idle for as long as the switches will take (the baseline: timers,
/// the stall monitor, background indexing), then selects the next N notes of the list one
/// by one, 300 ms apart, as a user clicking down the list would. It prints
/// `notula-switch <t> <ms>` per switch (selection to the text in the editor) and at the end
/// `notula-switch-cpu <idle ms> <switching ms> <N>`: the process's CPU time (every thread,
/// drawing included) over each period, so the benchmark divides the difference by N.
enum SwitchReport {
    static let count = ProcessInfo.processInfo.environment["NOTULA_BENCH_SWITCHES"].flatMap { Int($0) } ?? 0
    private static let interval = 0.3

    /// Selects the notes after the first `count` times; `select(id, done)` opens one and calls
    /// `done` once its text is shown.
    static func runIfRequested(ids: [String], select: @escaping @MainActor (String, @escaping @MainActor () -> Void) -> Void) {
        guard count > 0, ids.count > count else { return }
        let period = interval * Double(count)
        DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
            let idleStart = processCPU()
            DispatchQueue.main.asyncAfter(deadline: .now() + period) {
                let switchStart = processCPU()
                let idle = switchStart - idleStart
                for step in 1...count {
                    DispatchQueue.main.asyncAfter(deadline: .now() + interval * Double(step - 1)) {
                        let started = MonotonicClock.now()
                        select(ids[step]) {
                            BenchmarkOutput.line("notula-switch \(MonotonicClock.now()) \((MonotonicClock.now() - started) * 1000)")
                        }
                    }
                }
                DispatchQueue.main.asyncAfter(deadline: .now() + period) {
                    BenchmarkOutput.line("notula-switch-cpu \(idle) \(processCPU() - switchStart) \(count)")
                }
            }
        }
    }

    /// User + system CPU of the whole process, in milliseconds.
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }
}
