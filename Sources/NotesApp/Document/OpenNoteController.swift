import Dispatch
import Foundation
import Gtk
import NotesCore

/// The note in the editor: opens and closes its document, passes edits to it, and makes the
/// editor, its banner and the status light follow every change of the document's state.
/// A responder: it owns the editor pane, so the document's errors climb from the editor
/// through here (where they get options bound to the document) to the window.
final class OpenNoteController: Responder {
    let editor: EditorView
    let status: StatusLight
    /// The editor pane (the editor inside); this controller is its owner in the widget tree.
    let pane = Box(.vertical)
    let drafts: RecoveryDrafts
    /// The notes' past (Browse Versions; Show Conflicts sets the discarded side aside there).
    let history: NoteHistory
    /// The window, for file choosers.
    weak var window: Window?
    private(set) var document: NoteDocument?
    private var observer: UUID?
    private var openingURL: URL?
    /// What the callers of `open` asked to run once the note being opened shows: a second
    /// request for the same note (the first listing opening the newest note as Ctrl+N opens
    /// the note it made) joins the opening instead of starting over and losing the first's.
    private var afterOpening: [@MainActor () -> Void] = []
    private var whenShown: (url: URL, body: @MainActor () -> Void)?

    /// The main window's library or a note's own window: told what happens, asked where a new
    /// note goes.
    weak var delegate: OpenNoteDelegate?
    /// Text typed while no note is open (the Quick Note window, before its note exists).
    var onEditWithoutNote: (() -> Void)?
    /// Show Conflicts, while open.
    var conflictWindow: ConflictWindow?
    /// Browse Versions, while open.
    var historyWindow: HistoryWindow?

    init(editor: EditorView, status: StatusLight, drafts: RecoveryDrafts = .standard, history: NoteHistory = .standard) {
        self.editor = editor
        self.status = status
        self.drafts = drafts
        self.history = history
        super.init()
        pane.append(editor.root)
        pane.owner = self
        editor.onChange = { [weak self] kind in self?.edited(kind) }
        // Vim's `:w`: saved now (a failure shows on the status light, as an autosave's does).
        editor.vim.onWrite = { [weak self] in self?.saveThen { _ in } }
        status.onShowReason = { [weak self] in self?.showUnsavedReason() }
        status.onShowConflicts = { [weak self] in self?.showConflicts() }
    }

    var isOpening: Bool { openingURL != nil }

    /// Opens the note at `url` (nil: none), closing (and saving) the one before.
    func open(_ url: URL?, then: (@MainActor () -> Void)? = nil) {
        if let url, url == openingURL {
            if let then { afterOpening.append(then) }
            return
        }
        OpenReport.opening()
        if let url, url == document?.fileURL, openingURL == nil { then?(); return }
        close()
        openingURL = url
        afterOpening = then.map { [$0] } ?? []
        delegate?.openNote(self, willShow: url)
        guard let url else {
            editor.showPlaceholder()
            status.follow(nil)
            return
        }
        // Open (or opening) in another window already: the same document, shown here too.
        if let shared = SharedDocuments.shared.document(for: url) {
            SharedDocuments.shared.whenOpened(shared) { [weak self] opened in
                guard let self, self.openingURL == url else { return }
                self.openingURL = nil
                guard opened else {
                    self.afterOpening = []
                    return self.editor.showPlaceholder()
                }
                let text = SharedDocuments.shared.currentText(of: shared)
                SharedDocuments.shared.join(shared, self)
                self.attach(shared, text: text)
                self.runAfterOpening()
            }
            return
        }
        let document = NoteDocument(fileURL: url, drafts: drafts, history: history)
        bindErrors(of: document)
        SharedDocuments.shared.beginOpening(document)
        document.open { [weak self] opened in
            guard let self, self.openingURL == url else {
                // Left before it opened: an editor waiting for the same file takes it over.
                if opened, SharedDocuments.shared.hasWaiting(document) { return SharedDocuments.shared.finishOpening(document, opened: true) }
                SharedDocuments.shared.finishOpening(document, opened: false)
                document.close()
                return
            }
            self.openingURL = nil
            guard opened else {
                self.afterOpening = []
                SharedDocuments.shared.finishOpening(document, opened: false)
                self.editor.showPlaceholder()
                return
            }
            SharedDocuments.shared.join(document, self)
            self.attach(document, text: document.text)
            SharedDocuments.shared.finishOpening(document, opened: true)  // after: the waiting editors copy this one's text
            self.runAfterOpening()
        }
    }

