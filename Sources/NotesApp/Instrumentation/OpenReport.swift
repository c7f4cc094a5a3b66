import Foundation
import Gtk

/// For `make bench`: with NOTULA_REPORT_OPEN=1 the app prints, for each note it opens,
/// `notula-open <ms to text shown> <ms to first frame painted> <characters>`, counted from the
/// moment the note was asked for (a click on its row), so the benchmark reads how long a long
/// Markdown note takes to appear, styled.
enum OpenReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_OPEN"] != nil
    private static var started: Double?

    static func opening() {
        guard isOn else { return }
        started = MonotonicClock.now()
    }

    /// The text is in the editor: wait for the frame that paints it.
    static func shown(in widget: Widget, characters: Int) {
        guard isOn, let started else { return }
        self.started = nil
        let shownAt = MonotonicClock.now()
        widget.onNextFramePainted {
            let painted = MonotonicClock.now()
            BenchmarkOutput.line("notula-open \((shownAt - started) * 1000) \((painted - started) * 1000) \(characters)")
        }
    }
}
