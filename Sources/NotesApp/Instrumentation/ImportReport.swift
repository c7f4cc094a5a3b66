import Foundation
import NotesCore

/// For acceptance tests: with NOTULA_REPORT_IMPORT=1 the app prints `notula-import IMPORTED
/// SKIPPED PARTLY ALREADY` when an import ends (ALREADY: skipped as imported before, counted in SKIPPED), so a test waits on it, never on a fixed sleep.
enum ImportReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_IMPORT"] != nil

    static func finished(_ report: NoteImport.Report) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-import \(report.imported.count) \(report.skipped.count) \(report.withProblems.count) \(report.items.filter { $0.outcome == .alreadyImported }.count)")
    }
}
