import Foundation
import Gtk

/// For `make bench` (scripts/bench_lists.py): with NOTULA_REPORT_LISTS set, the app prints when
/// the notebook sidebar and Browse Versions have painted their lists, on the monotonic clock the
/// benchmark also reads:
/// - `notula-notebooks-listed <seconds> <count>` when a listing hands the sidebar its notebooks,
/// - `notula-notebooks-shown <seconds> <count>` after the first frame that shows them,
/// - `notula-versions-shown <seconds> <count>` after Browse Versions' first frame with its list.
enum ListsReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_LISTS"] != nil
    /// Only the latest request of each list prints (a listing may come again before a frame).
    private static var notebooksTicket = 0
    private static var versionsTicket = 0

    static func notebooksListed(count: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-notebooks-listed \(MonotonicClock.now()) \(count)")
    }

    /// The sidebar's list `widget` shows `count` notebooks from its next frame.
    static func notebooksShown(count: Int, in widget: Widget) {
        guard isOn else { return }
        notebooksTicket += 1
        let ticket = notebooksTicket
        afterNextFrame(of: widget, immediately: count == 0) {
            guard ticket == notebooksTicket else { return }
            BenchmarkOutput.line("notula-notebooks-shown \(MonotonicClock.now()) \(count)")
        }
    }

    /// Browse Versions' list `widget` shows `count` rows (versions and headings) from its next frame.
    static func versionsShown(count: Int, in widget: Widget) {
        guard isOn else { return }
        versionsTicket += 1
        let ticket = versionsTicket
        afterNextFrame(of: widget, immediately: false) {
            guard ticket == versionsTicket else { return }
            BenchmarkOutput.line("notula-versions-shown \(MonotonicClock.now()) \(count)")
        }
    }

    /// After the next frame painted once `widget` is on screen (a list not mapped yet waits for
    /// its window); `immediately`: now (an empty list is never mapped).
    private static func afterNextFrame(of widget: Widget, immediately: Bool, _ handler: @escaping () -> Void) {
        if immediately { return handler() }
        if widget.isMapped { return widget.onNextFramePainted(handler) }
        var connection: SignalConnection?
        connection = widget.onMap { mapped in
            if let connection { mapped.disconnect(connection) }
            connection = nil
            mapped.onNextFramePainted(handler)
        }
    }
}
