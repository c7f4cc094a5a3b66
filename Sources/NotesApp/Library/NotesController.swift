import Dispatch
import Foundation
import Gtk
import NotesCore

/// What joins the window's library pieces: the notes list, the open note (`openNote`), the
/// folder's index and watcher (`live`, whose events `presenter` shows) and the concerns that
/// act on them — `trash`, `notebooks`, `links`, `session` — each a type with its own state.
/// Here: creating, opening and revealing notes, and leaving the open note before its file
/// changes. Library I/O runs on `io`, the index's work on the live library's queue (so
/// Ctrl+N never waits behind a first indexing), never on the main thread.
/// A responder: it owns the sidebar, so the list's errors climb through here (where they get
/// options: Try Again, Show in Files) to the window; the failed action is retried when the
/// chosen option recovered.
final class NotesController: Responder {
    /// The library folder as it is now: its index, its watcher, their queue.
    let live: LiveLibrary
    var library: NoteLibrary { live.library }
    let list: NotesListView
    let openNote: OpenNoteController
    let toast: ToastView
    /// The library's writer queue: every change of its files runs here, one at a time.
    let io = DispatchQueue(label: "notula.library")
    /// The sidebar (the list inside); this controller is its owner in the widget tree.
    let sidebar = Box(.vertical)
    /// Ctrl+F: filters the list by title and body as the user types.
    let search: SearchController
    weak var window: Window?
    /// Called when "is a note selected" changes (enables Delete Note).
    var onSelectionAvailable: ((Bool) -> Void)?
    // The concerns, each with its own state (created here, after the pieces they join).
    private(set) lazy var presenter = LibraryPresenter(notes: self)
    private(set) lazy var trash = TrashController(notes: self)
    private(set) lazy var notebooks = NotebooksController(notes: self)
    private(set) lazy var links = LinksController(notes: self)
    private(set) lazy var session = SessionRestorer(notes: self)
    private(set) lazy var bulk = BulkController(notes: self)
    private(set) lazy var templates = TemplatesController(notes: self)

    init(library: NoteLibrary, list: NotesListView, openNote: OpenNoteController, toast: ToastView, createsLibraryFolder: Bool = true,
         indexFolder: URL? = nil, sharedLive: LiveLibrary? = nil) {
        // The application's, when the desktop's search started it before this window.
        live = sharedLive ?? LiveLibrary(folder: library.folder, createsFolder: createsLibraryFolder, indexFolder: indexFolder)
        self.list = list
        search = SearchController(list: list)
        self.openNote = openNote
        self.toast = toast
        super.init()
        sidebar.append(notebooks.list.root)
        sidebar.append(links.tagList.root)
        sidebar.append(search.entry)
        sidebar.append(search.indexingNote)
        sidebar.append(trash.stack)
        sidebar.append(trash.button)
        live.onEvent = { [weak self] event in self?.presenter.libraryDid(event) }
        sidebar.owner = self
        list.onSelect = { [weak self] id in self?.open(id) }
        list.onDeleteRequest = { [weak self] id in self?.trash.delete(id) }
        list.onDeleteSelectedRequest = { [weak self] in
            guard let self else { return }
            self.bulk.run(.trash, ids: self.list.selectedIDs)
        }
        list.onShowConflicts = { [weak self] id in self?.showConflicts(of: id) }
        openNote.delegate = self
        openNote.editor.noteLocation = { [weak self] in
            guard let self, let id = self.openID else { return nil }
            return NoteLocation(library: self.library.folder, noteID: id)
        }
    }

    // MARK: Starting

    /// Shows the library at once from its index, then brings the index in line with the
    /// folder in the background (reading only new and changed files; a first run fills the
    /// list as it goes); `then` once the list is complete (or the folder said unavailable).
    func start(then: (@MainActor () -> Void)? = nil) {
        presenter.isStarting = true
        live.open { [weak self] result in self?.presenter.started(result, then: then) }
    }

