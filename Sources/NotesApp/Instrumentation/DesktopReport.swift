import Foundation

/// For acceptance tests: with NOTULA_REPORT_DESKTOP=1 the app prints what it does for the
/// desktop as it happens — `notula-shell-search METHOD N MS` (results answered, and how long after the call reached the main loop), `notula-
/// service-started`, `notula-restored ID CURSOR` (the note and cursor offset a start
/// restored), `notula-zoom PERCENT`, `notula-note-window ID` (a note window opened),
/// `notula-quick-note shown`, `… mapped SECONDS` (monotonic) and `… made PATH` (the Quick Note window) — so a test
/// waits on what the app did, never on a fixed sleep.
enum DesktopReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_DESKTOP"] != nil

    /// A provider call answered with `count` results, `milliseconds` after it reached the main loop.
    static func shellSearch(_ method: String, count: Int, milliseconds: Double) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-shell-search \(method) \(count) \(milliseconds)")
    }

    static func serviceStarted() {
        guard isOn else { return }
        BenchmarkOutput.line("notula-service-started")
    }

    static func restored(_ id: String, cursor: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-restored \(cursor) \(id)")
    }

    static func zoom(_ percent: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-zoom \(percent)")
    }

    static func noteWindow(_ path: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-note-window \(path)")
    }

    static func quickNote(_ event: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-quick-note \(event)")
    }
}