    private func runAfterOpening() {
        let pending = afterOpening
        afterOpening = []
        for body in pending { body() }
    }

    /// Another editor showing the same document left: the document's text, and its errors,
    /// come from this one now.
    func takeOver(_ document: NoteDocument) {
        guard document === self.document else { return }
        // An editor gone without leaving (its window destroyed) never reads as empty text.
        document.contentProvider = { [weak editor, weak document] in
            editor?.text ?? document.map { SharedDocuments.shared.currentText(of: $0) } ?? ""
        }
        bindErrors(of: document)
    }

    /// Document errors start where the user looks: the editor. Their options are bound to
    /// this document now, not to whichever note is open when the user clicks one.
    private func bindErrors(of document: NoteDocument) {
        document.errorPresenter = { [weak self] document, error, done in
            guard let self else { return done(false) }
            // Listed but gone (a list read before another program deleted it, or from the
            // index at start): no dialog — Try Again could not help, and at start the user
            // did not even ask for this note.
            if let failure = error as? OperationError, failure.action == .open,
               let code = ErrorTranslator.posixCode(of: failure.underlying), code == ENOENT || code == ENOTDIR {
                done(false)
                self.delegate?.openNote(self, noteGone: document.fileURL)
                return
            }
            let bound = (error as? OperationError).map { self.recoverableError(for: $0, document: document) } ?? error
            self.editor.presentError(bound, completion: done)
        }
    }

    /// Closes the open note; its document saves unsaved text in the background.
    func close() {
        // Still shown in another window: it stays open there.
        guard let document = leaveDocument(), !SharedDocuments.shared.leave(document, self) else { return }
        let leftWithoutItsFile = document.fileIsMissing
        document.close { [weak self, weak delegate] _ in
            guard let self, let delegate else { return }
            delegate.openNote(self, changed: document, leadingText: document.text)
            if leftWithoutItsFile { delegate.openNote(self, leftWithoutItsFile: document.fileURL, title: document.displayName) }
        }
    }

    /// Leaves the open note without saving it again (a window closed anyway after its save
    /// failed: the text is in a recovery draft): another editor showing it keeps it, else it
    /// is let go, unclosed, so no second failure is reported for a window that is gone.
    func abandon() {
        guard let document = leaveDocument() else { return }
        _ = SharedDocuments.shared.leave(document, self)
    }

    /// Stops showing the open note (its windows closed, no longer observed, the light off)
    /// and hands it back, nil when none was open.
    private func leaveDocument() -> NoteDocument? {
        conflictWindow?.close()
        historyWindow?.close()
        guard let document else { return nil }
        if let observer { document.removeObserver(observer) }
        observer = nil
        self.document = nil
        status.follow(nil)
        return document
    }

    /// Saves the open note and waits, at most a few seconds: only as the application shuts
    /// down, when the main loop no longer runs. Everywhere else `saveThen`.
    func saveAndWait() throws {
        try document?.saveAndWait(timeout: 10)
    }

    /// Saves the open note without blocking; `done` gets nil once its file holds the text, or
    /// why not (at most about ten seconds later).
    func saveThen(_ done: @escaping @MainActor (Error?) -> Void) {
        guard let document else { return done(nil) }
        document.saveBeforeLeaving(completion: done)
    }

    private func attach(_ document: NoteDocument, text: String) {
        self.document = document
        if SharedDocuments.shared.editorCount(of: document) <= 1 { takeOver(document) }
        observer = document.addObserver { [weak self] document, event in self?.documentChanged(document, event) }
        if !editor.show(text: text, editable: !document.state.contains(.editingDisabled)) {
            // What the editor holds would save a different text: never write it.
            document.becomeReadOnly(because: tr("This note contains characters the editor cannot hold exactly. Notula shows it read-only and never changes it."))
        }
        OpenReport.shown(in: editor.textView, characters: editor.buffer.characterCount)
        follow(document)
        if let shown = whenShown, shown.url == document.fileURL {
            whenShown = nil
            shown.body()
        }
    }

