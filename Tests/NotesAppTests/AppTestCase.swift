import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// Base for tests of Notula's real widgets under Xvfb.
class AppTestCase: XCTestCase {
    override func setUpWithError() throws {
        guard GtkRuntime.initialize() else { throw XCTSkip("no display: run under scripts/with-display.sh") }
    }

    @discardableResult
    func spin(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        MainLoopBridge.run(until: condition, timeout: timeout)
    }

    /// A shown window holding an editor pane, its error chain ending in a `PresentingResponder`
    /// (real dialogs); destroyed when the test ends.
    func makeEditorWindow() -> (top: PresentingResponder, editor: EditorView, openNote: OpenNoteController) {
        let window = Window()
        let top = PresentingResponder(parent: window)
        window.owner = top
        let editor = EditorView()
        let openNote = OpenNoteController(editor: editor, status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()))
        window.child = openNote.pane
        window.present()
        addTeardownBlock { window.destroy() }
        return (top, editor, openNote)
    }

    func makeFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notula-apptest-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
