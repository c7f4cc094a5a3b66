import Foundation

/// For `make bench`: with NOTULA_REPORT_SEARCH set, the app prints how long each search took
/// (matching plus showing the result) and when the index is ready.
enum SearchReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_SEARCH"] != nil

    static func indexReady(notes: Int) {
        guard isOn else { return }
        print("notula-search-index-ready \(MonotonicClock.now()) \(notes)")
        fflush(stdout)
    }

    static func searched(milliseconds: Double, matches: Int) {
        guard isOn else { return }
        print("notula-search \(MonotonicClock.now()) \(milliseconds) \(matches)")
        fflush(stdout)
    }
}
