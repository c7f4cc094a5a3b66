import Foundation
import Gtk

/// For `make bench`: with NOTULA_REPORT_STALLS set, a 1 ms timeout on the main loop notes how
/// long the loop was blocked between two ticks and prints every stall over 4 ms as
/// `notula-stall <monotonic seconds at its end> <milliseconds>`, so the benchmark can pick out
/// the stalls that happened while it typed.
final class StallMonitor {
    private var timeout: RepeatingTimeout?
    private var last = MonotonicClock.now()

    static func startIfRequested() -> StallMonitor? {
        guard ProcessInfo.processInfo.environment["NOTULA_REPORT_STALLS"] != nil else { return nil }
        let monitor = StallMonitor()
        monitor.timeout = RepeatingTimeout(milliseconds: 1) { [weak monitor] in monitor?.tick() }
        return monitor
    }

    private func tick() {
        let now = MonotonicClock.now()
        let stall = (now - last) * 1000 - 1
        last = now
        if stall > 4 {
            BenchmarkOutput.line("notula-stall \(now) \(String(format: "%.1f", stall))")
        }
    }
}
