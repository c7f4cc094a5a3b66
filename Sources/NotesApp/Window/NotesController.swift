import Dispatch
import Foundation
import Gtk
import NotesCore

/// What happens when the user creates, selects, edits or deletes a note.
/// Owns the open document; library I/O runs on `io`, never on the main thread,
/// except the final save at close or quit, which must finish before the process ends.
final class NotesController {
    let library: NoteLibrary
    let list: NotesListView
    let editor: EditorView
    let toast: ToastView
    let alerts: AlertPresenter
    private let io = DispatchQueue(label: "notula.library")
    private(set) var document: NoteDocument?
    private var openingID: String?
    private var pendingDeletion: NoteSummary?
    /// Called when "is a note selected" changes (enables Delete Note).
    var onSelectionAvailable: ((Bool) -> Void)?

    init(library: NoteLibrary, list: NotesListView, editor: EditorView, toast: ToastView, alerts: AlertPresenter) {
        self.library = library
        self.list = list
        self.editor = editor
        self.toast = toast
        self.alerts = alerts
        list.onSelect = { [weak self] id in self?.open(id) }
        list.onDeleteRequest = { [weak self] id in self?.delete(id) }
        editor.onEdit = { [weak self] text in self?.edited(text) }
    }

    /// Lists the library in the background, then opens the newest note.
    func start(then: (() -> Void)? = nil) {
        io.async { [library] in
            let result = Result { () -> [NoteSummary] in
                try library.prepare()
                return try library.scan()
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let notes):
                    self.list.show(notes)
                    if self.document == nil, self.openingID == nil, let first = notes.first {
                        self.list.select(first.id, notify: true)
                    }
                case .failure(let error):
                    self.alerts.present(title: "Could not open the notes folder", detail: Self.describe(error))
                }
                self.scheduleTimeRefresh()
                then?()
            }
        }
    }

    // MARK: Creating and opening

    func createNote() {
        io.async { [library] in
            let result = Result { try library.createNote() }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let note):
                    self.list.upsert(note)
                    self.list.select(note.id, notify: false)
                    self.open(note.id) { [weak self] in self?.editor.focusText() }
                case .failure(let error):
                    self.alerts.present(title: "Could not create a note", detail: Self.describe(error))
                }
            }
        }
    }

    func open(_ id: String?, then: (() -> Void)? = nil) {
        onSelectionAvailable?(id != nil)
        if let id, document?.url.lastPathComponent == id, openingID == nil { then?(); return }
        closeDocument()
        guard let id, let note = list.summary(id) else {
            openingID = nil
            editor.showPlaceholder()
            return
        }
        openingID = id
        NoteDocument.open(note.url) { [weak self] result in
            guard let self, self.openingID == id else { return }
            self.openingID = nil
            switch result {
            case .success(let document):
                self.document = document
                document.onSaveFinished = { [weak self] document, error in self?.saveFinished(document, error: error) }
                self.editor.show(text: document.text, readOnlyReason: document.readOnlyReason)
                then?()
            case .failure(let error):
                self.editor.showPlaceholder()
                self.alerts.present(title: "Could not open “\(note.title)”", detail: Self.describe(error))
            }
        }
    }

    /// Saves (in the background) and closes the open note.
    private func closeDocument() {
        guard let document else { return }
        document.save()
        document.close()
        self.document = nil
    }

    // MARK: Editing and saving

    private func edited(_ text: String) {
        guard let document else { return }
        document.edit(text)
        let id = document.url.lastPathComponent
        if var note = list.summary(id) {
            note.title = NoteText.title(of: text)
            note.preview = NoteText.preview(of: text)
            list.upsert(note)
        }
    }

    private func saveFinished(_ document: NoteDocument, error: Error?) {
        let id = document.url.lastPathComponent
        if let error {
            alerts.present(title: "Could not save “\(NoteText.title(of: document.text))”",
                           detail: Self.describe(error) + "\n\nYour text is still in the window; Notula will try again as you type.")
            return
        }
        guard var note = list.summary(id) else { return }
        note.title = NoteText.title(of: document.text)
        note.preview = NoteText.preview(of: document.text)
        note.modified = Date()
        list.upsert(note)
    }

    /// Saves everything and waits (window closing, quitting). Throws the first failure.
    func saveAllAndWait() throws {
        toast.expireNow()
        io.sync {}
        try document?.saveAndWait()
    }

    // MARK: Deleting

    /// Removes the note from the list at once and offers Undo; the file goes to the Trash
    /// when the offer expires (or at quit), so an undone delete never touched the disk.
    func delete(_ id: String) {
        guard let note = list.summary(id) else { return }
        if let document, document.url.lastPathComponent == id {
            do {
                try document.saveAndWait()  // the Trash gets the latest words
            } catch {
                alerts.present(title: "Could not delete “\(note.title)”",
                               detail: "Its last changes could not be saved first: \(Self.describe(error))")
                return
            }
            document.close()
            self.document = nil
        }
        toast.expireNow()
        let position = list.orderedIDs.firstIndex(of: id) ?? 0
        list.remove(id)
        pendingDeletion = note
        let ids = list.orderedIDs
        let next = ids.isEmpty ? nil : ids[min(position, ids.count - 1)]
        list.select(next, notify: true)
        if next == nil { open(nil) }
        toast.show("“\(note.title)” moved to Trash", actionLabel: "Undo",
                   action: { [weak self] in self?.undoDeletion() },
                   onExpire: { [weak self] in self?.commitDeletion() })
    }

    func deleteSelected() {
        if let id = list.selectedID { delete(id) }
    }

    private func undoDeletion() {
        guard let note = pendingDeletion else { return }
        pendingDeletion = nil
        list.upsert(note)
        list.select(note.id, notify: true)
    }

    private func commitDeletion() {
        guard let note = pendingDeletion else { return }
        pendingDeletion = nil
        io.async {
            let result = Result { try FileTrash.trash(path: note.url.path) }
            guard case .failure(let error) = result else { return }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.list.upsert(note)
                self.alerts.present(title: "Could not move “\(note.title)” to the Trash",
                                    detail: "\(error)\n\nThe note was not deleted.")
            }
        }
    }

    // MARK: Helpers

    private func scheduleTimeRefresh() {
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { [weak self] in
            self?.list.refreshTimes()
            self?.scheduleTimeRefresh()
        }
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? StorageError { return error.description }
        return "\(error)"
    }
}
