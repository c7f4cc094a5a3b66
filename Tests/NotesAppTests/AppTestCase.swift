import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// Base for tests of Notula's real widgets under Xvfb.
class AppTestCase: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated override func setUpWithError() throws {
        _ = Self.personalWords
        try MainActor.assumeIsolated {
            guard GtkRuntime.initialize() else { throw cannotRun("no display: run under scripts/with-display.sh") }
        }
    }

    /// Words an editor's spelling adds to the personal word list go to a folder of this run,
    /// never the user's (set before any editor loads a dictionary).
    private nonisolated static let personalWords: Void = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-enchant-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("ENCHANT_CONFIG_DIR", folder.path, 1)
    }()

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
        let openNote = OpenNoteController(editor: editor, status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()), history: NoteHistory(folder: makeFolder()))
        window.child = openNote.pane
        window.present()
        addTeardownBlock { window.destroy() }
        return (top, editor, openNote)
    }

    /// A library folder holding `files` (name → text), each 100 s older than the one before
    /// in name order (so the list's order is the names').
    func makeNotesFolder(_ files: [String: String]) throws -> URL {
        let folder = makeFolder().appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var age = 0.0
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            age += 100
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        return folder
    }

    /// What `makeLibraryWindow` builds.
    struct LibraryWindow {
        let window: Window
        let top: PresentingResponder
        let list: NotesListView
        let openNote: OpenNoteController
        let controller: NotesController
        let history: NoteHistory
    }

    /// A shown window with the sidebar and the editor pane over the library at `folder` (a
    /// history and drafts of its own, errors presented as real dialogs); it and the windows
    /// it opened are destroyed when the test ends.
    func makeLibraryWindow(folder: URL) -> LibraryWindow {
        let window = Window()
        let top = PresentingResponder(parent: window)
        window.owner = top
        let list = NotesListView()
        let history = NoteHistory(folder: makeFolder())
        let openNote = OpenNoteController(editor: EditorView(), status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()), history: history)
        openNote.window = window
        let controller = NotesController(library: NoteLibrary(folder: folder), list: list, openNote: openNote, toast: ToastView())
        let panes = Box(.horizontal)
        panes.append(controller.sidebar)
        panes.append(openNote.pane)
        window.child = panes
        window.present()
        addTeardownBlock {
            openNote.conflictWindow?.close()
            openNote.historyWindow?.close()
            openNote.abandon()  // not left among the open documents a later test's move would hold
            window.destroy()
        }
        return LibraryWindow(window: window, top: top, list: list, openNote: openNote, controller: controller, history: history)
    }

    func makeFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notula-apptest-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
