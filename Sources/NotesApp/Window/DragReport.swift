import Foundation

/// For acceptance tests: with NOTULA_REPORT_DRAG=1 the app prints `notula-drag-begin ID` when
/// GTK starts dragging a note's row, so a test drives the pointer on once the drag is under way
/// instead of hoping a fixed pause was long enough on a loaded machine.
enum DragReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_DRAG"] != nil

    static func began(_ id: String?) {
        guard isOn, let id else { return }
        BenchmarkOutput.line("notula-drag-begin \(id)")
    }
}
