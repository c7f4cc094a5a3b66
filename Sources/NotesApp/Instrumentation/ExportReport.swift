import Foundation

/// For acceptance tests: with NOTULA_REPORT_EXPORT=1 the app prints `notula-export KIND PAGES
/// PATH` when a print or an export ends (`notula-export-failed KIND` when it failed), so a test
/// waits on it, never on a fixed sleep. For `make bench` (scripts/bench_export.py): with
/// NOTULA_BENCH_EXPORT_PDF=PATH too, 3 s after the main window is made, the note it shows is
/// exported as a PDF to PATH without a chooser (`notula-export-started` then).
enum ExportReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_EXPORT"] != nil
    private static let benchPDF = ProcessInfo.processInfo.environment["NOTULA_BENCH_EXPORT_PDF"]

    static func runBenchExport(_ export: @escaping @MainActor (URL) -> Void) {
        guard isOn, let path = benchPDF else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) {
            BenchmarkOutput.line("notula-export-started \(MonotonicClock.now())")
            export(URL(fileURLWithPath: path))
        }
    }

    static func done(_ kind: String, pages: Int, path: String?) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-export \(kind) \(pages) \(path ?? "-")")
    }

    static func failed(_ kind: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-export-failed \(kind)")
    }
}
