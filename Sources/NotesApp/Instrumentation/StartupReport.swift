import Foundation

/// For `make bench`: with NOTULA_REPORT_MAPPED set, the app prints when its window maps and
/// when the list first shows notes, on the monotonic clock the benchmark also reads, so
/// exec-to-map and exec-to-rows are measured exactly. (The list is complete at
/// `notula-search-index-ready`, see SearchReport.) With NOTULA_REPORT_LISTED=NAME it prints
/// `notula-listed <t> <NAME>` once, when a note of that file name (or path in the library)
/// first enters the list: how long a note a sync client drops waits to be listed.
enum StartupReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_MAPPED"] != nil
    private static var rowsShown = false
    private static var awaited = ProcessInfo.processInfo.environment["NOTULA_REPORT_LISTED"].flatMap { $0.isEmpty ? nil : $0 }

    static func windowMapped() {
        BenchmarkOutput.line("notula-window-mapped \(MonotonicClock.now())")
    }

    /// The list shows `count` notes; only the first time it shows any is printed.
    static func listShown(count: Int) {
        guard isOn, count > 0, !rowsShown else { return }
        rowsShown = true
        BenchmarkOutput.line("notula-list-shown \(MonotonicClock.now()) \(count)")
    }

    /// Whether a note's listing is awaited (else the ids need not be kept for `listed`).
    static var awaitsListing: Bool { awaited != nil }

    /// Notes (ids: paths in the library) just entered or changed in the list.
    static func listed(_ ids: some Sequence<String>) {
        guard let name = awaited else { return }
        for id in ids where id == name || id.hasSuffix("/" + name) {
            awaited = nil
            BenchmarkOutput.line("notula-listed \(MonotonicClock.now()) \(name)")
            return
        }
    }
}
