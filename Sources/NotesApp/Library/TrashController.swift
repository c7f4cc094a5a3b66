import Dispatch
import Foundation
import Gtk
import NotesCore

/// The Trash inside the library: deleting a note into it (with Undo), the sidebar's Trash
/// view, Restore, Empty Trash, and emptying what has been there longer than the chosen number
/// of days. File work runs on the library's `io` queue; failures climb from the list.
final class TrashController {
    private unowned let notes: NotesController
    let view = TrashView()
    /// The sidebar's notes list, or the Trash in its place.
    let stack = Stack()
    // TRANSLATORS: the sidebar button that shows the Trash.
    let button = Button(label: tr("Trash"))
    /// Items older than this many days leave the Trash for good (nil: never).
    var retentionDays: Int? = 30
    /// The note on its way into the Trash: the index's news of it is not listed meanwhile.
    private(set) var pendingDeletion: NoteSummary?

    init(notes: NotesController) {
        self.notes = notes
        stack.add(notes.list.root, name: "notes")
        stack.add(view.root, name: "trash")
        stack.vexpand = true
        // Room for a few notes however small the window: the notebooks above scroll instead.
        stack.setSizeRequest(width: -1, height: NotebookList.notesListMinimumHeight)
        button.addCSSClass("flat")
        button.accessibleLabel = tr("Show the Trash")
        button.setMargins(top: 4, bottom: 4, start: 6, end: 6)
        button.halign = .start
        button.onClicked { [weak self] _ in
            guard let self else { return }
            self.show(!self.isShowing)
        }
        view.onRestore = { [weak self] item in self?.restore(item) }
        view.onEmpty = { [weak self] in self?.empty() }
        view.onRestoreSelected = { [weak self] items in self?.restore(items) }
        view.onDeleteSelected = { [weak self] items in self?.askToDelete(items) }
    }

    /// The library's Trash folder (notebooks deleted with their notes go there too).
    var trash: LibraryTrash { LibraryTrash(library: notes.library.folder, history: notes.openNote.history) }
    private var list: NotesListView { notes.list }

    // MARK: Deleting

    /// Moves the note into the library's Trash at once (a rename: nothing is rewritten) and
    /// offers Undo, which moves it back. The open note is saved first, so the Trash gets its
    /// latest words.
    func delete(_ id: String) {
        guard let note = list.summary(id) else { return }
        // The note stays when its newest words could not be written: nothing goes to the Trash.
        notes.leaveOpenNote(if: notes.openID == id, for: .delete, note: note.title, retry: { [weak self] in self?.delete(id) }) { [weak self] in
            self?.moveToTrash(note)
        }
    }

    func deleteSelected() {
        if let id = list.selectedID { delete(id) }
    }

    private func moveToTrash(_ note: NoteSummary) {
        let id = note.id
        notes.toast.expireNow()
        let position = list.orderedIDs.firstIndex(of: id) ?? 0
        list.remove(id)
        pendingDeletion = note
        let ids = list.orderedIDs
        let next = ids.isEmpty ? nil : ids[min(position, ids.count - 1)]
        list.select(next, notify: true)
        if next == nil { notes.open(nil) }
        let trash = self.trash
        notes.io.async {
            let result = Result { try trash.trash(relativePath: id) }
            DispatchQueue.main.async { [weak self] in self?.moved(note, result) }
        }
    }

    private func moved(_ note: NoteSummary, _ result: Result<LibraryTrash.Item, Error>) {
        pendingDeletion = nil
        switch result {
        case .success(let item):
            notes.presenter.refreshIndex([note.id])
            refresh()
            // TRANSLATORS: a toast; %s is the note's title.
            let message = tr("“%s” moved to Trash", note.title)
            // TRANSLATORS: the toast's button: takes the note back out of the Trash.
            notes.toast.show(message, actionLabel: tr("Undo"),
                             action: { [weak self] in self?.restore(item, select: true) }, onExpire: {})
        case .failure(let error):
            list.upsert(note)  // not deleted after all: it is back in the list
            list.presentError(OperationError(.delete, note: note.title, underlying: error)) { [weak self] recovered in
                if recovered { self?.delete(note.id) }
            }
        }
    }

    // MARK: The Trash view

