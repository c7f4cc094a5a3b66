import Foundation

/// For `make bench`: with NOTULA_REPORT_MAPPED set, the app prints when its window maps, on the
/// monotonic clock the benchmark also reads, so exec-to-map is measured exactly.
enum StartupReport {
    static func windowMapped() {
        print("notula-window-mapped \(MonotonicClock.now())")
        fflush(stdout)
    }
}
