import Foundation
import NotesCore

/// For acceptance tests and `make bench`: with NOTULA_REPORT_BULK=1 the app prints, when an
/// action on several notes (or its Undo) is done and the index has read the notes,
/// `notula-bulk-done action=move done=N failed=N unchanged=N cancelled=false ms=N` (ms: from the
/// action's start), so a test waits on the app, not on a pause.
enum BulkReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_BULK"] != nil

    static func finished(_ action: NoteBatch.Action, _ outcome: NoteBatch.Outcome, startedAt: UInt64) {
        guard isOn else { return }
        let name: String
        switch action {
        case .move: name = "move"
        case .addTag: name = "add-tag"
        case .removeTag: name = "remove-tag"
        case .trash: name = "trash"
        }
        line(name, outcome, startedAt: startedAt)
    }

    static func undone(_ outcome: NoteBatch.Outcome, startedAt: UInt64) {
        guard isOn else { return }
        line("undo", outcome, startedAt: startedAt)
    }

    /// The Trash's own: `action=restore` (several restored) and its `undo`.
    static func finished(_ outcome: NoteBatch.Outcome, action: String) {
        guard isOn else { return }
        line(action, outcome, startedAt: DispatchTime.now().uptimeNanoseconds)
    }

    private static func line(_ action: String, _ outcome: NoteBatch.Outcome, startedAt: UInt64) {
        let ms = (DispatchTime.now().uptimeNanoseconds - startedAt) / 1_000_000
        BenchmarkOutput.line("notula-bulk-done action=\(action) done=\(outcome.done.count) failed=\(outcome.failures.count) "
                             + "unchanged=\(outcome.unchanged.count) cancelled=\(outcome.cancelled) ms=\(ms)")
    }
}