    /// Shows the Trash (or the notes again) in the sidebar.
    func show(_ show: Bool) {
        stack.visibleChildName = show ? "trash" : "notes"
        // TRANSLATORS: the sidebar button: "Trash" shows the Trash, "Back to Notes" leaves it.
        button.label = show ? tr("Back to Notes") : tr("Trash")
        button.accessibleLabel = show ? tr("Back to Notes") : tr("Show the Trash")
        notes.search.entry.isSensitive = !show
        if show { refresh() }
    }

    var isShowing: Bool { stack.visibleChildName == "trash" }

    /// Reads the Trash again (titles from the files' first lines) and shows it.
    func refresh() {
        let trash = self.trash
        notes.io.async {
            let entries = trash.items().map { item -> TrashView.Entry in
                let title = (try? NoteLibrary(folder: item.url.deletingLastPathComponent()).summary(ofFileNamed: item.name).title) ?? PathBytes.display(item.name)
                return TrashView.Entry(item: item, title: title)
            }
            DispatchQueue.main.async { [weak self] in self?.view.show(entries) }
        }
    }

    /// Puts a note back where it was and lists it again (selected, after Undo).
    func restore(_ item: LibraryTrash.Item, select: Bool = false) {
        let trash = self.trash
        let library = notes.library
        notes.io.async {
            let result = Result { () -> NoteSummary in
                let path = try trash.restore(item)
                return try library.summary(ofFileNamed: path)
            }
            DispatchQueue.main.async { [weak self] in self?.restored(item, result, select: select) }
        }
    }

    private func restored(_ item: LibraryTrash.Item, _ result: Result<NoteSummary, Error>, select: Bool) {
        switch result {
        case .success(let note):
            list.upsert(note)
            if select { list.select(note.id, notify: true) }
            // The index may still hand over the delete's "gone" (its queue is behind):
            // once it has this note again, the note stays selected.
            notes.presenter.refreshIndex([note.id]) { [weak self] _ in
                guard let list = self?.list, select, list.selectedID != note.id, list.summary(note.id) != nil else { return }
                list.select(note.id, notify: true)
            }
            // TRANSLATORS: a toast; %s is the title of the note taken out of the Trash.
            if !select { notes.toast.show(tr("“%s” restored", note.title)) }
            refresh()
        case .failure(let error):
            refresh()
            list.presentError(OperationError(.restore, note: PathBytes.displayName(item.originalPath),
                                             underlying: error)) { [weak self] recovered in
                if recovered { self?.restore(item, select: select) }
            }
        }
    }

