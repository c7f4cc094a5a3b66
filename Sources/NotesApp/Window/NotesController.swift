import Dispatch
import Foundation
import Gtk
import NotesCore

/// What happens to the library when the user lists, creates, selects or deletes notes.
/// The note in the editor is `openNote`'s; the folder's index and watcher are `live`'s
/// (`LiveLibrary`, observed in `+Library`). Library I/O runs on `io`, the index's work on the
/// live library's queue (so Ctrl+N never waits behind a first indexing), never on the main thread.
/// A responder: it owns the sidebar, so the list's errors climb through here (where they get
/// options: Try Again, Show in Files) to the window; the failed action is retried when the
/// chosen option recovered.
final class NotesController: Responder {
    /// The library folder as it is now: its index, its watcher, their queue.
    let live: LiveLibrary
    var library: NoteLibrary { live.library }
    /// The library folder cannot be reached: the window shows its banner instead of "no notes".
    var onLibraryUnavailable: ((Error) -> Void)?
    /// The library was listed (the banner goes).
    var onLibraryAvailable: (() -> Void)?
    let list: NotesListView
    let openNote: OpenNoteController
    let toast: ToastView
    /// The sidebar (the list inside); this controller is its owner in the widget tree.
    let sidebar = Box(.vertical)
    /// Ctrl+F: filters the list by title and body as the user types.
    let search: SearchController
    /// The notes list, or the Trash.
    let sidebarStack = Stack()
    let trashView = TrashView()
    // TRANSLATORS: the sidebar button that shows the Trash.
    let trashButton = Button(label: tr("Trash"))
    let notebookList = NotebookList()
    /// The notebook whose notes the list shows (nil: All Notes); new notes go there.
    var selectedNotebook: String? {
        didSet { search.notebook = selectedNotebook }
    }
    /// The user chose another notebook (the window enables Rename and Delete Notebook).
    var onNotebookChosen: ((String?) -> Void)?
    var nameDialog: NameDialog?
    var notebookChooser: NotebookChooser?
    /// Items older than this many days leave the Trash for good (nil: never).
    var trashRetentionDays: Int? = 30
    weak var window: Window?
    let io = DispatchQueue(label: "notula.library")
    var pendingDeletion: NoteSummary?
    private var refreshingTimes = false
    /// The list was filled once (later listings replace it keeping the selection).
    var hasListed = false
    /// A start or a switch is under way: the newest note opens once there is one.
    var isStarting = false
    /// The names that are not UTF-8 the window last offered to fix.
    var namesOfferedToFix: Set<String> = []
    /// A notice in the window (a sentence, and a button when there is something to do).
    var notice: ((String, (label: String, run: () -> Void)?) -> Void)?
    /// Called when "is a note selected" changes (enables Delete Note).
    var onSelectionAvailable: ((Bool) -> Void)?
    // Links and tags (`+Links`).
    let links = LinkLookup()
    let backlinks = BacklinksView()
    let tagList = TagList()
    var tagCounts: [LibraryIndex.TagCount] = []
    /// The open note and the title it had when opened or last asked about (a retitling offers to update links).
    var linkedTitle: (id: String, title: String)?
    var linksRefresh: (work: DispatchWorkItem, due: DispatchTime)?
    /// The question about links showing (Create Note, Update links), if any.
    var linksQuestion: MessageDialog?
    /// What the last session showed, restored once the library is listed (`+Library`).
    struct Restoring {
        var note: String?
        var cursorOffset: Int
        var topOffset: Int
        var notebook: String?
    }
    var restoring: Restoring?
    /// Which of several notes of one title a `[[link]]` opens (the menu's choice).
    let chooseNoteAction = SimpleAction(name: "open-note", choice: "")
    /// The notes the last such menu offered (tests read it back).
    var offeredNotes: [String] = []

