import Foundation
import Gtk

/// For `make bench`: with NOTULA_REPORT_SEARCH set, the app prints how long each search took
/// (matching plus showing the result), when the index is ready (`notula-search-index-ready`:
/// the list is complete) and when every note's text is in (`notula-search-indexed`). With NOTULA_BENCH_QUERY
/// too, 3 s after the index is ready (the benchmark reads the memory at rest first) it types
/// that query into the search field one character at a time, 200 ms apart, then clears it:
/// the cost of every keystroke.
///
/// Per search it prints `notula-search <t> <ms> <matches>` (from "search-changed" to the list
/// updated) and then `notula-search-frame <t> <ms> <matches> <paced ms> <key|refresh>`: up to
/// the first frame painted after the list changed (the frame clock's "after-paint"), counted
/// from the first search for that text still unanswered (a keystroke, or the list searching
/// again because notes changed). `paced`: how much of it the answer waited for the frame clock,
/// which begins frames one refresh interval apart (while an animation ticks — the overlay
/// scrollbar fades for 1 s, 2 s after the list last scrolled or grew — a change waits for the
/// next tick, up to 16.7 ms, as it waits for the display's refresh on a real screen). A search
/// whose text changed before it was answered — the next keystroke came first — is not dropped
/// silently: `notula-search-interrupted <t> <ms waited> <key|refresh>`.
enum SearchReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_SEARCH"] != nil
    static let benchQuery = ProcessInfo.processInfo.environment["NOTULA_BENCH_QUERY"]
    /// The search not answered yet: since when, for what, and why it runs.
    private static var waiting: (started: Double, query: String, kind: String)?

    /// Types `benchQuery` into the field (`type` adds a character at its end), then empties
    /// it (`clear`).
    static func runBenchQuery(type: @escaping @MainActor (String) -> Void, clear: @escaping @MainActor () -> Void) {
        guard isOn, let query = benchQuery else { return }
        for (index, character) in query.enumerated() {
            DispatchQueue.main.asyncAfter(deadline: .now() + 3 + 0.2 * Double(index)) { type(String(character)) }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 3 + 0.2 * Double(query.count)) { clear() }
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

    /// A search for `query` starts: typed (`refresh` false) or asked again after notes changed.
    static func began(query: String, refresh: Bool) {
        guard isOn else { return }
        let now = MonotonicClock.now()
        if let waiting {
            if waiting.query == query {
                // The same text asked again: whoever waits for it still waits (a keystroke
                // whose text a re-search started first is still a keystroke).
                if !refresh { self.waiting?.kind = "key" }
                return
            }
            BenchmarkOutput.line("notula-search-interrupted \(now) \((now - waiting.started) * 1000) \(waiting.kind)")
        }
        waiting = (now, query, refresh ? "refresh" : "key")
    }

    /// The list shows the answer for `query`; `widget` is in the window whose next frame
    /// shows it.
    static func shown(query: String, milliseconds: Double, matches: Int, in widget: Widget) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-search \(MonotonicClock.now()) \(milliseconds) \(matches)")
        guard let answered = waiting, answered.query == query else { return }
        waiting = nil
        let paced = max(0, (widget.nextFrameDue ?? 0) - MonotonicClock.now())
        widget.onNextFramePainted {
            let painted = MonotonicClock.now()
            BenchmarkOutput.line("notula-search-frame \(painted) \((painted - answered.started) * 1000) \(matches) \(min(paced, painted - answered.started) * 1000) \(answered.kind)")
        }
    }
}
