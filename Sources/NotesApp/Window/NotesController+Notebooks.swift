import Dispatch
import Foundation
import Gtk
import NotesCore

/// Notebooks in the sidebar: choosing one shows its notes (and new notes go there); creating,
/// renaming and deleting them (a non-empty one after asking, into the Trash); moving notes by
/// menu or by dragging a row onto a notebook. All file work runs on `io`.
extension NotesController {
    func setUpNotebooks() {
        notebookList.onSelect = { [weak self] path in
            guard let self else { return }
            self.selectedNotebook = path
            self.search.find(self.search.entry.text)
            self.onNotebookChosen?(path)
        }
        notebookList.onAdd = { [weak self] in self?.askForNewNotebook() }
        notebookList.onDropNote = { [weak self] id, notebook in self?.move(id, to: notebook) }
    }

    func askForNewNotebook() {
        let parent = selectedNotebook ?? ""
        // TRANSLATORS: %s is the notebook the new one is made in.
        let prompt = parent.isEmpty ? tr("Name of the new notebook:") : tr("Name of the new notebook inside “%s”:", parent)
        // TRANSLATORS: the dialog's title.
        let title = tr("New Notebook")
        // TRANSLATORS: the New Notebook dialog's button.
        let confirm = tr("Create")
        presentNameDialog(title: title, prompt: prompt, name: "", confirm: confirm) { [weak self] name in
            self?.runNotebookChange(OperationError.Action.createNotebook, name: name) { notebooks in try notebooks.create(name, in: parent) }
        }
    }

    func askToRenameNotebook() {
        guard let path = selectedNotebook else { return }
        let current = PathBytes.displayName(path)
        // TRANSLATORS: the dialog's title.
        let title = tr("Rename Notebook")
        // TRANSLATORS: %s is the notebook's current name.
        let prompt = tr("New name for “%s”:", current)
        // TRANSLATORS: the Rename Notebook dialog's button.
        let confirm = tr("Rename")
        // A name that is not UTF-8 ("�") is offered as the name its bytes most likely meant.
        let suggested = PathBytes.repaired((path as NSString).lastPathComponent)
        presentNameDialog(title: title, prompt: prompt, name: suggested, confirm: confirm) { [weak self] name in
            guard let self else { return }
            // A note open inside goes with the folder: save it, and open it again where it is now.
            let openInside = self.openID.flatMap { $0.hasPrefix(path + "/") ? String($0.dropFirst(path.count)) : nil }
            let io = self.io
            // Its newest words could not be written: nothing moves, and the user hears why.
            self.leaveOpenNote(if: openInside != nil, for: .renameNotebook, note: current) { [weak self] in
                self?.runNotebookChange(.renameNotebook, name: current, then: { [weak self] newPath in
                    guard let self, let openInside else { return }
                    let id = newPath + openInside
                    self.list.select(id, notify: false)
                    self.open(id)
                }) { notebooks in
                    let newPath = try notebooks.rename(path, to: name, followingLinks: false)
                    // Links into it follow once the window shows it (a look through every note).
                    io.async { notebooks.followLinks(intoNotebookRenamedFrom: path, to: newPath) }
                    return newPath
                }
            }
        }
    }

