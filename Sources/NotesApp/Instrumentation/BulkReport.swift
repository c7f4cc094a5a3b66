import Foundation
import Gtk
import NotesCore

/// For acceptance tests and `make bench`: with NOTULA_REPORT_BULK=1 the app prints, when an
/// action on several notes (or its Undo) is done and the index has read the notes,
/// `notula-bulk-done action=move done=N failed=N unchanged=N cancelled=false ms=N` (ms: from the
/// action's start), so a test waits on the app, not on a pause.
enum BulkReport {
    nonisolated static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_BULK"] != nil
    /// `make bench` (scripts/bench_bulk.py): once the index is complete (the list and its
    /// texts), a second later (as a user looks at the list first, and the start's own work —
    /// the first note's spelling dictionary, the links — is done), every note is selected (as
    /// Ctrl+A does) and moved into this notebook, `notula-bulk-started <t>` printed first.
    private static let benchNotebook = ProcessInfo.processInfo.environment["NOTULA_BENCH_BULK_MOVE"]
    private static var benchRan = false

    static func runBenchMove(_ move: @escaping @MainActor (String) -> Void) {
        guard isOn, let notebook = benchNotebook, !benchRan else { return }
        benchRan = true
        Timeout.once(milliseconds: 1000) {
            BenchmarkOutput.line("notula-bulk-started \(MonotonicClock.now())")
            move(notebook)
        }
    }

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

    /// The writer queue began the files, and is done with them (any thread): how the time
    /// to done divides between waiting for the queue, the files, and the index.
    nonisolated static func filesStarted(startedAt: UInt64) { phase("queue", startedAt) }
    nonisolated static func filesDone(startedAt: UInt64) { phase("files", startedAt) }

    nonisolated private static func phase(_ name: String, _ startedAt: UInt64) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-bulk-phase \(name) ms=\((DispatchTime.now().uptimeNanoseconds - startedAt) / 1_000_000)")
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