    /// Shows another library folder (after a move, or a folder located again). What is
    /// listed stays until the new folder's listing replaces it.
    func switchLibrary(to folder: URL, createsFolder: Bool, then: (@MainActor () -> Void)? = nil) {
        presenter.isStarting = true
        live.switchTo(folder, createsFolder: createsFolder) { [weak self] result in self?.presenter.started(result, then: then) }
    }

    var document: NoteDocument? { openNote.document }

    /// The open note's id: its path in the library ("Work/note.md").
    var openID: String? { openNote.document.flatMap { id(of: $0.fileURL) } }

    /// A file's id: its path relative to the library, or nil when it is not inside it.
    func id(of url: URL) -> String? { LibraryNoteID.id(of: url, in: library.folder) }

    // MARK: Creating and opening

    /// Makes a new note (holding `text`: Browse Versions' Open as New Note, a template) in
    /// `notebook` (nil: the one selected) and opens it, the cursor at `cursor` (nil: the
    /// start); `made` gets its id.
    func createNote(text: String? = nil, in notebook: String? = nil, cursor: Int? = nil, made: (@MainActor @Sendable (String) -> Void)? = nil) {
        let notebook = notebook ?? notebooks.selected ?? ""
        io.async { [library, createsLibraryFolder = live.createsFolder] in
            let result = Result { () -> NoteSummary in
                try library.createNote(in: notebook, contents: text.map { Data($0.utf8) }, createIfMissing: createsLibraryFolder)
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let note):
                    self.list.upsert(note)
                    self.list.select(note.id, notify: false)
                    self.open(note.id) { [weak self] in
                        guard let editor = self?.openNote.editor else { return }
                        if let cursor { editor.placeCursor(at: cursor) } else { editor.focusText() }
                    }
                    made?(note.id)
                case .failure(let error):
                    self.list.presentError(OperationError(.create, note: nil, underlying: error)) { [weak self] recovered in
                        if recovered { self?.createNote(text: text, in: notebook, cursor: cursor, made: made) }
                    }
                }
            }
        }
    }

    func open(_ id: String?, then: (@MainActor () -> Void)? = nil) {
        onSelectionAvailable?(id != nil)
        openNote.open(id.flatMap { list.summary($0)?.url }, then: then)
    }

    /// Opens the note (if it is not open) and shows its conflicts.
    func showConflicts(of id: String) {
        list.select(id, notify: false)
        open(id) { [weak self] in
            // The document looks for conflict copies as it opens; show them once it has.
            self?.openNote.document?.refreshConflictCopies { self?.openNote.showConflicts() }
        }
    }

    /// The open note's title, preview or date changed: update its row.
    private func refresh(from document: NoteDocument, leadingText: String) {
        guard let id = id(of: document.fileURL), let listed = list.summary(id) else { return }
        var note = listed
        if !document.isReadOnly {
            note.title = NoteText.title(of: leadingText)
            note.preview = NoteText.preview(of: leadingText)
        }
        if let modified = document.fileModificationDate { note.modified = modified }
        // Unchanged (a note closed unedited as the user switches): finding its place again
        // would cost a pass over every note.
        if note != listed { list.upsert(note) }
    }

    /// Saves everything before the window goes, without blocking: `done` gets nil, or why the
    /// open note could not be saved. Only the open note's save is waited for (bounded), never
    /// the library queue (a full index build, a Trash purge).
    func saveAll(then done: @escaping @MainActor (Error?) -> Void) {
        toast.expireNow()
        openNote.saveThen(done)
    }

    /// The last resort as the application shuts down (the main loop has stopped).
    func saveAllAndWait() throws {
        toast.expireNow()
        try openNote.saveAndWait()
    }

    /// Before an operation on the open note's file (delete, move, a notebook's rename or
    /// delete): saves it without blocking, closes it, then runs `body`. When its newest words
    /// cannot be written, says why with `action`'s options and `body` does not run.
    func leaveOpenNote(if isAffected: Bool, for action: OperationError.Action, note: String?,
                       retry: (() -> Void)? = nil, then body: @escaping @MainActor () -> Void) {
        guard isAffected, openNote.document != nil else { return body() }
        openNote.saveThen { [weak self] error in
            guard let self else { return }
            if let error {
                self.list.presentError(OperationError(action, note: note, underlying: error)) { recovered in
                    if recovered { retry?() }
                }
                return
            }
            self.openNote.close()
            body()
        }
    }

    /// Selects the note in the list and opens it (a note of another notebook or outside the
    /// search opens without a row). Every way a library note opens by its id passes here, and
    /// only a note inside the library opens (`LibraryNoteID`: no `..`, nothing hidden such as
    /// `.notula/`, no symbolic link out, a regular note file). False: nothing opened.
    /// `heading`: a link's `#fragment`, where the cursor goes once the note is shown.
    @discardableResult
    func reveal(_ id: String, atHeading heading: String? = nil, scroll: Bool = true) -> Bool {
        guard let url = LibraryNoteID.file(id, in: library.folder) else { return false }
        list.select(id, notify: true, scroll: scroll)  // the list opens what it selects
        if list.selectedID != id { openNote.open(url) }
        if let heading { openNote.whenShown(url) { [weak self] in self?.openNote.editor.goToHeading(heading) } }
        return true
    }

    /// Whether the index lists `id` (what the desktop's search and the session may open).
    func isListed(_ id: String) -> Bool { list.summary(id) != nil }

    // MARK: Responder

    override var nextResponder: Responder? { sidebar.ancestorOwner as? Responder }

    /// Library failures get their options here.
    override func willPresentError(_ error: Error) -> Error? {
        guard let failure = error as? OperationError, [.create, .delete, .listLibrary, .pin, .restore, .emptyTrash, .createNotebook, .renameNotebook, .deleteNotebook, .moveNote, .fixNames].contains(failure.action) else { return error }
        let explanation = ErrorTranslator.explain(failure)
        var actions: [RecoveryAction] = []
        if ![.trashUnsupported, .notAFile].contains(explanation.kind) { actions.append(.retry()) }
        let folder = library.folder
        // TRANSLATORS: a button that opens the library folder in the file manager.
        actions.append(RecoveryAction(tr("Show in Files")) { [weak self] done in
            FileBrowser.showFolder(PathBytes.bytes(folder.path), parent: self?.window)
            done(false)
        })
        actions.append(.cancel())
        return RecoverableFailure(failureReason: explanation.failureReason, recoverySuggestion: explanation.recoverySuggestion,
                                actions: actions, underlyingError: failure)
    }
}