    /// Restores the selected items together (issue #47); Undo puts them back in the Trash.
    func restore(_ items: [LibraryTrash.Item]) {
        guard !items.isEmpty else { return }
        let batch = NoteBatch(library: notes.library.folder, history: notes.openNote.history)
        notes.live.holdChanges()
        notes.io.async {
            let outcome = batch.restore(items)
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.notes.live.releaseChanges(with: outcome.changedIDs)
                self.refresh()
                BulkReport.finished(outcome, action: "restore")
                if !outcome.done.isEmpty {
                    // TRANSLATORS: a toast; %d is how many notes came back out of the Trash
                    self.notes.toast.show(trn("%d note restored", "%d notes restored", outcome.done.count, outcome.done.count),
                                          actionLabel: tr("Undo"), action: { [weak self] in self?.undoRestore(outcome) },
                                          onExpire: {}, takesControlZ: true)
                }
                self.report(outcome.failures,
                            trn("%d note could not be restored", "%d notes could not be restored", outcome.failures.count, outcome.failures.count))
            }
        }
    }

    private func undoRestore(_ outcome: NoteBatch.Outcome) {
        let batch = NoteBatch(library: notes.library.folder, history: notes.openNote.history)
        notes.live.holdChanges()
        notes.io.async {
            let undone = batch.undo(outcome)
            DispatchQueue.main.async { [weak self] in
                self?.notes.live.releaseChanges(with: undone.changedIDs)
                self?.refresh()
                BulkReport.finished(undone, action: "undo")
            }
        }
    }

    /// Delete Forever… for the selected items: asked first (it cannot be undone), with the
    /// notes' histories kept or deleted too, as Empty Trash asks.
    func askToDelete(_ items: [LibraryTrash.Item]) {
        guard !items.isEmpty else { return }
        let count = items.count
        let question = RecoverableFailure(
            // TRANSLATORS: %d is how many selected notes of the Trash would be deleted for good
            failureReason: trn("Delete %d note forever?", "Delete %d notes forever?", count, count),
            // TRANSLATORS: "Browse Versions" is a menu item.
            recoverySuggestion: trn("The selected note will be deleted for good. Its versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", "The %d selected notes will be deleted for good. Their versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", count, count),
            actions: [.cancel(),
                      // TRANSLATORS: buttons of the Delete Forever question; "History" is the notes' kept versions.
                      RecoveryAction(tr("Delete with History"), role: .destructive) { [weak self] done in
                          self?.deleteNow(items, keepHistory: false)
                          done(false)
                      },
                      RecoveryAction(tr("Delete, Keep History"), role: .destructive) { [weak self] done in
                          self?.deleteNow(items, keepHistory: true)
                          done(false)
                      }])
        list.presentError(question) { _ in }
    }

    private func deleteNow(_ items: [LibraryTrash.Item], keepHistory: Bool) {
        let trash = self.trash
        let openTexts = SharedDocuments.shared.openTexts(in: notes.library.folder)
        notes.io.async {
            let failed = trash.delete(items, keepHistory: keepHistory, openTexts: openTexts)
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.refresh()
                self.report(failed.map { NoteBatch.Failure(id: $0.0.originalPath, reason: NoteBatch.reason($0.1)) },
                            trn("%d note could not be deleted", "%d notes could not be deleted", failed.count, failed.count))
            }
        }
    }

    /// The notes of the Trash an action on several could not do, named (by the titles the
    /// Trash view shows) with why.
    private func report(_ failures: [NoteBatch.Failure], _ reason: String) {
        guard !failures.isEmpty else { return }
        let titles = Dictionary(view.entries.map { ($0.item.originalPath, $0.title) }, uniquingKeysWith: { a, _ in a })
        list.presentError(RecoverableFailure(failureReason: reason, recoverySuggestion: BulkController.lines(failures, titles: { titles[$0] }),
                                             actions: [.cancel(tr("OK"))])) { _ in }
    }

    // MARK: Emptying

    /// Asks first: emptying the Trash cannot be undone. The notes' histories (Browse
    /// Versions) go too, or stay on this computer: the user says which.
    func empty() {
        let count = view.entries.count
        guard count > 0 else { return }
        let question = RecoverableFailure(
            failureReason: tr("Empty the Trash?"),
            // TRANSLATORS: %d is the number of notes in the Trash (the singular names no number; add %d if your language needs it). "Browse Versions" is a menu item.
            recoverySuggestion: trn("The note in the Trash will be deleted for good. Its versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", "The %d notes in the Trash will be deleted for good. Their versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", count),
            actions: [.cancel(),
                      // TRANSLATORS: buttons of the Empty the Trash question; "History" is the notes' kept versions.
                      RecoveryAction(tr("Empty Trash and History"), role: .destructive) { [weak self] done in
                          self?.emptyNow(keepHistory: false)
                          done(false)
                      },
                      RecoveryAction(tr("Empty Trash, Keep History"), role: .destructive) { [weak self] done in
                          self?.emptyNow(keepHistory: true)
                          done(false)
                      }])
        list.presentError(question) { _ in }
    }

    private func emptyNow(keepHistory: Bool) {
        let trash = self.trash
        let openTexts = SharedDocuments.shared.openTexts(in: notes.library.folder)
        notes.io.async {
            let result = Result { try trash.empty(keepHistory: keepHistory, openTexts: openTexts) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.refresh()
                if case .failure(let error) = result {
                    self.list.presentError(OperationError(.emptyTrash, note: nil, underlying: error)) { _ in }
                }
            }
        }
    }

    /// Deletes for good what has been in the Trash longer than `retentionDays` (at start).
    /// Attachments only they linked go too on this computer's own library, never on a synced
    /// one (another device's notes may link them: Remove Unused Attachments… asks there).
    func purgeOld() {
        guard let days = retentionDays else { return }
        let trash = self.trash
        let local = notes.live.createsFolder
        notes.io.async { trash.purge(olderThan: days, removingAttachments: local) }
    }
}
