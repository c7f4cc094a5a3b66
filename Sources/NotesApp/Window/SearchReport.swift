import Foundation

/// For `make bench`: with NOTULA_REPORT_SEARCH set, the app prints how long each search took
/// (matching plus showing the result), when the index is ready (`notula-search-index-ready`:
/// the list is complete) and when every note's text is in (`notula-search-indexed`). With NOTULA_BENCH_QUERY
/// too, 3 s after the index is ready (the benchmark reads the memory at rest first) it
/// searches for each prefix of that query in turn, 200 ms apart (as typed), then for nothing:
/// the cost of every keystroke. (Setting the field's text
/// instead empties it first, which searches for nothing each time.)
enum SearchReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_SEARCH"] != nil
    static let benchQuery = ProcessInfo.processInfo.environment["NOTULA_BENCH_QUERY"]

    /// Searches for `benchQuery` one more character at a time.
    static func runBenchQuery(_ search: @escaping @MainActor (String) -> Void) {
        guard isOn, let query = benchQuery else { return }
        let prefixes = (1...query.count).map { String(query.prefix($0)) } + [""]
        for (index, prefix) in prefixes.enumerated() {
            DispatchQueue.main.asyncAfter(deadline: .now() + 3 + 0.2 * Double(index)) { search(prefix) }
        }
    }

    static func indexReady(notes: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-search-index-ready \(MonotonicClock.now()) \(notes)")
    }

    private static var hasReportedIndexed = false

    /// Every note's full text is indexed (once per start, also when nothing was left to index).
    static func indexed(notes: Int) {
        guard isOn, !hasReportedIndexed else { return }
        hasReportedIndexed = true
        BenchmarkOutput.line("notula-search-indexed \(MonotonicClock.now()) \(notes)")
    }

    static func searched(milliseconds: Double, matches: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-search \(MonotonicClock.now()) \(milliseconds) \(matches)")
    }
}
