import Foundation

/// For `make bench`: with NOTULA_REPORT_MAPPED set, the app prints when its window maps and
/// when the list first shows notes, on the monotonic clock the benchmark also reads, so
/// exec-to-map and exec-to-rows are measured exactly. (The list is complete at
/// `notula-search-index-ready`, see SearchReport.)
enum StartupReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_MAPPED"] != nil
    private static var rowsShown = false

    static func windowMapped() {
        BenchmarkOutput.line("notula-window-mapped \(MonotonicClock.now())")
    }

    /// The list shows `count` notes; only the first time it shows any is printed.
    static func listShown(count: Int) {
        guard isOn, count > 0, !rowsShown else { return }
        rowsShown = true
        BenchmarkOutput.line("notula-list-shown \(MonotonicClock.now()) \(count)")
    }
}
