import Foundation

/// For acceptance tests: with NOTULA_REPORT_EXPORT=1 the app prints `notula-export KIND PAGES
/// PATH` when a print or an export ends (`notula-export-failed KIND` when it failed), so a test
/// waits on it, never on a fixed sleep.
enum ExportReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_EXPORT"] != nil

    static func done(_ kind: String, pages: Int, path: String?) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-export \(kind) \(pages) \(path ?? "-")")
    }

    static func failed(_ kind: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-export-failed \(kind)")
    }
}
