import Foundation
import Gtk
import NotesCore

/// The Quick Note window (issue #48; `notula --quick-note`, a desktop shortcut): a small window
/// of its own with the cursor in an empty note, for jotting something down without the main
/// window. Nothing typed, no note: the note's file is made (`QuickNote.file`, an exclusive
/// create at the top of the library) at the first text typed, then it is an ordinary open note
/// (autosave, status light, the same document model). What is typed while the file is being
/// made is kept: once the note shows, the editor gets the text typed meanwhile back, as an edit.
/// Ctrl+Enter or Escape saves and closes it. A note that could not be made (a read-only or full
/// library) is said in the window's banner with Try Again (a dialog would take the keys being
/// typed); closed, the window asks, and closed anyway its text stays in a recovery draft that
/// the main window offers back.
final class QuickNoteWindow: Responder {
    let window: ApplicationWindow
    let editor = EditorView()
    let status = StatusLight()
    let openNote: OpenNoteController
    private weak var application: Responder?
    private let library: NoteLibrary
    private let createsFolder: Bool
    private let drafts: RecoveryDrafts
    private var closer: WindowCloser!
    /// The note's file once it is made (nil: nothing typed yet, or still being made).
    private(set) var fileURL: URL?
    private var isMaking = false
    /// The note could not be made and the banner says so: typing does not try again, Try Again does.
    private var failureShown = false
    /// Closing while the note is being made: told once it is made and saved (or why not).
    private var closeWaiters: [@MainActor (Error?) -> Void] = []
    /// What the editor held when the note's file was being made and after: given back to the
    /// editor once the note shows.
    private var typed: (text: String, cursor: Int)?
    /// A note was made: the main window lists it at once.
    var onNoteMade: ((NoteSummary) -> Void)?

    init(application: Application, appResponder: Responder, library: URL, createsFolder: Bool, drafts: RecoveryDrafts) {
        self.application = appResponder
        self.library = NoteLibrary(folder: library)
        self.createsFolder = createsFolder
        self.drafts = drafts
        window = ApplicationWindow(application: application)
        // TRANSLATORS: the title of the small window of `notula --quick-note`.
        window.title = tr("Quick Note")
        openNote = OpenNoteController(editor: editor, status: status, drafts: drafts)
        InputReport.watch(window)
        super.init()
        window.owner = self
        openNote.window = window
        let header = HeaderBar()
        header.packEnd(status.root)
        window.titlebar = header
        let content = Box(.vertical)
        content.append(openNote.pane)
        openNote.pane.vexpand = true
        // TRANSLATORS: a hint at the foot of the Quick Note window.
        let hint = Label(tr("Ctrl+Enter or Esc: keep it and close"))
        hint.addCSSClass("dim-label")
        hint.addCSSClass("caption")
        content.append(hint)
        window.child = content
        window.setDefaultSize(width: 460, height: 300)
        window.onMap { _ in DesktopReport.quickNote("mapped \(MonotonicClock.now())") }
        editor.noteLocation = { [weak self] in
            guard let self, let url = self.fileURL else { return nil }
            return NoteLocation(library: library, noteID: String(url.path.dropFirst(library.path.count + 1)))
        }
        editor.show(text: "", editable: true)
        openNote.onEditWithoutNote = { [weak self] in self?.typedWithoutNote() }
        // TRANSLATORS: button: close the Quick Note window although its note could not be saved
        closer = WindowCloser(window: window, openNote: openNote, responder: self, anywayLabel: tr("Close Anyway")) { [weak self] done in
            self?.save(done) ?? done(nil)
        }
        closer.onClosingAnyway = { [weak self] in self?.keepDraft() }
        window.onCloseRequest { [weak self] _ in self?.closer.closeRequested() ?? false }
        // Ctrl+Enter before the text view (it would add a line); Escape after it (completion
        // and Vim's insert mode take it first).
        let done = KeyController()
        done.runBeforeWidget()
        done.onKeyPressed { [weak self] _, keyval, modifiers in
            guard keyval == Key.returnKey || keyval == Key.kpEnter, modifiers & Key.modifierMask == Key.primaryMask else { return false }
            self?.window.close()
            return true
        }
        window.addController(done)
        let escape = KeyController()
        escape.onKeyPressed { [weak self] _, keyval, modifiers in
            guard keyval == Key.escape, modifiers & Key.modifierMask == 0 else { return false }
            self?.window.close()
            return true
        }
        window.addController(escape)
    }

