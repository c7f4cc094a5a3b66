import Foundation

/// For acceptance tests: with NOTULA_REPORT_PASTE=1 the app prints `notula-paste KIND` when a
/// paste into the editor ended: `text`, `picture` (its copy into the library started) or
/// `refused` (nothing pasted), so a test waits for the paste instead of sleeping.
enum PasteReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_PASTE"] != nil

    static func pasted(_ kind: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-paste \(kind)")
    }
}
