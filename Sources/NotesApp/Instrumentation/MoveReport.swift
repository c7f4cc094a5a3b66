import Foundation

/// For acceptance tests: with NOTULA_REPORT_MOVE=1 the app prints, once every open note is
/// held for a move of all notes, one line per editor showing a held note —
/// `notula-move-held editable=false light=Note status: Moving. …` — read from the widgets the
/// user sees then, so a test checks the hold without racing a move that may end within a second.
enum MoveReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_MOVE"] != nil

    static func held(_ editors: [OpenNoteController]) {
        guard isOn else { return }
        for held in editors {
            BenchmarkOutput.line("notula-move-held editable=\(held.editor.isEditable) light=\(held.status.button.accessibleLabel)")
        }
    }
}
