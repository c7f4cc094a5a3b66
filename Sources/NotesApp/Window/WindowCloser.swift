import Gtk
import NotesCore

/// Closing a window that shows notes: its notes are saved in the background, the window
/// answering meanwhile, and it closes once the files hold the text. When saving fails the
/// window stays and says why, unless the user chooses to close anyway (the text then stays in
/// a recovery draft). The main window and note windows close through one of these each.
final class WindowCloser {
    private let window: Window
    private let openNote: OpenNoteController
    /// The button that closes although the text could not be written ("Quit Anyway").
    private let anywayLabel: String
    private let save: (@escaping @MainActor (Error?) -> Void) -> Void
    private weak var responder: Responder?
    private var isSaving = false
    private var closingAnyway = false
    /// Closing anyway after a failure, before the note is let go (text with no note yet keeps a draft).
    var onClosingAnyway: (() -> Void)?

    init(window: Window, openNote: OpenNoteController, responder: Responder, anywayLabel: String,
         save: @escaping (@escaping @MainActor (Error?) -> Void) -> Void) {
        self.window = window
        self.openNote = openNote
        self.responder = responder
        self.anywayLabel = anywayLabel
        self.save = save
    }

    /// The window's close-request: true (GTK leaves the window alone) — it closes itself.
    func closeRequested() -> Bool {
        if closingAnyway {
            onClosingAnyway?()
            openNote.abandon()  // the text is in a recovery draft: nothing is saved again
            window.destroy()
            return true
        }
        guard !isSaving else { return true }
        isSaving = true
        save { [weak self] error in
            guard let self else { return }
            self.isSaving = false
            guard let error else { return self.closeSaved() }
            let failure = self.openNote.closingFailure(error, anyway: self.anywayLabel) { [weak self] in
                self?.closingAnyway = true
                self?.window.close()
            }
            self.responder?.presentError(failure) { _ in }
        }
        return true
    }

    /// Saves what can be saved and closes without asking (quitting at logout), then `done`;
    /// text that could not be written stays in a recovery draft.
    func closeWithoutAsking(then done: @escaping @MainActor () -> Void) {
        save { [weak self] _ in
            self?.closeSaved()
            done()
        }
    }

    /// The note leaves this window's editor first: a window showing it too takes its document
    /// over (its text, its saves), and otherwise the document closes.
    private func closeSaved() {
        openNote.close()
        window.destroy()
    }
}
