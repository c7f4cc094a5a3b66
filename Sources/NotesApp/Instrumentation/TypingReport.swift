import Foundation

/// For acceptance tests: with NOTULA_REPORT_TYPING=1 the app prints `notula-typed CHARACTERS
/// SECONDS` each time the note in an editor changes — its length then and CLOCK_MONOTONIC (the
/// test's clock too) — so a test that kills the app while typing knows what the app held a
/// second before, however far behind the keys a loaded machine made it.
enum TypingReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_TYPING"] != nil

    static func edited(characters: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-typed \(characters) \(MonotonicClock.now())")
    }
}
