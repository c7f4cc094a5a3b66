import Dispatch
import Foundation
import Gtk
import NotesCore

/// What happens to the library when the user lists, creates, selects or deletes notes.
/// The note in the editor is `openNote`'s. Library I/O runs on `io`, never on the main thread.
final class NotesController {
    let library: NoteLibrary
    let list: NotesListView
    let openNote: OpenNoteController
    let toast: ToastView
    let alerts: AlertPresenter
    private let io = DispatchQueue(label: "notula.library")
    private var pendingDeletion: NoteSummary?
    /// Called when "is a note selected" changes (enables Delete Note).
    var onSelectionAvailable: ((Bool) -> Void)?

    init(library: NoteLibrary, list: NotesListView, openNote: OpenNoteController, toast: ToastView, alerts: AlertPresenter) {
        self.library = library
        self.list = list
        self.openNote = openNote
        self.toast = toast
        self.alerts = alerts
        list.onSelect = { [weak self] id in self?.open(id) }
        list.onDeleteRequest = { [weak self] id in self?.delete(id) }
        openNote.onNoteChanged = { [weak self] document, leadingText in self?.refresh(from: document, leadingText: leadingText) }
        openNote.onNoteAdded = { [weak self] url in self?.add(url.lastPathComponent) }
        openNote.newNoteURL = { [library] in library.folder.appendingPathComponent(NoteFileName.make(date: Date())) }
    }

    var document: NoteDocument? { openNote.document }

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
                    if self.document == nil, !self.openNote.isOpening, let first = notes.first {
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
                    self.open(note.id) { [weak self] in self?.openNote.editor.focusText() }
                case .failure(let error):
                    self.alerts.present(title: "Could not create a note", detail: Self.describe(error))
                }
            }
        }
    }

    func open(_ id: String?, then: (() -> Void)? = nil) {
        onSelectionAvailable?(id != nil)
        openNote.open(id.flatMap { list.summary($0)?.url }, then: then)
    }

    /// A note file appeared (Keep Both): read its summary and list it.
    private func add(_ name: String) {
        io.async { [library] in
            guard let note = try? library.summary(ofFileNamed: name) else { return }
            DispatchQueue.main.async { [weak self] in self?.list.upsert(note) }
        }
    }

    /// The open note's title, preview or date changed: update its row.
    private func refresh(from document: NoteDocument, leadingText: String) {
        guard var note = list.summary(document.fileURL.lastPathComponent) else { return }
        if !document.isReadOnly {
            note.title = NoteText.title(of: leadingText)
            note.preview = NoteText.preview(of: leadingText)
        }
        if let modified = document.fileModificationDate { note.modified = modified }
        list.upsert(note)
    }

    /// Saves everything and waits (window closing, quitting). Throws the first failure.
    func saveAllAndWait() throws {
        toast.expireNow()
        io.sync {}
        try openNote.saveAndWait()
    }

    // MARK: Deleting

    /// Removes the note from the list at once and offers Undo; the file goes to the Trash
    /// when the offer expires (or at quit), so an undone delete never touched the disk.
    func delete(_ id: String) {
        guard let note = list.summary(id) else { return }
        if openNote.openFileName == id {
            do {
                try openNote.saveAndWait()  // the Trash gets the latest words
            } catch {
                alerts.present(title: "Could not delete “\(note.title)”",
                               detail: "Its last changes could not be saved first: \(Self.describe(error))")
                return
            }
            openNote.close()
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
