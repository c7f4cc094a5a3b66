import Foundation
import Gtk
import NotesCore

/// Every window of the application, as GNOME Text Editor's session owns its windows: the main
/// window (one at most), the notes' own windows and the windows opened once (Preferences,
/// About, Keyboard Shortcuts). It keeps which note windows the session reopens, and closes
/// them all when the application quits.
final class WindowRegistry {
    var main: MainWindow?
    /// Notes open in windows of their own.
    private(set) var notes: [NoteWindow] = []
    /// The Quick Note window, while open (one at most: asked again, it comes to the front).
    var quickNote: QuickNoteWindow?
    var preferences: PreferencesWindow?
    /// While About or Keyboard Shortcuts is open (both modal; closing frees them).
    weak var about: AboutDialog?
    weak var shortcuts: ShortcutsWindow?
    /// Quit was asked for: every window is closing, and the session keeps the note windows.
    private(set) var isQuitting = false
    /// The note windows of the last session are reopened with the first main window only.
    private var lastSessionTaken = false
    /// `WindowState`'s file: the note windows kept here, the main window's size and open note
    /// kept by `MainWindow`.
    let stateURL: URL

    init(stateURL: URL) {
        self.stateURL = stateURL
    }

    var isEmpty: Bool { main == nil && notes.isEmpty && quickNote == nil }

    /// Every editor open: the main window's and the note windows'.
    var editors: [EditorView] { (main.map { [$0.editor] } ?? []) + notes.map(\.editor) + (quickNote.map { [$0.editor] } ?? []) }

    /// The note window showing the file at `url`, if any.
    func noteWindow(showing url: URL) -> NoteWindow? {
        notes.first { $0.fileURL.standardizedFileURL == url.standardizedFileURL }
    }

    func add(_ noteWindow: NoteWindow) {
        notes.append(noteWindow)
        remember()
    }

    /// A note window closed: the session forgets it, unless the application is quitting.
    func remove(_ noteWindow: NoteWindow?) {
        notes.removeAll { $0 === noteWindow }
        if !isQuitting { remember() }
    }

    /// The note windows open now, kept in the session (`WindowState.noteWindows`).
    func remember() {
        var state = WindowState.load(from: stateURL)
        state.noteWindows = notes.map { noteWindow in
            let size = noteWindow.window.defaultSize
            return WindowState.NoteWindow(path: noteWindow.fileURL.path, width: size.width, height: size.height)
        }
        try? state.save(to: stateURL)
    }

    /// The note windows the last session had, for notes still there; the first time only.
    func takeLastSession() -> [WindowState.NoteWindow] {
        guard !lastSessionTaken else { return [] }
        lastSessionTaken = true
        return (WindowState.load(from: stateURL).noteWindows ?? []).filter { RegularFile.isRegular($0.path) }
    }

    /// Quitting: closes every window the normal way, so unsaved text is saved (or the user is
    /// asked) first; the session keeps which notes had windows. False when none was open.
    func closeAll() -> Bool {
        isQuitting = true
        remember()
        guard !isEmpty else { return false }
        for noteWindow in notes { noteWindow.window.close() }
        quickNote?.window.close()
        main?.window.close()
        return true
    }

    /// Logout or a signal: saves and closes every window without asking (text that could not
    /// be written stays in a recovery draft); `done` once the last one closed.
    func closeAllWithoutAsking(then done: @escaping @MainActor () -> Void) {
        isQuitting = true
        remember()
        var open = notes.count + (main == nil ? 0 : 1) + (quickNote == nil ? 0 : 1)
        guard open > 0 else { return done() }
        let closed: @MainActor () -> Void = {
            open -= 1
            if open == 0 { done() }
        }
        for noteWindow in notes { noteWindow.closeWithoutAsking(then: closed) }
        quickNote?.closeWithoutAsking(then: closed)
        main?.closeWithoutAsking(then: closed)
    }

    /// Saves every open note and waits: only as the application shuts down, when the main loop
    /// no longer runs.
    func saveAllAndWait() {
        for noteWindow in notes { try? noteWindow.openNote.saveAndWait() }
        try? quickNote?.openNote.saveAndWait()
        try? main?.controller.saveAllAndWait()
    }
}