    /// Runs `body` once the note at `url` shows in the editor (now, if it does): a cursor
    /// placed by the desktop's search or a restored session lands in its text.
    func whenShown(_ url: URL, _ body: @escaping @MainActor () -> Void) {
        if document?.fileURL.standardizedFileURL == url.standardizedFileURL, !isOpening { return body() }
        whenShown = (url, body)
    }

    private func edited(_ kind: DocumentChangeKind) {
        guard let document else { return onEditWithoutNote?() ?? () }
        SharedDocuments.shared.edited(document, by: self)
        document.updateChangeCount(kind)
        TypingReport.edited(characters: editor.buffer.characterCount)
        delegate?.openNoteEdited(self)
        delegate?.openNote(self, changed: document, leadingText: editor.leadingText)
    }

    private func documentChanged(_ document: NoteDocument, _ event: DocumentEvent) {
        guard document === self.document else { return }
        switch event {
        case .textReplaced:
            editor.replaceText(document.text)
            delegate?.openNote(self, changed: document, leadingText: editor.leadingText)
        case .saved:
            delegate?.openNote(self, changed: document, leadingText: editor.leadingText)
        case .merged:
            // TRANSLATORS: %s is the note's title
            delegate?.openNote(self, notice: tr("Changes made elsewhere were merged into “%s”", document.displayName))
        case .statusChanged:
            // The versions in Show Conflicts came or went (resolved on another device, say).
            if let conflictWindow, conflictWindow.other != document.otherVersions.first { conflictWindow.show(document) }
        }
        follow(document)
    }

    /// The editor, its banner and the light show the document's state.
    private func follow(_ document: NoteDocument) {
        editor.isEditable = !document.state.contains(.editingDisabled)
        status.follow(document)
        if document.isLargePreview, let reason = document.readOnlyReason {
            // TRANSLATORS: button: open a large note for editing although it may be slow
            let title = document.isBeginningOnly ? tr("Open Anyway (Read-Only)") : tr("Open Anyway")
            editor.setBanner(reason, action: (title, { [weak document] in document?.openLargeNoteAnyway() }))
        } else if let reason = document.readOnlyReason {
            editor.setBanner(reason)
        } else if document.fileIsMissing {
            editor.setBanner(tr("This note’s file was deleted or moved by another program. Your text is still here."),
                             // TRANSLATORS: button: write the note's file again (it was deleted or moved)
                             action: (tr("Save Again"), { [weak document] in document?.saveAgain() }))
        } else {
            editor.setBanner(nil)
        }
    }

    // MARK: Moving with the library

    /// Its note moved with the library (or stayed, `SharedDocuments.releaseAfterMove`): the
    /// pictures are read again from their new place (once the library has switched), and
    /// `errors` met while no one could be asked are said now.
    func noteMoved(saying errors: [Error]) {
        editor.pictures.noteChanged()
        guard let document else { return }
        for error in errors {
            editor.presentError((error as? OperationError).map { recoverableError(for: $0, document: document) } ?? error) { _ in }
        }
    }

    // MARK: Responder

    override var nextResponder: Responder? { pane.ancestorOwner as? Responder }

    /// Gives the open note's failures their options (see `+Recovery`).
    override func willPresentError(_ error: Error) -> Error? {
        guard let operation = error as? OperationError, let document else { return error }
        return recoverableError(for: operation, document: document)
    }

    private func showUnsavedReason() {
        guard let document, let error = document.lastError ?? (document.fileIsMissing ? DocumentError.fileMissing(note: document.displayName) : nil) else { return }
        let operation = error as? OperationError ?? OperationError(.save, note: document.displayName, underlying: error)
        editor.presentError(operation) { [weak document] recovered in
            if recovered { document?.save() }
        }
    }
}