// MARK: - The open note's events

extension NotesController: OpenNoteDelegate {
    func openNote(_ openNote: OpenNoteController, willShow url: URL?) {
        links.offerToUpdateLinksIfRetitled()  // the note being left
        let id = url.flatMap(id(of:))
        live.editedNote = id
        links.rememberTitle(of: id)
        links.showBacklinks(of: id)
    }

    func openNoteEdited(_ openNote: OpenNoteController) { live.noteTyped() }

    func openNote(_ openNote: OpenNoteController, changed document: NoteDocument, leadingText: String) {
        refresh(from: document, leadingText: leadingText)
    }

    func openNote(_ openNote: OpenNoteController, notice: String) { toast.show(notice) }

    /// Keep Both: the other version becomes a note beside the original (same notebook).
    func newNoteURL(for openNote: OpenNoteController) -> URL? {
        let folder = openNote.document?.fileURL.deletingLastPathComponent() ?? library.folder
        return folder.appendingPathComponent(NoteFileName.make(date: Date()))
    }

    func openNote(_ openNote: OpenNoteController, added url: URL) {
        if let id = id(of: url) { presenter.refreshIndex([id]) }
    }

    func openNote(_ openNote: OpenNoteController, openAsNewNote text: String) { createNote(text: text) }

    /// A listed note whose file was gone when opened: its row goes, and (nothing being open)
    /// the newest note opens, as at start.
    func openNote(_ openNote: OpenNoteController, noteGone url: URL) {
        guard let id = id(of: url) else { return }
        presenter.refreshIndex([id]) { [weak self] _ in self?.presenter.openNewestIfNothingIsOpen() }
    }

    func openNote(_ openNote: OpenNoteController, leftWithoutItsFile url: URL, title: String) {
        presenter.noteLeftWithoutItsFile(url, title: title)
    }
}
