import Foundation
import Gtk
import NotesCore
import Synchronization

/// For `make bench`: with NOTULA_REPORT_STALLS set, a 1 ms timeout on the main loop notes how
/// long the loop was blocked between two ticks and prints every stall over 4 ms as
/// `notula-stall <monotonic seconds at its end> <milliseconds>`, so the benchmark can pick out
/// the stalls that happened while it typed. A watching thread names what the main thread was
/// doing: once a stall passes 20 ms it takes the main thread's stack (`StackSampler`) and
/// prints `notula-stall-stack <monotonic seconds> <frames…>` (innermost first, `file+0xoffset`;
/// `scripts/bench_stacks.py` names them).
final class StallMonitor {
    private var timeout: RepeatingTimeout?
    private let watch = Watch()

    static func startIfRequested() -> StallMonitor? {
        guard ProcessInfo.processInfo.environment["NOTULA_REPORT_STALLS"] != nil else { return nil }
        let monitor = StallMonitor()
        monitor.timeout = RepeatingTimeout(milliseconds: 1) { [weak monitor] in monitor?.tick() }
        if let sampler = StackSampler() { monitor.watch.start(sampling: sampler) }
        return monitor
    }

    private func tick() {
        let now = MonotonicClock.now()
        let stall = (now - watch.lastTick) * 1000 - 1
        watch.ticked(at: now)
        if stall > 4 {
            BenchmarkOutput.line("notula-stall \(now) \(String(format: "%.1f", stall))")
        }
    }

    /// The last tick, shared with the watching thread.
    nonisolated private final class Watch: Sendable {
        private let tickBits = Atomic<UInt64>(MonotonicClock.now().bitPattern)
        /// The tick whose stall was sampled already.
        private let sampledBits = Atomic<UInt64>(0)
        static let sampleAfter = 0.020

        var lastTick: Double { Double(bitPattern: tickBits.load(ordering: .acquiring)) }

        func ticked(at time: Double) { tickBits.store(time.bitPattern, ordering: .releasing) }

        func start(sampling sampler: StackSampler) {
            let thread = Thread { [self] in
                while true {
                    usleep(2_000)
                    let tick = tickBits.load(ordering: .acquiring)
                    guard MonotonicClock.now() - Double(bitPattern: tick) > Self.sampleAfter,
                          sampledBits.load(ordering: .relaxed) != tick else { continue }
                    sampledBits.store(tick, ordering: .relaxed)
                    guard let frames = sampler.sample() else { continue }
                    BenchmarkOutput.line("notula-stall-stack \(MonotonicClock.now()) " + frames.joined(separator: " "))
                }
            }
            thread.name = "notula-stall-watch"
            thread.start()
        }
    }
}