    /// An empty notebook goes at once; one with notes goes to the Trash (with them) after asking.
    func askToDeleteNotebook() {
        guard let path = selectedNotebook else { return }
        let name = PathBytes.displayName(path)
        let library = self.library.folder
        io.async {
            let isEmpty = Notebooks(library: library).isEmpty(path)
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if isEmpty { return self.deleteNotebook(path) }
                let count = self.list.allIDs.filter { $0.hasPrefix(path + "/") }.count
                let question = RecoverableFailure(
                    failureReason: tr("Delete the notebook “%s”?", name),
                    // TRANSLATORS: %d is the number of notes in the notebook about to be deleted.
                    recoverySuggestion: trn("It holds %d note. The notebook and everything in it go to the Trash, where you can restore them.", "It holds %d notes. The notebook and everything in it go to the Trash, where you can restore them.", count),
                    // TRANSLATORS: the button that deletes the notebook (into the Trash).
                    actions: [.cancel(), RecoveryAction(tr("Move to Trash"), role: .destructive) { [weak self] done in
                        self?.deleteNotebook(path)
                        done(false)
                    }])
                self.list.presentError(question) { _ in }
            }
        }
    }

    private func deleteNotebook(_ path: String) {
        let isOpenInside = openID?.hasPrefix(path + "/") ?? false
        leaveOpenNote(if: isOpenInside, for: .deleteNotebook, note: PathBytes.displayName(path)) { [weak self] in
            self?.removeNotebook(path)
        }
    }

    private func removeNotebook(_ path: String) {
        let trash = self.trash
        let library = self.library.folder
        io.async {
            let result = Result { () -> Void in
                let notebooks = Notebooks(library: library)
                if notebooks.isEmpty(path) {
                    try notebooks.removeEmpty(path)
                } else {
                    try trash.trash(relativePath: path)
                }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                if case .failure(let error) = result {
                    self.list.presentError(OperationError(.deleteNotebook, note: PathBytes.displayName(path), underlying: error)) { _ in }
                }
                self.notebookList.select(nil)
                self.live.rescan()
                self.refreshTrash()
            }
        }
    }

    /// Moves a note into `notebook` ("" for the top): the file is renamed, the list, pins,
    /// search and the open editor follow it.
    func move(_ id: String, to notebook: String) {
        guard list.summary(id) != nil, (id as NSString).deletingLastPathComponent != notebook else { return }
        let wasOpen = openID == id
        leaveOpenNote(if: wasOpen, for: .moveNote, note: list.summary(id)?.title) { [weak self] in
            self?.moveFile(id, to: notebook, wasOpen: wasOpen)
        }
    }

    private func moveFile(_ id: String, to notebook: String, wasOpen: Bool) {
        let library = self.library
        let notebooks = Notebooks(library: library.folder, history: openNote.history)
        io.async { [io] in
            let result = Result { () -> (String, NoteSummary) in
                let newID = try notebooks.move(note: id, to: notebook, followingLinks: false)
                return (newID, try library.summary(ofFileNamed: newID))
            }
            // Links to it in other notes follow once the window shows the move (a look
            // through every note); on this queue, so no other change of the library overlaps.
            if case .success(let (newID, _)) = result {
                io.async { notebooks.followLinks(toNoteMovedFrom: id, to: newID) }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let (newID, note)):
                    self.list.remove(id)
                    self.list.upsert(note)
                    self.refreshIndex([id, newID])
                    if self.list.arrangement.pinned.contains(id) {
                        self.list.arrangement.pinned.remove(id)
                        self.setPinned(true, id: newID)
                    }
                    self.search.findAgainIfNeeded()
                    if wasOpen {
                        self.list.select(newID, notify: false)
                        self.openNote.open(note.url)
                    }
                    if notebook.isEmpty {
                        // TRANSLATORS: a toast; %s is the note's title, moved out of every notebook.
                        self.toast.show(tr("“%s” moved to All Notes", note.title))
                    } else {
                        // TRANSLATORS: a toast; %1$s is the note's title, %2$s the notebook it went to.
                        self.toast.show(tr("“%1$s” moved to “%2$s”", note.title, PathBytes.displayName(notebook)))
                    }
                case .failure(let error):
                    if wasOpen { self.open(id) }
                    self.list.presentError(OperationError(.moveNote, note: self.list.summary(id)?.title, underlying: error)) { _ in }
                }
            }
        }
    }

    /// Move to Notebook… for the selected note: a dialog listing the notebooks.
    func askWhereToMoveSelected() {
        guard let id = list.selectedID, let note = list.summary(id) else { return }
        // TRANSLATORS: the title of the dialog that picks a notebook; %s is the note's title.
        let chooser = NotebookChooser(title: tr("Move “%s”", note.title), notebooks: notebookList.notebooks, current: note.notebook,
                                      parent: window) { [weak self] notebook in
            if let notebook { self?.move(id, to: notebook) }
        }
        notebookChooser = chooser
        chooser.present()
    }

    private func presentNameDialog(title: String, prompt: String, name: String, confirm: String, then: @escaping @MainActor (String) -> Void) {
        let dialog = NameDialog(title: title, prompt: prompt, name: name, confirmLabel: confirm, parent: window) { [weak self] answer in
            self?.nameDialog = nil
            if let answer { then(answer) }
        }
        nameDialog = dialog
        dialog.present()
    }

    private func runNotebookChange(_ action: OperationError.Action, name: String, then: (@MainActor (String) -> Void)? = nil,
                                   _ change: @escaping @Sendable (Notebooks) throws -> String) {
        let notebooks = Notebooks(library: library.folder, history: openNote.history)
        io.async {
            let result = Result { try change(notebooks) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let path):
                    self.live.rescan {
                        self.notebookList.select(path)
                        then?(path)
                    }
                case .failure(let error):
                    self.list.presentError(OperationError(action, note: name, underlying: error)) { _ in }
                }
            }
        }
    }
}
