import Foundation

/// For acceptance tests: with NOTULA_REPORT_DRAG=1 the app prints `notula-drag-begin ID` when
/// GTK starts dragging a note's row, and `notula-drag-over PATH` when the drag comes over a
/// notebook (the drop there is then taken), so a test drives the pointer on once the app got
/// there instead of hoping a fixed pause was long enough on a loaded machine.
enum DragReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_DRAG"] != nil

    static func began(_ id: String?) {
        guard isOn, let id else { return }
        BenchmarkOutput.line("notula-drag-begin \(id)")
    }

    static func over(_ notebook: String) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-drag-over \(notebook)")
    }
}