    func present() {
        window.present()
        editor.focusText()
        DesktopReport.quickNote("shown")
    }

    private var editorState: (text: String, cursor: Int) { (editor.text, editor.buffer.cursorOffset) }

    /// Typed while there is no note yet: the first text makes it; later keys wait for it.
    private func typedWithoutNote() {
        if isMaking { return typed = editorState }
        // A failure being shown waits for the user's Try Again, not for the next key.
        guard fileURL == nil, !failureShown, !QuickNote.isBlank(editor.text) else { return }
        make()
    }

    /// Makes the note's file with the text typed so far, off the main thread, then opens it.
    private func make() {
        isMaking = true
        typed = editorState
        let text = editor.text
        let (library, createsFolder) = (library, createsFolder)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try QuickNote.file(text, in: library, createIfMissing: createsFolder) }
            DispatchQueue.main.async { [weak self] in self?.made(result) }
        }
    }

    private func made(_ result: Result<NoteSummary, Error>) {
        switch result {
        case .success(let note):
            fileURL = note.url
            onNoteMade?(note)
            DesktopReport.quickNote("made \(note.url.path)")
            openNote.open(note.url) { [weak self] in
                guard let self else { return }
                self.isMaking = false
                if let typed = self.typed {
                    // What was typed while the file was made.
                    if typed.text != self.editor.text { self.editor.replaceTextAsEdit(typed.text) }
                    self.editor.placeCursor(at: typed.cursor)
                }
                self.typed = nil
                // Taken now, not when the file was made: a close asked for while the note was
                // opening waits here too.
                let waiting = self.closeWaiters
                self.closeWaiters = []
                for done in waiting { self.openNote.saveThen(done) }
            }
        case .failure(let error):
            isMaking = false
            let waiting = closeWaiters
            closeWaiters = []
            guard waiting.isEmpty else { return waiting.forEach { $0(error) } }  // the closer says it
            // Said in the window, not in a dialog that would take the keys being typed.
            failureShown = true
            let explanation = ErrorTranslator.explain(OperationError(.create, note: nil, underlying: error))
            editor.setBanner(explanation.failureReason + ". " + explanation.recoverySuggestion, action: (tr("Try Again"), { [weak self] in
                guard let self else { return }
                self.failureShown = false
                self.editor.setBanner(nil)
                if self.fileURL == nil, !QuickNote.isBlank(self.editor.text) { self.make() }
            }))
        }
    }

    /// Closing: the note saved, or made first when the text never reached a file.
    private func save(_ done: @escaping @MainActor (Error?) -> Void) {
        if isMaking { return closeWaiters.append(done) }
        if fileURL != nil { return openNote.saveThen(done) }
        if QuickNote.isBlank(editor.text) { return done(nil) }  // nothing typed: no note
        closeWaiters.append(done)
        make()
    }

    /// Saves and closes without asking (logout): text that could not be written stays in a draft.
    func closeWithoutAsking(then done: @escaping @MainActor () -> Void) {
        closer.closeWithoutAsking { [self] in
            self.keepDraft()
            done()
        }
    }

    /// Closed anyway with text no note holds: it stays in a recovery draft, offered back as a note.
    private func keepDraft() {
        guard fileURL == nil, !QuickNote.isBlank(editor.text) else { return }
        let place = library.folder.appendingPathComponent(NoteFileName.make(date: Date()))
        try? drafts.save(editor.text, for: place, reason: tr("A new note could not be created"))
    }

    override var nextResponder: Responder? { application }
}
