import Dispatch
import Foundation
import Gtk
import NotesCore

/// The Trash inside the library: the sidebar's Trash view, Restore, Empty Trash, and
/// emptying what has been there longer than the chosen number of days.
extension NotesController {
    var trash: LibraryTrash { LibraryTrash(library: library.folder, history: openNote.history) }

    /// Shows the Trash (or the notes again) in the sidebar.
    func showTrash(_ show: Bool) {
        sidebarStack.visibleChildName = show ? "trash" : "notes"
        // TRANSLATORS: the sidebar button: "Trash" shows the Trash, "Back to Notes" leaves it.
        trashButton.label = show ? tr("Back to Notes") : tr("Trash")
        trashButton.accessibleLabel = show ? tr("Back to Notes") : tr("Show the Trash")
        search.entry.isSensitive = !show
        if show { refreshTrash() }
    }

    var isShowingTrash: Bool { sidebarStack.visibleChildName == "trash" }

    /// Reads the Trash again (titles from the files' first lines) and shows it.
    func refreshTrash() {
        let trash = self.trash
        io.async {
            let entries = trash.items().map { item -> TrashView.Entry in
                let title = (try? NoteLibrary(folder: item.url.deletingLastPathComponent()).summary(ofFileNamed: item.name).title) ?? PathBytes.display(item.name)
                return TrashView.Entry(item: item, title: title)
            }
            DispatchQueue.main.async { [weak self] in self?.trashView.show(entries) }
        }
    }

    /// Puts a note back where it was and lists it again (selected, after Undo).
    func restore(_ item: LibraryTrash.Item, select: Bool = false) {
        let trash = self.trash
        let library = self.library
        io.async {
            let result = Result { () -> NoteSummary in
                let path = try trash.restore(item)
                return try library.summary(ofFileNamed: path)
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let note):
                    self.list.upsert(note)
                    if select { self.list.select(note.id, notify: true) }
                    // The index may still hand over the delete's "gone" (its queue is behind):
                    // once it has this note again, the note stays selected.
                    self.refreshIndex([note.id]) { [weak self] _ in
                        guard let self, select, self.list.selectedID != note.id, self.list.summary(note.id) != nil else { return }
                        self.list.select(note.id, notify: true)
                    }
                    // TRANSLATORS: a toast; %s is the title of the note taken out of the Trash.
                    if !select { self.toast.show(tr("“%s” restored", note.title)) }
                    self.refreshTrash()
                case .failure(let error):
                    self.refreshTrash()
                    self.list.presentError(OperationError(.restore, note: PathBytes.displayName(item.originalPath),
                                                          underlying: error)) { [weak self] recovered in
                        if recovered { self?.restore(item, select: select) }
                    }
                }
            }
        }
    }

    /// Asks first: emptying the Trash cannot be undone. The notes' histories (Browse
    /// Versions) go too, or stay on this computer: the user says which.
    func emptyTrash() {
        let count = trashView.entries.count
        guard count > 0 else { return }
        let question = RecoverableFailure(
            failureReason: tr("Empty the Trash?"),
            // TRANSLATORS: %d is the number of notes in the Trash (the singular names no number; add %d if your language needs it). "Browse Versions" is a menu item.
            recoverySuggestion: trn("The note in the Trash will be deleted for good. Its versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", "The %d notes in the Trash will be deleted for good. Their versions kept on this computer can stay (Browse Versions without a note open lists them) or be deleted too.", count),
            actions: [.cancel(),
                      // TRANSLATORS: buttons of the Empty the Trash question; "History" is the notes' kept versions.
                      RecoveryAction(tr("Empty Trash and History"), role: .destructive) { [weak self] done in
                          self?.emptyTrashNow(keepHistory: false)
                          done(false)
                      },
                      RecoveryAction(tr("Empty Trash, Keep History"), role: .destructive) { [weak self] done in
                          self?.emptyTrashNow(keepHistory: true)
                          done(false)
                      }])
        list.presentError(question) { _ in }
    }

    private func emptyTrashNow(keepHistory: Bool) {
        let trash = self.trash
        let openTexts = SharedDocuments.shared.openTexts(in: library.folder)
        io.async {
            let result = Result { try trash.empty(keepHistory: keepHistory, openTexts: openTexts) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.refreshTrash()
                if case .failure(let error) = result {
                    self.list.presentError(OperationError(.emptyTrash, note: nil, underlying: error)) { _ in }
                }
            }
        }
    }

    /// Deletes for good what has been in the Trash longer than `trashRetentionDays` (at start).
    /// Attachments only they linked go too on this computer's own library, never on a synced
    /// one (another device's notes may link them: Remove Unused Attachments… asks there).
    func purgeOldTrash() {
        guard let days = trashRetentionDays else { return }
        let trash = self.trash
        let local = live.createsFolder
        io.async { trash.purge(olderThan: days, removingAttachments: local) }
    }
}