    init(library: NoteLibrary, list: NotesListView, openNote: OpenNoteController, toast: ToastView, createsLibraryFolder: Bool = true,
         indexFolder: URL? = nil, sharedLive: LiveLibrary? = nil) {
        // The application's, when the desktop's search started it before this window.
        live = sharedLive ?? LiveLibrary(folder: library.folder, createsFolder: createsLibraryFolder, indexFolder: indexFolder)
        self.list = list
        search = SearchController(list: list)
        self.openNote = openNote
        self.toast = toast
        super.init()
        sidebar.append(notebookList.root)
        sidebar.append(tagList.root)
        sidebar.append(search.entry)
        sidebar.append(search.indexingNote)
        sidebarStack.add(list.root, name: "notes")
        sidebarStack.add(trashView.root, name: "trash")
        sidebarStack.vexpand = true
        // Room for a few notes however small the window: the notebooks above scroll instead.
        sidebarStack.setSizeRequest(width: -1, height: NotebookList.notesListMinimumHeight)
        sidebar.append(sidebarStack)
        trashButton.addCSSClass("flat")
        trashButton.accessibleLabel = tr("Show the Trash")
        trashButton.setMargins(top: 4, bottom: 4, start: 6, end: 6)
        trashButton.halign = .start
        trashButton.onClicked { [weak self] _ in
            guard let self else { return }
            self.showTrash(!self.isShowingTrash)
        }
        sidebar.append(trashButton)
        trashView.onRestore = { [weak self] item in self?.restore(item) }
        trashView.onEmpty = { [weak self] in self?.emptyTrash() }
        setUpNotebooks()
        setUpLinks()
        live.onEvent = { [weak self] event in self?.libraryDid(event) }
        sidebar.owner = self
        list.onSelect = { [weak self] id in self?.open(id) }
        list.onDeleteRequest = { [weak self] id in self?.delete(id) }
        list.onShowConflicts = { [weak self] id in self?.showConflicts(of: id) }
        openNote.onNotice = { [weak self] message in self?.toast.show(message) }
        openNote.onOpenAsNewNote = { [weak self] text in self?.createNote(text: text) }
        openNote.onNoteChanged = { [weak self] document, leadingText in self?.refresh(from: document, leadingText: leadingText) }
        openNote.onOpening = { [weak self] url in
            guard let self else { return }
            self.offerToUpdateLinksIfRetitled()  // the note being left
            let id = url.flatMap(self.id(of:))
            self.live.editedNote = id
            self.rememberTitle(of: id)
            self.showBacklinks(of: id)
        }
        openNote.onEdited = { [weak self] in self?.live.noteTyped() }
        openNote.editor.noteLocation = { [weak self] in
            guard let self, let id = self.openID else { return nil }
            return NoteLocation(library: self.library.folder, noteID: id)
        }
        openNote.onNoteLeftWithoutItsFile = { [weak self] url, title in self?.noteLeftWithoutItsFile(url, title: title) }
        openNote.onNoteAdded = { [weak self] url in
            if let id = self?.id(of: url) { self?.add(id) }
        }
        // Keep Both: the other version becomes a note beside the original (same notebook).
        openNote.newNoteURL = { [weak self] in
            guard let self else { return nil }
            let folder = self.openNote.document?.fileURL.deletingLastPathComponent() ?? self.library.folder
            return folder.appendingPathComponent(NoteFileName.make(date: Date()))
        }
    }

    var document: NoteDocument? { openNote.document }

    /// The open note's id: its path in the library ("Work/note.md").
    var openID: String? { openNote.document.flatMap { id(of: $0.fileURL) } }

    /// A file's id: its path relative to the library, or nil when it is not inside it.
    func id(of url: URL) -> String? { LibraryNoteID.id(of: url, in: library.folder) }

    // MARK: Creating and opening

    /// Makes a new note (holding `text`, from Browse Versions' Open as New Note) and opens it.
    func createNote(text: String? = nil) {
        let notebook = selectedNotebook ?? ""
        io.async { [library, createsLibraryFolder = live.createsFolder] in
            let result = Result { () -> NoteSummary in
                let note = try library.createNote(in: notebook, createIfMissing: createsLibraryFolder)
                guard let text else { return note }
                try AtomicFileWriter.write(Data(text.utf8), to: note.url)
                return try library.summary(ofFileNamed: note.id)
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let note):
                    self.list.upsert(note)
                    self.list.select(note.id, notify: false)
                    self.open(note.id) { [weak self] in self?.openNote.editor.focusText() }
                case .failure(let error):
                    self.list.presentError(OperationError(.create, note: nil, underlying: error)) { [weak self] recovered in
                        if recovered { self?.createNote(text: text) }
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

    // MARK: Deleting

    /// Moves the note into the library's Trash at once (a rename: nothing is rewritten) and
    /// offers Undo, which moves it back. The open note is saved first, so the Trash gets its
    /// latest words.
    func delete(_ id: String) {
        guard let note = list.summary(id) else { return }
        // The note stays when its newest words could not be written: nothing goes to the Trash.
        leaveOpenNote(if: openID == id, for: .delete, note: note.title, retry: { [weak self] in self?.delete(id) }) { [weak self] in
            self?.moveToTrash(note)
        }
    }

    private func moveToTrash(_ note: NoteSummary) {
        let id = note.id
        toast.expireNow()
        let position = list.orderedIDs.firstIndex(of: id) ?? 0
        list.remove(id)
        pendingDeletion = note
        let ids = list.orderedIDs
        let next = ids.isEmpty ? nil : ids[min(position, ids.count - 1)]
        list.select(next, notify: true)
        if next == nil { open(nil) }
        let trash = self.trash
        io.async {
            let result = Result { try trash.trash(relativePath: id) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.pendingDeletion = nil
                switch result {
                case .success(let item):
                    self.refreshIndex([id])
                    self.refreshTrash()
                    // TRANSLATORS: a toast; %s is the note's title.
                    let message = tr("“%s” moved to Trash", note.title)
                    // TRANSLATORS: the toast's button: takes the note back out of the Trash.
                    self.toast.show(message, actionLabel: tr("Undo"),
                                    action: { [weak self] in self?.restore(item, select: true) }, onExpire: {})
                case .failure(let error):
                    self.list.upsert(note)  // not deleted after all: it is back in the list
                    self.list.presentError(OperationError(.delete, note: note.title, underlying: error)) { [weak self] recovered in
                        if recovered { self?.delete(note.id) }
                    }
                }
            }
        }
    }

    func deleteSelected() {
        if let id = list.selectedID { delete(id) }
    }

    // MARK: Helpers

    func scheduleTimeRefresh() {
        guard !refreshingTimes else { return }
        refreshingTimes = true
        refreshTimesLater()
    }

    private func refreshTimesLater() {
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { [weak self] in
            self?.list.refreshTimes()
            self?.refreshTimesLater()
        }
    }

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
