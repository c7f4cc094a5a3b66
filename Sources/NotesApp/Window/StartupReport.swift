import Foundation

/// For `make bench`: with NOTULA_REPORT_MAPPED set, the app prints when its window maps,
/// on the CLOCK_MONOTONIC scale the benchmark also reads, so exec-to-map is measured exactly.
enum StartupReport {
    static func windowMapped() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        print("notula-window-mapped \(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)")
        fflush(stdout)
    }
}
